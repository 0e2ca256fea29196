/// LRU's exact miss-ratio curve for object capacities in one pass over a key trace
/// (`bench cachesim --mrc`): a request hits an LRU cache of c objects exactly when its stack
/// distance — the number of distinct keys requested since its key's previous request, itself
/// included — is at most c (Mattson et al.'s inclusion property), so one histogram of distances
/// gives the misses at every capacity.
///
/// Distances are counted with a Fenwick tree over request positions holding a 1 at each key's
/// latest request (Bennett and Kruskal): the distance is the count of ones after the key's
/// previous position, plus one. O(log n) time per request; memory O(n) for the tree (4 bytes a
/// request, grown by doubling) and O(distinct keys) for the index. Requests of size 0 are dropped
/// before (the reader's rule); bytes are counted with each request's own size, as object-mode
/// replays count them.
public struct MissRatioCurve {
    /// Requests and their bytes.
    public private(set) var requests = 0
    public private(set) var requestedBytes: Int64 = 0
    /// First requests of their keys: misses at every capacity.
    var coldMisses = 0
    var coldBytes: Int64 = 0
    /// Requests (and their bytes) at each stack distance, index = distance.
    var atDistance: [Int] = [0]
    var bytesAtDistance: [Int64] = [0]
    /// Fenwick tree, 1-based, over request positions 1…tree.count − 1.
    var tree: [Int32] = [Int32](repeating: 0, count: 1 << 16)
    var latest = KeyIndex(expectedCount: 1 << 12)

    public init() {}

    /// Adds the batch's requests, in order. O(batch × log n).
    public mutating func add(_ batch: KeyTraceBatch) {
        precondition(requests + batch.count < Int(Int32.max), "MissRatioCurve: more than 2^31 requests")
        for i in 0..<batch.count {
            requests += 1
            let position = requests
            let (key, size) = (batch.keys[i], batch.sizes[i])
            requestedBytes += size
            if position >= tree.count { grow() }
            if let previous = latest.slot(for: key) {
                let distance = Int(prefix(position - 1) - prefix(Int(previous))) + 1
                if distance >= atDistance.count {
                    atDistance += [Int](repeating: 0, count: distance + 1 - atDistance.count)
                    bytesAtDistance += [Int64](repeating: 0, count: distance + 1 - bytesAtDistance.count)
                }
                atDistance[distance] += 1
                bytesAtDistance[distance] += size
                change(Int(previous), by: -1)
                latest.update(key, slot: Int32(position))
            } else {
                coldMisses += 1
                coldBytes += size
                latest.insert(key, slot: Int32(position))
            }
            change(position, by: 1)
        }
    }

    /// The capacities at which the curve steps down (every distance some request had), in
    /// increasing order; between two of them the misses are those of the smaller. O(distances).
    public var steps: [Int64] {
        atDistance.indices.dropFirst().filter { atDistance[$0] > 0 }.map(Int64.init)
    }

    /// The curve at `capacities` (objects), as cachesim rows of policy `lru`. O(distances +
    /// capacities).
    public func results(at capacities: [Int64]) -> [CacheSimResult] {
        // Misses at capacity c: the cold ones and every distance above c.
        var missesAbove = [Int](repeating: 0, count: atDistance.count + 1)
        var bytesAbove = [Int64](repeating: 0, count: atDistance.count + 1)
        for d in stride(from: atDistance.count - 1, through: 0, by: -1) {
            missesAbove[d] = missesAbove[d + 1] + atDistance[d]
            bytesAbove[d] = bytesAbove[d + 1] + bytesAtDistance[d]
        }
        return capacities.map { capacity in
            let above = Int(min(capacity + 1, Int64(atDistance.count)))
            return CacheSimResult(policy: "lru", capacity: capacity, capacityUnit: .objects, requests: requests,
                                  misses: coldMisses + missesAbove[above], requestedBytes: requestedBytes,
                                  missedBytes: coldBytes + bytesAbove[above])
        }
    }

    /// The sum of positions 1…i. O(log n).
    func prefix(_ i: Int) -> Int32 {
        var sum: Int32 = 0
        var i = i
        while i > 0 {
            sum += tree[i]
            i &= i - 1
        }
        return sum
    }

    mutating func change(_ i: Int, by delta: Int32) {
        var i = i
        while i < tree.count {
            tree[i] += delta
            i += i & -i
        }
    }

    /// Doubles the tree, keeping every position's value. O(n).
    mutating func grow() {
        let old = tree
        var values = [Int32](repeating: 0, count: old.count)
        // A Fenwick node holds the sum of its range; a position's value is its prefix difference.
        var previous: Int32 = 0
        for i in 1..<old.count {
            let sum = prefix(i)
            values[i] = sum - previous
            previous = sum
        }
        tree = [Int32](repeating: 0, count: old.count * 2)
        // O(n) build: each node passes its sum to its parent.
        for i in 1..<values.count {
            tree[i] += values[i]
            let parent = i + (i & -i)
            if parent < tree.count { tree[parent] += tree[i] }
        }
    }
}
