/// SIEVE (Zhang et al., NSDI '24): one insertion-ordered queue, a visited bit per entry, and a
/// hand that sweeps from the tail toward the head (libCacheSim's `Sieve`).
///
/// A new entry enters at the head unvisited; a hit sets its visited bit and moves nothing. To
/// evict, the hand starts where it last stopped (at the tail the first time, or after it fell
/// off the head) and walks toward the head, clearing visited bits and wrapping from the head to
/// the tail, until it meets an unvisited entry: that entry is the victim, and the hand rests on
/// the victim's neighbour toward the head (none when the victim was the head, so the next sweep
/// starts at the tail). Unlike CLOCK, a survivor is not moved: the queue stays in insertion order
/// and only the hand advances.
///
/// When an entry leaves by other means (`remove(_:)`, expiry) while the hand rests on it, the
/// hand moves to that entry's neighbour toward the head, where the sweep would have gone next.
///
/// Lookup, insert and removal are O(1) (expected, for the key lookup). Choosing a victim is
/// O(1) amortised: each step of the hand clears a bit set by an earlier hit (a single eviction
/// can walk the whole queue once).
public struct SievePolicy: ReferenceBitPolicy {
    public let limits: CacheLimits
    public let expiry: Expiry?
    /// Each entry's visited bit.
    public var table: SlotTable<Bool>
    public var occupancy = CacheOccupancy()
    /// Every resident entry, newest insertion at the head.
    public var queue = SlotList()
    /// The entry the next sweep starts at (`-1`: start at the tail).
    var hand: Int32 = -1

    public init(limits: CacheLimits, expiry: Expiry? = nil) {
        self.limits = limits
        self.expiry = expiry
        table = SlotTable(expectedCount: min(limits.maxCount ?? 1024, 1 << 20))
    }

    /// Sweeps from the hand toward the head, clearing visited bits, to the first unvisited entry;
    /// leaves the hand on that entry's neighbour toward the head. O(1) amortised.
    public mutating func selectVictim() -> Int32 {
        var slot = hand >= 0 ? hand : queue.tail
        while table[payload: slot] {
            table[payload: slot] = false
            let toward = queue.previous(of: slot, in: table)
            slot = toward >= 0 ? toward : queue.tail
        }
        hand = queue.previous(of: slot, in: table)
        return slot
    }

    /// Moves the hand off `slot` (toward the head) before unlinking it. O(1).
    public mutating func willRemove(_ slot: Int32) {
        if slot == hand { hand = queue.previous(of: slot, in: table) }
        queue.remove(slot, weight: 1, in: &table)
    }

    /// O(1).
    public mutating func resetOrder() {
        queue.reset()
        hand = -1
    }

    /// Whether a resident key's visited bit is set (for tests and reports). O(1) expected.
    public func isVisited(_ key: UInt64) -> Bool? {
        table.slot(of: key).map { table[payload: $0] }
    }

    /// The key the hand rests on, `nil` when the next sweep starts at the tail (for tests). O(1).
    public var handKey: UInt64? { hand >= 0 ? table.key(hand) : nil }
}
