/// The shape shared by policies that remember recently evicted keys as *ghost* entries in the
/// same `SlotTable` as the resident ones (S3-FIFO, 2Q, ARC), so one key lookup finds both.
///
/// A conforming policy supplies how a hit moves an entry and how an entry leaves its queue; it
/// gets lookup with expiry (a ghost is a miss, consumed by the policy's own insert), removal,
/// residency and the occupancy bookkeeping of leaving entries from here. Admission and eviction
/// stay the policy's own.
public protocol GhostPolicy: EvictionPolicy {
    /// The policy's per-entry state, which says whether the entry is a ghost.
    associatedtype Payload

    var table: SlotTable<Payload> { get set }
    var occupancy: CacheOccupancy { get set }
    var expiry: Expiry? { get }

    /// Whether `slot` holds a ghost entry.
    func isGhost(_ slot: Int32) -> Bool
    /// Records a hit on the resident `slot`.
    mutating func didHit(_ slot: Int32)
    /// Takes the resident `slot` out of its queue.
    mutating func unlinkResident(_ slot: Int32, weight: Int64)
    /// Takes the ghost `slot` out of its ghost queue.
    mutating func unlinkGhost(_ slot: Int32, weight: Int64)
}

extension GhostPolicy {
    /// O(1) expected plus the policy's hit cost. A ghost key is a miss and stays a ghost until
    /// the insert that follows; an expired resident entry is removed and counted.
    public mutating func lookup(_ request: CacheRequest) -> Bool {
        guard let slot = table.slot(of: request.key), !isGhost(slot) else { return false }
        if request.time > table.deadline(slot) {
            removeResident(slot)
            occupancy.expirations += 1
            return false
        }
        if let expiry, expiry.refreshOnAccess { table.setDeadline(slot, expiry.deadline(from: request.time)) }
        didHit(slot)
        return true
    }

    /// Removes a resident key (not an eviction). A ghost key is forgotten too, but is not
    /// resident, so the answer is `false`. O(1) expected.
    @discardableResult
    public mutating func remove(_ key: UInt64) -> Bool {
        guard let slot = table.slot(of: key) else { return false }
        if isGhost(slot) {
            dropGhost(slot)
            return false
        }
        removeResident(slot)
        return true
    }

    /// O(1) expected; ghost keys are not resident.
    public func contains(_ key: UInt64) -> Bool {
        guard let slot = table.slot(of: key) else { return false }
        return !isGhost(slot)
    }

    /// Ghosts have no age to pass. O(slots).
    public mutating func removeExpired(at time: Int64) {
        for slot in table.expiredSlots(at: time) where !isGhost(slot) {
            removeResident(slot)
            occupancy.expirations += 1
        }
    }

    /// An entry's weight in the capacity unit. O(1).
    func weight(of slot: Int32) -> Int64 { limits.weight(ofSize: table.size(slot)) }

    /// Forgets a ghost entry. O(1) expected.
    mutating func dropGhost(_ slot: Int32) {
        unlinkGhost(slot, weight: weight(of: slot))
        table.release(slot)
    }

    /// Unlinks and releases a resident slot (no eviction counted). O(1) expected.
    mutating func removeResident(_ slot: Int32) {
        unlinkResident(slot, weight: weight(of: slot))
        occupancy.count -= 1
        occupancy.bytes -= table.size(slot)
        table.release(slot)
    }

    /// Evicts a resident slot for good, without remembering it. O(1) expected.
    mutating func evictResident(_ slot: Int32) {
        removeResident(slot)
        occupancy.evictions += 1
    }
}
