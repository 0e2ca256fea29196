import Testing
import FeedBench

/// Seeded random key traces for differential and property tests: small key spaces so that hits,
/// evictions, ghosts and re-insertions all happen often; sizes that include objects larger than
/// the cache.
struct RandomTrace {
    var requests: [CacheRequest]

    /// `count` requests over `keys` distinct keys, skewed (Zipf 0.8) or uniform, with sizes in
    /// `sizes` fixed per key (as in libCacheSim traces), times advancing by 0–3 per request.
    init(seed: UInt64, count: Int, keys: Int, sizes: ClosedRange<Int64> = 1...1, skewed: Bool = true) {
        var generator = SeededGenerator(seed: seed)
        let zipf = ZipfDistribution(count: keys, alpha: skewed ? 0.8 : 0)
        var sizeOf: [UInt64: Int64] = [:]
        var time: Int64 = 0
        requests = []
        for _ in 0..<count {
            let key = UInt64(zipf.sample(using: &generator)) &* 7919 &+ 11
            if sizeOf[key] == nil { sizeOf[key] = generator.next(in: sizes) }
            time += generator.next(in: 0...3)
            requests.append(CacheRequest(key: key, size: sizeOf[key]!, time: time))
        }
        // Belady's input: each request's next position.
        var nextSeen: [UInt64: Int64] = [:]
        for i in requests.indices.reversed() {
            requests[i].nextAccess = nextSeen[requests[i].key] ?? .max
            nextSeen[requests[i].key] = Int64(i)
        }
    }

    /// The trace as a batch, for `CacheSimulation`.
    var batch: KeyTraceBatch {
        var batch = KeyTraceBatch()
        for r in requests { batch.append(time: r.time, key: r.key, size: r.size) }
        return batch
    }

    /// Replays through `cache`, returning the hit (true) / miss (false) of every request.
    func outcomes<Cache: EvictionPolicy>(_ cache: inout Cache) -> [Bool] {
        requests.map { cache.access($0) }
    }
}

/// A deliberately naive cache: entries in an array, every decision a linear scan, written from
/// the policy's definition and nothing else. The reference every real policy is checked against.
protocol NaiveCache {
    mutating func access(_ request: CacheRequest) -> Bool
}

/// The limits of differential runs: object counts, byte sizes, one-object caches.
enum DifferentialLimits {
    static let all: [CacheLimits] = [
        .objects(1), .objects(2), .objects(7), .objects(40),
        .bytes(1), .bytes(50), .bytes(400), CacheLimits(maxCount: 9, maxBytes: 300),
    ]

    /// Sizes to draw for `limits`: unit sizes when counting objects, else up to beyond the cache.
    static func sizes(for limits: CacheLimits) -> ClosedRange<Int64> {
        limits.measuresBytes ? 1...max(2, limits.capacity / 3 + 20) : 1...1
    }
}

/// A policy's occupancy must equal a naive model's: resident count and bytes, evictions,
/// expirations, and both limits held.
func expectSameOccupancy<Policy: EvictionPolicy>(
    _ policy: Policy, resident: some Collection<UInt64>, sizes: [UInt64: Int64], evictions: Int, expirations: Int,
    _ label: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(policy.occupancy.count == resident.count, "\(label)", sourceLocation: sourceLocation)
    #expect(policy.occupancy.bytes == resident.reduce(0) { $0 + sizes[$1]! }, "\(label)", sourceLocation: sourceLocation)
    #expect(policy.occupancy.evictions == evictions, "\(label)", sourceLocation: sourceLocation)
    #expect(policy.occupancy.expirations == expirations, "\(label)", sourceLocation: sourceLocation)
    #expect(policy.limits.holds(policy.occupancy), "\(label)", sourceLocation: sourceLocation)
}

/// A naive model that can also drop a key and evict on demand, as the ghost policies can.
protocol NaiveEvictingCache: NaiveCache {
    mutating func remove(_ key: UInt64) -> Bool
    mutating func evictOne() -> Bool
}

/// Replays `trace` through `policy` and `naive` side by side, expecting the same outcome for
/// every request, a removal of an earlier key after every 17th request and an `evictOne` after
/// every 53rd. `check` adds per-request expectations and returns whether they held. Stops at
/// the first divergence.
func expectSameOutcomes<Policy: EvictionPolicy, Naive: NaiveEvictingCache>(
    _ trace: RandomTrace, _ policy: inout Policy, _ naive: inout Naive, seed: UInt64,
    check: (Policy, Naive, Int) -> Bool = { _, _, _ in true },
    sourceLocation: SourceLocation = #_sourceLocation
) {
    for (i, request) in trace.requests.enumerated() {
        let (outcome, expected) = (policy.access(request), naive.access(request))
        #expect(outcome == expected, "seed \(seed), request \(i)", sourceLocation: sourceLocation)
        let held = check(policy, naive, i)
        if outcome != expected || !held { return }
        if i % 17 == 16 {
            let key = trace.requests[i / 2].key
            let removed = (policy.remove(key), naive.remove(key))
            #expect(removed.0 == removed.1, "remove, seed \(seed), request \(i)", sourceLocation: sourceLocation)
        }
        if i % 53 == 52 {
            let evicted = (policy.evictOne(), naive.evictOne())
            #expect(evicted.0 == evicted.1, "evictOne, seed \(seed), request \(i)", sourceLocation: sourceLocation)
        }
    }
}
