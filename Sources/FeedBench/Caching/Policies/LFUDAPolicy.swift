/// LFU with dynamic aging (LFU-DA, Arlitt et al., 2000), in its textbook form: frequency counts
/// that let long-idle popular entries age out.
///
/// The cache keeps an inflation value `L`, 0 at first. Each access (the insert, and every hit)
/// sets the entry's priority to its request count plus the current `L`: a new entry has count 1,
/// each hit adds 1. The victim is the entry with the lowest priority, and among equal priorities
/// the least recently accessed; evicting it sets `L` to its priority. `L` never decreases, so an
/// entry accessed recently starts from a higher floor than one whose priority was set long ago.
/// Counts live only while the entry is cached; an entry that leaves by other means
/// (`remove(_:)`, expiry) leaves `L` unchanged, and `removeAll()` restarts it at 0.
///
/// This is not libCacheSim's `LFUDA`, which differs in detail; it is checked against a naive
/// model of the definition above.
///
/// Lookup, insert and eviction are O(log n) (an indexed heap keyed by priority); removal is
/// O(log n).
public struct LFUDAPolicy: SlotPolicy {
    public let limits: CacheLimits
    public let expiry: Expiry?
    /// Each entry's request count.
    public var table: SlotTable<Int64>
    public var occupancy = CacheOccupancy()
    /// Entries by `(-priority, -last access)`: the max-heap's top is the lowest priority, least
    /// recently accessed.
    var heap = SlotHeap()
    /// The inflation value: the priority of the last evicted entry.
    public private(set) var inflation: Int64 = 0
    /// Increases with every access; orders entries of equal priority.
    var clock: Int64 = 0

    public init(limits: CacheLimits, expiry: Expiry? = nil) {
        self.limits = limits
        self.expiry = expiry
        table = SlotTable(expectedCount: min(limits.maxCount ?? 1024, 1 << 20))
    }

    public func payload(for request: CacheRequest) -> Int64 { 1 }

    /// Adds 1 to the count and re-prioritises with the current `L`. O(log n).
    public mutating func didHit(_ slot: Int32, _ request: CacheRequest) {
        table[payload: slot] += 1
        clock += 1
        heap.update(slot, rank: -(table[payload: slot] + inflation), order: -clock)
    }

    /// Enters the new entry at priority 1 + `L`. O(log n).
    public mutating func didInsert(_ slot: Int32, _ request: CacheRequest) {
        clock += 1
        heap.insert(slot, rank: -(table[payload: slot] + inflation), order: -clock)
    }

    /// The lowest priority, least recently accessed entry; `L` becomes its priority. O(1) (its
    /// removal from the heap is `willRemove`'s).
    public mutating func selectVictim() -> Int32 {
        let victim = heap.top!
        inflation = -heap.rank(of: victim)
        return victim
    }

    /// O(log n).
    public mutating func willRemove(_ slot: Int32) { heap.remove(slot) }

    /// O(slots).
    public mutating func resetOrder() {
        heap.removeAll()
        inflation = 0
    }

    /// The priority of a resident key (count + `L` at its last access; for tests and reports).
    /// O(1) expected.
    public func priority(of key: UInt64) -> Int64? {
        table.slot(of: key).map { -heap.rank(of: $0) }
    }

    /// The request count of a resident key (for tests and reports). O(1) expected.
    public func frequency(of key: UInt64) -> Int64? {
        table.slot(of: key).map { table[payload: $0] }
    }
}
