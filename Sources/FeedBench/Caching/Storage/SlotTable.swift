/// The storage every eviction policy keeps its entries in: one slot per cached (or ghost) object,
/// as parallel contiguous arrays addressed by `Int32` slot numbers, plus the key index.
///
/// Slots are recycled through a free list, so a policy in steady state allocates nothing per
/// request. `Payload` is the policy's own per-entry state (a frequency, a heap position, a bit);
/// the doubly linked `links` serve the policy's lists (see `SlotList`).
public struct SlotTable<Payload> {
    /// The previous and next slot of an entry in whichever `SlotList` holds it (`-1`: none).
    struct Link {
        var prev: Int32
        var next: Int32
    }

    var index: KeyIndex
    var keys: [UInt64] = []
    var sizes: [Int64] = []
    /// Expiry deadline of each entry in the caller's time unit (`Int64.max`: never).
    var deadlines: [Int64] = []
    var links: [Link] = []
    var payloads: [Payload] = []
    var freeSlots: [Int32] = []

    /// Creates empty storage with room for `expectedCount` slots before it grows.
    public init(expectedCount: Int) {
        index = KeyIndex(expectedCount: expectedCount)
        keys.reserveCapacity(expectedCount)
        sizes.reserveCapacity(expectedCount)
        deadlines.reserveCapacity(expectedCount)
        links.reserveCapacity(expectedCount)
        payloads.reserveCapacity(expectedCount)
    }

    /// The number of slots in use (resident and ghost entries).
    public var count: Int { index.count }

    /// The slot holding `key`, if any. O(1) expected.
    @inline(__always)
    public func slot(of key: UInt64) -> Int32? { index.slot(for: key) }

    /// Takes a free slot for `key`, which must be absent. O(1) amortised; allocates only when
    /// the table grows past its largest size so far.
    public mutating func allocate(key: UInt64, size: Int64, deadline: Int64 = .max, payload: Payload) -> Int32 {
        let slot: Int32
        if let reused = freeSlots.popLast() {
            slot = reused
            let i = Int(slot)
            keys[i] = key
            sizes[i] = size
            deadlines[i] = deadline
            links[i] = Link(prev: -1, next: -1)
            payloads[i] = payload
        } else {
            precondition(keys.count < Int(Int32.max), "SlotTable: more than 2^31 entries")
            slot = Int32(keys.count)
            keys.append(key)
            sizes.append(size)
            deadlines.append(deadline)
            links.append(Link(prev: -1, next: -1))
            payloads.append(payload)
        }
        index.insert(key, slot: slot)
        return slot
    }

    /// Returns `slot` to the free list and forgets its key. O(1) expected.
    public mutating func release(_ slot: Int32) {
        index.remove(keys[Int(slot)])
        freeSlots.append(slot)
    }

    /// Forgets every entry, keeping the storage for reuse. O(slots).
    public mutating func removeAll() {
        index.removeAll()
        freeSlots.removeAll(keepingCapacity: true)
        freeSlots.append(contentsOf: (0..<Int32(keys.count)).reversed())
    }

    public func key(_ slot: Int32) -> UInt64 { keys[Int(slot)] }
    public func size(_ slot: Int32) -> Int64 { sizes[Int(slot)] }
    public func deadline(_ slot: Int32) -> Int64 { deadlines[Int(slot)] }
    public mutating func setDeadline(_ slot: Int32, _ deadline: Int64) { deadlines[Int(slot)] = deadline }

    /// The slots in use whose deadline has passed at `time` (`time > deadline`), in slot order.
    /// O(slots ever allocated).
    public func expiredSlots(at time: Int64) -> [Int32] {
        var expired: [Int32] = []
        for i in deadlines.indices where time > deadlines[i] && index.slot(for: keys[i]) == Int32(i) {
            expired.append(Int32(i))
        }
        return expired
    }

    /// The policy's state for `slot`.
    public subscript(payload slot: Int32) -> Payload {
        get { payloads[Int(slot)] }
        set { payloads[Int(slot)] = newValue }
    }
}

/// A doubly linked list of slots threaded through a `SlotTable`'s links: the queues, stacks and
/// frequency buckets of the policies. `head` is the most recent end, `tail` the oldest.
///
/// A slot is in at most one list at a time. The list keeps its length and its total weight (in
/// the cache's capacity unit, see `CacheLimits.weight(ofSize:)`) so policies can size queues.
public struct SlotList: Sendable {
    public private(set) var head: Int32 = -1
    public private(set) var tail: Int32 = -1
    /// The number of slots in the list.
    public private(set) var count: Int = 0
    /// The total weight of the slots in the list.
    public private(set) var weight: Int64 = 0

    public init() {}

    public var isEmpty: Bool { head < 0 }

    /// Inserts `slot` at the head. O(1).
    public mutating func pushFront<P>(_ slot: Int32, weight w: Int64, in table: inout SlotTable<P>) {
        table.links[Int(slot)] = .init(prev: -1, next: head)
        if head >= 0 { table.links[Int(head)].prev = slot } else { tail = slot }
        head = slot
        count += 1
        weight += w
    }

    /// Removes `slot`, which must be in this list. O(1).
    public mutating func remove<P>(_ slot: Int32, weight w: Int64, in table: inout SlotTable<P>) {
        let link = table.links[Int(slot)]
        if link.prev >= 0 { table.links[Int(link.prev)].next = link.next } else { head = link.next }
        if link.next >= 0 { table.links[Int(link.next)].prev = link.prev } else { tail = link.prev }
        table.links[Int(slot)] = .init(prev: -1, next: -1)
        count -= 1
        weight -= w
    }

    /// Moves `slot`, which must be in this list, to the head. O(1).
    public mutating func moveToFront<P>(_ slot: Int32, in table: inout SlotTable<P>) {
        guard slot != head else { return }
        let link = table.links[Int(slot)]
        table.links[Int(link.prev)].next = link.next
        if link.next >= 0 { table.links[Int(link.next)].prev = link.prev } else { tail = link.prev }
        table.links[Int(slot)] = .init(prev: -1, next: head)
        table.links[Int(head)].prev = slot
        head = slot
    }

    /// The slot after `slot` toward the tail (`-1` at the tail). O(1).
    public func next<P>(of slot: Int32, in table: SlotTable<P>) -> Int32 { table.links[Int(slot)].next }

    /// The slot before `slot` toward the head (`-1` at the head). O(1).
    public func previous<P>(of slot: Int32, in table: SlotTable<P>) -> Int32 { table.links[Int(slot)].prev }

    /// Empties the list without touching the slots (they must be released or relinked). O(1).
    public mutating func reset() { self = SlotList() }
}
