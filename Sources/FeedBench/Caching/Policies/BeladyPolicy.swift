/// Belady's offline optimum (MIN): evicts the entry whose next request lies farthest in the
/// future, an entry never requested again first. The upper bound on hit rate for objects of
/// equal size; with byte capacities and mixed sizes it is the classic heuristic, not an optimum.
///
/// It reads `CacheRequest.nextAccess`, which the caller computes from the whole trace
/// (`KeyTrace.nextAccessPositions`). It always admits the missing object, even when that
/// object's own next request is the farthest, as libCacheSim's does. Entries never requested
/// again tie; the most recently accessed of them goes first.
///
/// Lookup and insert are O(log n) (an indexed heap keyed by next access).
public struct BeladyPolicy: SlotPolicy {
    public let limits: CacheLimits
    public let expiry: Expiry?
    public var table: SlotTable<Void>
    public var occupancy = CacheOccupancy()
    var heap = SlotHeap()
    /// Increases with every access; breaks ties between never-again entries.
    var clock: Int64 = 0

    public init(limits: CacheLimits, expiry: Expiry? = nil) {
        self.limits = limits
        self.expiry = expiry
        table = SlotTable(expectedCount: min(limits.maxCount ?? 1024, 1 << 20))
    }

    public func payload(for request: CacheRequest) {}

    public mutating func didHit(_ slot: Int32, _ request: CacheRequest) {
        clock += 1
        heap.update(slot, rank: request.nextAccess, order: clock)
    }

    public mutating func didInsert(_ slot: Int32, _ request: CacheRequest) {
        clock += 1
        heap.insert(slot, rank: request.nextAccess, order: clock)
    }

    public mutating func selectVictim() -> Int32 { heap.top! }

    public mutating func willRemove(_ slot: Int32) { heap.remove(slot) }

    public mutating func resetOrder() { heap.removeAll() }
}
