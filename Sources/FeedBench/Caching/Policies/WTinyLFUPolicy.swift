/// W-TinyLFU (Einziger, Friedman and Manes): a small LRU *window* in front of a segmented-LRU
/// *main* cache, and a frequency sketch that decides which of the window's victim and the main
/// cache's victim stays. Recency-biased bursts live in the window; an object reaches the main
/// cache only by being requested more often than what it would displace.
///
/// The structure and every rule are libCacheSim's (`WTinyLFU-w0.01-SLRU`), so `bench cachesim`
/// can be checked against its numbers:
///
/// - **Sizes**, in the capacity unit (`CacheLimits.weight(ofSize:)`): window = ⌊capacity ×
///   `window`⌋, main = the rest; main is an SLRU with probation = ⌊main × (1 − `protected`)⌋ and
///   protected = ⌊main × `protected`⌋.
/// - **Admission**: an object is cached only if its weight fits in the window and in probation
///   (so with the default 1 % window, nothing is cached below 100 objects in count mode).
/// - **Miss**: while the new object does not fit in the whole cache, run an *eviction step*;
///   then the object enters the window's head and is counted once in the sketch.
/// - **Eviction step**: take the window's LRU tail, the *candidate*. If main has room for it
///   (main weight + its weight ≤ main capacity), it moves to main. Otherwise it duels main's
///   victim (probation's tail, or protected's tail when probation is empty): if its estimate
///   is *strictly* higher, main's victim is evicted and the candidate moves to main; otherwise
///   the candidate is evicted. Either way the candidate is counted in the sketch. The step
///   goes on with the next window tail until a candidate has been evicted; when the window
///   runs empty it evicts main's victim instead. So one step evicts exactly one window entry
///   or one main entry, plus the main victims that lost duels; the window may hold more than
///   its share while main has room (at first it fills the whole cache).
/// - **Entering main** (SLRU insert): to probation's head if probation has room, else to
///   protected's head if protected has room, else main's victims are evicted until main has
///   room and it goes to probation's head (probation may then exceed its share).
/// - **Hit**: in the window, move to its head (the sketch is not touched). In protected, move
///   to its head. In probation, move to protected's head; while protected is over its share its
///   tail goes to probation's head, and while probation is over its share its tail is evicted.
///   A main hit is counted in the sketch, and every 32 × main-capacity main hits the sketch is
///   halved.
/// - **Sketch**: a `FrequencySketch` for main-capacity entries at error 0.001, seeded
///   deterministically (libCacheSim hashes differently, so results agree closely, not exactly).
///
/// With both a count and a byte limit, the queues are sized in bytes and further eviction
/// steps run until the count limit holds. Expiry is checked on lookup: an expired entry is a
/// miss, removed and counted in `occupancy.expirations`. `removeAll` keeps the sketch (the
/// popularity history outlives the contents).
///
/// Costs: lookup O(1) expected, plus O(evicted) when a promotion overflows probation; insert
/// and `evictOne` O(moved + evicted) entries, each with O(`sketch.hashCount`) sketch work. No
/// allocation per request once the slot table has grown.
public struct WTinyLFUPolicy: EvictionPolicy {
    /// Where a resident entry is.
    public enum Segment: UInt8, Sendable {
        case window, probation, protected
    }

    public let limits: CacheLimits
    public let expiry: Expiry?
    public private(set) var occupancy = CacheOccupancy()
    /// The window's share of the capacity, in the capacity unit.
    public let windowCapacity: Int64
    /// The main SLRU's capacity (capacity − window), in the capacity unit.
    public let mainCapacity: Int64
    /// Probation's share of main, in the capacity unit.
    public let probationCapacity: Int64
    /// Protected's share of main, in the capacity unit.
    public let protectedCapacity: Int64
    /// Main hits between two halvings of the sketch (32 × main capacity).
    public let halvingPeriod: Int64
    /// The frequency sketch behind admission.
    public private(set) var sketch: FrequencySketch
    /// Main hits since the last halving.
    public private(set) var mainHitsSinceHalving: Int64 = 0

    var table: SlotTable<Segment>
    var window = SlotList()
    var probation = SlotList()
    var protected = SlotList()

    /// Creates an empty cache: `window` is the window's share of the capacity (0 < window < 1),
    /// `protected` the protected segment's share of main (0 < protected < 1); `maxSketchWidth`
    /// caps the sketch's counters (see `FrequencySketch`).
    public init(limits: CacheLimits, expiry: Expiry? = nil, window: Double = 0.01, protected: Double = 0.8,
                maxSketchWidth: Int = FrequencySketch.defaultMaxWidth) {
        precondition(window > 0 && window < 1, "WTinyLFUPolicy: window must be in (0, 1)")
        precondition(protected > 0 && protected < 1, "WTinyLFUPolicy: protected must be in (0, 1)")
        self.limits = limits
        self.expiry = expiry
        let capacity = limits.capacity
        windowCapacity = Int64((Double(capacity) * window).rounded(.down))
        mainCapacity = capacity - windowCapacity
        // 1 − 0.8 is 0.19999999999999996 in binary; rounding to 9 decimals gives the 0.2 that
        // libCacheSim's 1/5 is, so ⌊main × 0.2⌋ agrees with it.
        let probationShare = ((1 - protected) * 1e9).rounded() / 1e9
        probationCapacity = Int64((Double(mainCapacity) * probationShare).rounded(.down))
        protectedCapacity = Int64((Double(mainCapacity) * protected).rounded(.down))
        let (period, overflow) = mainCapacity.multipliedReportingOverflow(by: 32)
        halvingPeriod = overflow ? .max : max(period, 1)
        sketch = FrequencySketch(expectedEntries: mainCapacity, errorRate: 0.001, maxWidth: maxSketchWidth)
        table = SlotTable(expectedCount: min(limits.maxCount ?? 1024, 1 << 20))
    }

    // MARK: EvictionPolicy

    /// O(1) expected, plus O(evicted) when promoting overflows probation.
    public mutating func lookup(_ request: CacheRequest) -> Bool {
        guard let slot = table.slot(of: request.key) else { return false }
        if request.time > table.deadline(slot) {
            removeSlot(slot)
            occupancy.expirations += 1
            return false
        }
        if let expiry, expiry.refreshOnAccess { table.setDeadline(slot, expiry.deadline(from: request.time)) }
        switch table[payload: slot] {
        case .window:
            window.moveToFront(slot, in: &table)
            return true
        case .protected:
            protected.moveToFront(slot, in: &table)
        case .probation:
            promote(slot)
        }
        sketch.add(request.key)
        mainHitsSinceHalving += 1
        if mainHitsSinceHalving >= halvingPeriod {
            mainHitsSinceHalving = 0
            sketch.halve()
        }
        return true
    }

    /// O(moved + evicted) entries, each with O(`sketch.hashCount`) work.
    @discardableResult
    public mutating func insert(_ request: CacheRequest) -> Bool {
        assert(table.slot(of: request.key) == nil, "insert: key is already resident")
        let w = limits.weight(ofSize: request.size)
        guard limits.admits(size: request.size), w <= windowCapacity, w <= probationCapacity else { return false }
        while residentWeight + w > limits.capacity {
            guard evictStep() else { return false }
        }
        if let maxCount = limits.maxCount {
            while occupancy.count >= maxCount {
                guard evictStep() else { return false }
            }
        }
        let deadline = expiry?.deadline(from: request.time) ?? .max
        let slot = table.allocate(key: request.key, size: request.size, deadline: deadline, payload: .window)
        window.pushFront(slot, weight: w, in: &table)
        occupancy.count += 1
        occupancy.bytes += request.size
        sketch.add(request.key)
        return true
    }

    /// O(1) expected.
    @discardableResult
    public mutating func remove(_ key: UInt64) -> Bool {
        guard let slot = table.slot(of: key) else { return false }
        removeSlot(slot)
        return true
    }

    /// Runs one eviction step (see the type's documentation): window tails move into main
    /// while it has room or while they win their duel against main's victim (which is then
    /// evicted); the step ends by evicting the first losing window tail, or main's victim when
    /// the window is empty. O(moved + evicted).
    @discardableResult
    public mutating func evictOne() -> Bool { evictStep() }

    /// O(1) expected.
    public func contains(_ key: UInt64) -> Bool { table.slot(of: key) != nil }

    /// O(slots).
    public mutating func removeExpired(at time: Int64) {
        for slot in table.expiredSlots(at: time) {
            removeSlot(slot)
            occupancy.expirations += 1
        }
    }

    /// Empties the cache, keeping the sketch and the counters. O(slots).
    public mutating func removeAll() {
        table.removeAll()
        window.reset()
        probation.reset()
        protected.reset()
        occupancy.count = 0
        occupancy.bytes = 0
    }

    // MARK: Inspection

    /// The segment holding `key`, or `nil` when it is not resident. O(1) expected.
    public func segment(of key: UInt64) -> Segment? { table.slot(of: key).map { table[payload: $0] } }

    /// The resident weight of each segment, in the capacity unit. O(1).
    public var segmentWeights: (window: Int64, probation: Int64, protected: Int64) {
        (window.weight, probation.weight, protected.weight)
    }

    /// The keys of `segment` from head (most recent) to tail. O(entries); for tests.
    public func keys(in segment: Segment) -> [UInt64] {
        var list: SlotList
        switch segment {
        case .window: list = window
        case .probation: list = probation
        case .protected: list = protected
        }
        var keys: [UInt64] = []
        var slot = list.head
        while slot >= 0 {
            keys.append(table.key(slot))
            slot = list.next(of: slot, in: table)
        }
        return keys
    }

    // MARK: Internals

    var mainWeight: Int64 { probation.weight + protected.weight }
    var residentWeight: Int64 { window.weight + probation.weight + protected.weight }

    @inline(__always)
    func weight(_ slot: Int32) -> Int64 { limits.weight(ofSize: table.size(slot)) }

    /// Main's next victim: probation's tail, or protected's when probation is empty (`-1`: main
    /// is empty).
    var mainVictim: Int32 { probation.isEmpty ? protected.tail : probation.tail }

    /// One eviction step; `false` when nothing is resident.
    mutating func evictStep() -> Bool {
        while window.tail >= 0 {
            let candidate = window.tail
            let w = weight(candidate)
            let key = table.key(candidate)
            if mainWeight + w <= mainCapacity {
                window.remove(candidate, weight: w, in: &table)
                enterMain(candidate)
                sketch.add(key)
                continue
            }
            let rival = mainVictim
            if rival >= 0, sketch.estimate(key) > sketch.estimate(table.key(rival)) {
                // The candidate wins: main's victim goes, the candidate takes its place, and
                // the step goes on with the next window tail.
                evict(rival)
                window.remove(candidate, weight: w, in: &table)
                enterMain(candidate)
                sketch.add(key)
                continue
            }
            evict(candidate)
            sketch.add(key)
            return true
        }
        let victim = mainVictim
        guard victim >= 0 else { return false }
        evict(victim)
        return true
    }

    /// Links `slot`, resident but in no segment, into main (libCacheSim's SLRU insert).
    mutating func enterMain(_ slot: Int32) {
        let w = weight(slot)
        if probation.weight + w <= probationCapacity {
            probation.pushFront(slot, weight: w, in: &table)
            table[payload: slot] = .probation
        } else if protected.weight + w <= protectedCapacity {
            protected.pushFront(slot, weight: w, in: &table)
            table[payload: slot] = .protected
        } else {
            while mainWeight + w > mainCapacity, mainVictim >= 0 { evict(mainVictim) }
            probation.pushFront(slot, weight: w, in: &table)
            table[payload: slot] = .probation
        }
    }

    /// Moves a probation hit to protected, demoting protected's tail and evicting probation's
    /// tail while either is over its share.
    mutating func promote(_ slot: Int32) {
        let w = weight(slot)
        probation.remove(slot, weight: w, in: &table)
        protected.pushFront(slot, weight: w, in: &table)
        table[payload: slot] = .protected
        while protected.weight > protectedCapacity {
            let demoted = protected.tail
            let dw = weight(demoted)
            protected.remove(demoted, weight: dw, in: &table)
            probation.pushFront(demoted, weight: dw, in: &table)
            table[payload: demoted] = .probation
            while probation.weight > probationCapacity { evict(probation.tail) }
        }
    }

    mutating func evict(_ slot: Int32) {
        removeSlot(slot)
        occupancy.evictions += 1
    }

    /// Unlinks and releases a resident slot, updating occupancy (no eviction counted).
    mutating func removeSlot(_ slot: Int32) {
        let w = weight(slot)
        switch table[payload: slot] {
        case .window: window.remove(slot, weight: w, in: &table)
        case .probation: probation.remove(slot, weight: w, in: &table)
        case .protected: protected.remove(slot, weight: w, in: &table)
        }
        occupancy.count -= 1
        occupancy.bytes -= table.size(slot)
        table.release(slot)
    }
}
