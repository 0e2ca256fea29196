/// The shape CLOCK and SIEVE share: one insertion-ordered queue and one bit per entry, clear
/// on insertion and set by a hit; a hit moves nothing. Conforming policies supply only how a
/// victim is found (CLOCK moves survivors to the head, SIEVE sweeps a hand over them).
public protocol ReferenceBitPolicy: SlotPolicy where Payload == Bool {
    /// Every resident entry, newest insertion at the head.
    var queue: SlotList { get set }
}

extension ReferenceBitPolicy {
    /// A new entry starts with its bit clear.
    public func payload(for request: CacheRequest) -> Bool { false }

    /// Sets the entry's bit. O(1).
    public mutating func didHit(_ slot: Int32, _ request: CacheRequest) { table[payload: slot] = true }

    /// Links the new entry at the head. O(1).
    public mutating func didInsert(_ slot: Int32, _ request: CacheRequest) {
        // `queue` and `table` are protocol properties here, which cannot be borrowed together;
        // the list is four words, so the copy costs nothing.
        var list = queue
        list.pushFront(slot, weight: 1, in: &table)
        queue = list
    }
}
