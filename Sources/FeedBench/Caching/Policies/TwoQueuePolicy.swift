/// 2Q (Johnson and Shasha, VLDB 1994), the full version with libCacheSim's exact semantics:
/// new objects wait in a FIFO (Ain); keys pushed out of it are remembered in a ghost FIFO
/// (Aout); a key requested again while remembered earns a place in an LRU (Am).
///
/// Sizes are in the capacity unit (`CacheLimits.weight(ofSize:)`): Ain's share is
/// floor(`inFraction` × capacity), Am's the rest, Aout holds floor(`outFraction` × capacity)
/// measured in its entries' weights.
///
/// - A hit in Ain changes nothing; a hit in Am moves the entry to Am's head.
/// - A miss whose key is in Aout removes it from Aout and inserts into Am's head; any other
///   miss inserts into Ain's head. Admission needs weight ≤ Ain's share.
/// - Eviction: when Ain is over its share, Ain's tail is evicted and its key enters Aout;
///   otherwise Am's LRU tail is evicted (if Am is empty, Ain's tail after all).
/// - Am is also held to its own share: an entry entering Am from Aout first evicts Am's tail
///   until it fits there, and is not cached if larger than Am's share (libCacheSim inserts it
///   with a full access on its Am sub-cache).
/// - Aout is a FIFO: a key enters at the head if its weight fits Aout at all, after dropping
///   tail keys until it fits.
///
/// Ghost keys share the resident entries' `SlotTable`, so one key lookup finds either.
/// `contains`, `occupancy` and evictions count resident entries only. With both a count and a
/// byte limit, queues are sized in bytes and the count limit is enforced by further evictions.
///
/// Every operation is O(1) expected per entry it evicts.
public struct TwoQueuePolicy: GhostPolicy {
    /// Where an entry is.
    public enum Queue: UInt8, Sendable {
        /// The FIFO of first-time objects.
        case ain
        /// The LRU of objects requested again after leaving Ain.
        case am
        /// The ghost FIFO of keys evicted from Ain.
        case aout
    }

    public let limits: CacheLimits
    public let expiry: Expiry?
    /// Ain's share, in the capacity unit.
    public let inCapacity: Int64
    /// Am's share (the rest of the cache), in the capacity unit.
    public let mainCapacity: Int64
    /// Aout's capacity, in the capacity unit.
    public let outCapacity: Int64
    public var occupancy = CacheOccupancy()

    public var table: SlotTable<Queue>
    var ain = SlotList()
    var am = SlotList()
    var aout = SlotList()

    /// Creates an empty cache. `inFraction` is Ain's share of the capacity, `outFraction`
    /// Aout's size relative to the capacity.
    public init(limits: CacheLimits, expiry: Expiry? = nil, inFraction: Double = 0.25, outFraction: Double = 0.5) {
        precondition(inFraction > 0 && inFraction < 1, "TwoQueuePolicy: inFraction must be in (0, 1)")
        precondition(outFraction >= 0, "TwoQueuePolicy: outFraction must not be negative")
        self.limits = limits
        self.expiry = expiry
        inCapacity = limits.capacityShare(inFraction)
        mainCapacity = limits.capacity - inCapacity
        outCapacity = limits.capacityShare(outFraction)
        table = SlotTable(expectedCount: 2 * min(limits.maxCount ?? 1024, 1 << 20))
    }

    /// Consumes the key's Aout entry if any, then admits, evicts and inserts (see the type's
    /// description). O(1) expected plus the evictions' cost.
    @discardableResult
    public mutating func insert(_ request: CacheRequest) -> Bool {
        var returning = false
        if let slot = table.slot(of: request.key) {
            guard table[payload: slot] == .aout else {
                assertionFailure("insert: key is already resident")
                return true
            }
            dropGhost(slot)
            returning = true
        }
        let weight = limits.weight(ofSize: request.size)
        guard weight <= inCapacity else { return false }
        while limits.wouldOverflow(occupancy, adding: request.size) {
            guard evictOne() else { return false }
        }
        if returning {
            guard weight <= mainCapacity else { return false }
            while am.weight + weight > mainCapacity, am.tail >= 0 {
                evictResident(am.tail)
            }
        }
        let deadline = expiry?.deadline(from: request.time) ?? .max
        let slot = table.allocate(key: request.key, size: request.size, deadline: deadline,
                                  payload: returning ? .am : .ain)
        if returning {
            am.pushFront(slot, weight: weight, in: &table)
        } else {
            ain.pushFront(slot, weight: weight, in: &table)
        }
        occupancy.count += 1
        occupancy.bytes += request.size
        return true
    }

    /// Evicts Ain's tail into Aout when Ain is over its share, else Am's LRU tail. O(1), plus
    /// the Aout keys dropped to make room.
    @discardableResult
    public mutating func evictOne() -> Bool {
        if ain.tail >= 0, ain.weight > inCapacity || am.isEmpty {
            let slot = ain.tail
            let weight = limits.weight(ofSize: table.size(slot))
            ain.remove(slot, weight: weight, in: &table)
            occupancy.count -= 1
            occupancy.bytes -= table.size(slot)
            occupancy.evictions += 1
            enterGhost(slot, weight: weight)
            return true
        }
        guard am.tail >= 0 else { return false }
        evictResident(am.tail)
        return true
    }

    /// Forgets resident and ghost entries. O(slots).
    public mutating func removeAll() {
        ain.reset()
        am.reset()
        aout.reset()
        table.removeAll()
        occupancy.count = 0
        occupancy.bytes = 0
    }

    /// The queue `key` is in (`.aout` for a ghost key), or `nil`. O(1) expected.
    public func queue(of key: UInt64) -> Queue? {
        table.slot(of: key).map { table[payload: $0] }
    }

    /// The number of keys in Aout.
    public var ghostCount: Int { aout.count }

    // MARK: - Internals

    /// Turns the just-evicted `slot` into an Aout entry, or releases it when it cannot fit.
    mutating func enterGhost(_ slot: Int32, weight: Int64) {
        guard weight <= outCapacity else {
            table.release(slot)
            return
        }
        while aout.weight + weight > outCapacity, aout.tail >= 0 { dropGhost(aout.tail) }
        table[payload: slot] = .aout
        table.setDeadline(slot, .max)
        aout.pushFront(slot, weight: weight, in: &table)
    }

    public func isGhost(_ slot: Int32) -> Bool { table[payload: slot] == .aout }

    /// A hit in Am moves the entry to Am's head; a hit in Ain changes nothing.
    public mutating func didHit(_ slot: Int32) {
        if table[payload: slot] == .am { am.moveToFront(slot, in: &table) }
    }

    public mutating func unlinkResident(_ slot: Int32, weight: Int64) {
        switch table[payload: slot] {
        case .ain: ain.remove(slot, weight: weight, in: &table)
        case .am: am.remove(slot, weight: weight, in: &table)
        case .aout: preconditionFailure("unlinkResident: a ghost entry")
        }
    }

    public mutating func unlinkGhost(_ slot: Int32, weight: Int64) { aout.remove(slot, weight: weight, in: &table) }
}
