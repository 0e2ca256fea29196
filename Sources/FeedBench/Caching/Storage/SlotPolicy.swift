/// The shape shared by policies that keep every resident entry in one `SlotTable` and pick one
/// victim at a time (LRU, FIFO, LFU, TTL, Belady, CLOCK, SIEVE, LFUDA).
///
/// A conforming policy supplies only its ordering — what a hit does, where an insert goes,
/// which entry is the next victim, how an entry leaves — and gets lookup with expiry,
/// admission, eviction until the object fits, removal and occupancy accounting from here.
/// Policies with ghosts or admission filters implement `EvictionPolicy` directly.
public protocol SlotPolicy: EvictionPolicy {
    /// The policy's per-entry state.
    associatedtype Payload

    var table: SlotTable<Payload> { get set }
    var occupancy: CacheOccupancy { get set }
    var expiry: Expiry? { get }

    /// The state a new entry starts with.
    func payload(for request: CacheRequest) -> Payload
    /// Records a hit on the resident `slot`.
    mutating func didHit(_ slot: Int32, _ request: CacheRequest)
    /// Links the freshly allocated `slot` into the policy's order.
    mutating func didInsert(_ slot: Int32, _ request: CacheRequest)
    /// Chooses the next victim among resident entries (at least one is resident).
    mutating func selectVictim() -> Int32
    /// Unlinks `slot` from the policy's order before its storage is released.
    mutating func willRemove(_ slot: Int32)
    /// Forgets the whole order (every slot is about to be released).
    mutating func resetOrder()
}

extension SlotPolicy {
    /// O(1) expected plus the policy's hit cost.
    public mutating func lookup(_ request: CacheRequest) -> Bool { slotLookup(request) }

    /// O(evicted) times the policy's eviction cost, plus its insert cost.
    @discardableResult
    public mutating func insert(_ request: CacheRequest) -> Bool { slotInsert(request) }

    /// O(1) expected plus the policy's unlink cost.
    @discardableResult
    public mutating func remove(_ key: UInt64) -> Bool {
        guard let slot = table.slot(of: key) else { return false }
        removeSlot(slot)
        return true
    }

    /// The policy's eviction cost.
    @discardableResult
    public mutating func evictOne() -> Bool {
        guard occupancy.count > 0 else { return false }
        removeSlot(selectVictim())
        occupancy.evictions += 1
        return true
    }

    /// O(1) expected.
    public func contains(_ key: UInt64) -> Bool { table.slot(of: key) != nil }

    /// O(slots).
    public mutating func removeAll() {
        resetOrder()
        table.removeAll()
        occupancy.count = 0
        occupancy.bytes = 0
    }

    /// O(slots).
    public mutating func removeExpired(at time: Int64) {
        for slot in table.expiredSlots(at: time) {
            removeSlot(slot)
            occupancy.expirations += 1
        }
    }

    /// The default lookup, for policies that add work around it.
    public mutating func slotLookup(_ request: CacheRequest) -> Bool {
        guard let slot = table.slot(of: request.key) else { return false }
        if request.time > table.deadline(slot) {
            removeSlot(slot)
            occupancy.expirations += 1
            return false
        }
        if let expiry, expiry.refreshOnAccess { table.setDeadline(slot, expiry.deadline(from: request.time)) }
        didHit(slot, request)
        return true
    }

    /// The default insert, for policies that add work around it.
    public mutating func slotInsert(_ request: CacheRequest) -> Bool {
        assert(table.slot(of: request.key) == nil, "insert: key is already resident")
        guard limits.admits(size: request.size) else { return false }
        while limits.wouldOverflow(occupancy, adding: request.size) {
            guard evictOne() else { return false }
        }
        let deadline = expiry?.deadline(from: request.time) ?? .max
        let slot = table.allocate(key: request.key, size: request.size, deadline: deadline, payload: payload(for: request))
        occupancy.count += 1
        occupancy.bytes += request.size
        didInsert(slot, request)
        return true
    }

    /// Unlinks and releases a resident slot, updating occupancy (no eviction counted).
    public mutating func removeSlot(_ slot: Int32) {
        willRemove(slot)
        occupancy.count -= 1
        occupancy.bytes -= table.size(slot)
        table.release(slot)
    }
}
