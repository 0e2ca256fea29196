/// CLOCK (second chance): FIFO order plus one reference bit per entry (libCacheSim's `Clock`
/// with a one-bit counter).
///
/// A new entry enters at the head with its bit clear; a hit sets the bit and moves nothing. To
/// evict, the policy looks at the tail: an entry with its bit set loses it and goes back to the
/// head; the first tail entry with a clear bit is the victim. The queue thus plays the circular
/// clock face, the tail its hand.
///
/// Lookup, insert and removal are O(1) (expected, for the key lookup). Choosing a victim is
/// O(1) amortised: each entry it passes over had its bit set by a hit since it was last passed,
/// so the walk costs at most one step per earlier hit (a single eviction can walk the whole
/// queue once).
public struct ClockPolicy: ReferenceBitPolicy {
    public let limits: CacheLimits
    public let expiry: Expiry?
    /// Each entry's reference bit.
    public var table: SlotTable<Bool>
    public var occupancy = CacheOccupancy()
    /// Every resident entry, newest insertion (or second chance) at the head.
    public var queue = SlotList()

    public init(limits: CacheLimits, expiry: Expiry? = nil) {
        self.limits = limits
        self.expiry = expiry
        table = SlotTable(expectedCount: min(limits.maxCount ?? 1024, 1 << 20))
    }

    /// Gives every referenced tail entry its second chance, then names the unreferenced tail.
    /// O(1) amortised.
    public mutating func selectVictim() -> Int32 {
        var slot = queue.tail
        while table[payload: slot] {
            table[payload: slot] = false
            queue.moveToFront(slot, in: &table)
            slot = queue.tail
        }
        return slot
    }

    /// O(1).
    public mutating func willRemove(_ slot: Int32) { queue.remove(slot, weight: 1, in: &table) }

    /// O(1).
    public mutating func resetOrder() { queue.reset() }

    /// Whether a resident key's reference bit is set (for tests and reports). O(1) expected.
    public func isReferenced(_ key: UInt64) -> Bool? {
        table.slot(of: key).map { table[payload: $0] }
    }
}
