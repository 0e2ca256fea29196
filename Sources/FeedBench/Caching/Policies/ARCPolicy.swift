/// ARC, the adaptive replacement cache (Megiddo and Modha, FAST 2003), with libCacheSim's exact
/// semantics for variable sizes: two LRU lists of resident entries, T1 (seen once recently) and
/// T2 (seen at least twice), each with a ghost LRU of keys it evicted, B1 and B2, and a target
/// size `p` for T1 that ghost hits move.
///
/// All sizes are in the capacity unit (`CacheLimits.weight(ofSize:)`), written c for the
/// capacity and |X| for a list's total weight.
///
/// - A hit in T1 moves the entry to T2's head; a hit in T2 moves it to T2's head.
/// - A miss whose key is in B1 raises `p` by max(|B2| / |B1|, 1), capped at c; one in B2 lowers
///   it by max(|B1| / |B2|, 1), floored at 0 (`p` is a real number). The ghost key is removed
///   and the object, if admitted, goes to T2's head, each eviction on the way being a REPLACE.
/// - Any other miss goes to T1's head; each eviction first trims the ghosts: when
///   |T1| + |B1| + the new weight > c, B1's LRU key is dropped and then REPLACE runs (if B1 is
///   empty, T1's LRU entry is evicted without a ghost); otherwise, when |T1| + |B1| + |T2| + |B2|
///   ≥ 2c, B2's LRU key is dropped (if any), and REPLACE runs.
/// - REPLACE evicts T1's LRU entry into B1's head when T1 is non-empty and |T1| > p (or |T1| = p
///   and the last ghost hit was in B2), or when T2 is empty; otherwise T2's LRU entry into B2's
///   head. ("The last ghost hit was in B2" is libCacheSim's flag: set by a B2 hit, cleared by a
///   resident hit or once the object is inserted, so a refused object leaves it set.)
/// - Admission needs weight ≤ c. `evictOne()` outside an insert evicts as for a plain miss of
///   weight 0.
///
/// Ghost keys share the resident entries' `SlotTable`, so one key lookup finds either; an entry
/// evicted into a ghost keeps its slot. `contains`, `occupancy` and evictions count resident
/// entries only. With both a count and a byte limit, lists are sized in bytes and the count
/// limit is enforced by further evictions. Every operation is O(1) expected per eviction.
public struct ARCPolicy: GhostPolicy {
    /// Which list an entry is in.
    public enum List: UInt8, Sendable {
        /// Resident, seen once recently.
        case t1
        /// Resident, seen at least twice recently.
        case t2
        /// Ghost, evicted from T1.
        case b1
        /// Ghost, evicted from T2.
        case b2

        var isGhost: Bool { self == .b1 || self == .b2 }
    }

    public let limits: CacheLimits
    public let expiry: Expiry?
    public var occupancy = CacheOccupancy()
    /// The adaptive target size of T1, in the capacity unit (0 ... capacity).
    public private(set) var target: Double = 0

    public var table: SlotTable<List>
    var t1 = SlotList()
    var t2 = SlotList()
    var b1 = SlotList()
    var b2 = SlotList()
    /// Whether the last ghost hit was in B2 and its object has not been inserted since.
    var lastGhostHitInB2 = false

    /// Creates an empty cache.
    public init(limits: CacheLimits, expiry: Expiry? = nil) {
        self.limits = limits
        self.expiry = expiry
        table = SlotTable(expectedCount: 2 * min(limits.maxCount ?? 1024, 1 << 20))
    }

    /// Consumes the key's ghost entry if any (adapting `target`), then admits, evicts and
    /// inserts (see the type's description). O(1) expected plus the evictions' cost.
    @discardableResult
    public mutating func insert(_ request: CacheRequest) -> Bool {
        var ghostHit = false
        if let slot = table.slot(of: request.key) {
            guard table[payload: slot].isGhost else {
                assertionFailure("insert: key is already resident")
                return true
            }
            adapt(toGhostHitOn: slot)
            ghostHit = true
        }
        let weight = limits.weight(ofSize: request.size)
        guard weight <= limits.capacity else { return false }
        while limits.wouldOverflow(occupancy, adding: request.size) {
            guard evict(incoming: weight, afterGhostHit: ghostHit) else { return false }
        }
        let deadline = expiry?.deadline(from: request.time) ?? .max
        let slot = table.allocate(key: request.key, size: request.size, deadline: deadline,
                                  payload: ghostHit ? .t2 : .t1)
        if ghostHit {
            t2.pushFront(slot, weight: weight, in: &table)
            lastGhostHitInB2 = false
        } else {
            t1.pushFront(slot, weight: weight, in: &table)
        }
        occupancy.count += 1
        occupancy.bytes += request.size
        return true
    }

    /// Evicts one resident entry as for a plain miss of weight 0. O(1).
    @discardableResult
    public mutating func evictOne() -> Bool {
        evict(incoming: 0, afterGhostHit: false)
    }

    /// Forgets resident and ghost entries and the adaptation (`target` back to 0). O(slots).
    public mutating func removeAll() {
        t1.reset()
        t2.reset()
        b1.reset()
        b2.reset()
        table.removeAll()
        target = 0
        lastGhostHitInB2 = false
        occupancy.count = 0
        occupancy.bytes = 0
    }

    /// The list `key` is in, or `nil`. O(1) expected.
    public func list(of key: UInt64) -> List? {
        table.slot(of: key).map { table[payload: $0] }
    }

    /// The total weights of T1, T2, B1 and B2, in the capacity unit.
    public var listWeights: (t1: Int64, t2: Int64, b1: Int64, b2: Int64) {
        (t1.weight, t2.weight, b1.weight, b2.weight)
    }

    // MARK: - Internals

    @inline(__always)

    /// Moves `target` for a hit on the ghost `slot` and forgets the ghost key.
    mutating func adapt(toGhostHitOn slot: Int32) {
        let capacity = Double(limits.capacity)
        let (inB1, inB2) = (Double(b1.weight), Double(b2.weight))
        if table[payload: slot] == .b1 {
            let delta = max(inB1 > 0 ? inB2 / inB1 : 0, 1)
            target = min(target + delta, capacity)
            lastGhostHitInB2 = false
        } else {
            let delta = max(inB2 > 0 ? inB1 / inB2 : 0, 1)
            target = max(target - delta, 0)
            lastGhostHitInB2 = true
        }
        dropGhost(slot)
    }

    /// One eviction for an insert of `incoming` weight. Returns `false` when nothing is resident.
    mutating func evict(incoming: Int64, afterGhostHit: Bool) -> Bool {
        guard occupancy.count > 0 else { return false }
        if afterGhostHit {
            replace()
            return true
        }
        let capacity = limits.capacity
        if t1.weight + b1.weight + incoming > capacity {
            if b1.tail >= 0 {
                dropGhost(b1.tail)
                replace()
            } else if t1.tail >= 0 {
                evictResident(t1.tail)
            } else {
                replace()
            }
        } else {
            let twice = capacity > Int64.max / 2 ? Int64.max : 2 * capacity
            if t1.weight + b1.weight + t2.weight + b2.weight >= twice, b2.tail >= 0 {
                dropGhost(b2.tail)
            }
            replace()
        }
        return true
    }

    /// ARC's REPLACE: evicts T1's or T2's LRU entry into its ghost list.
    mutating func replace() {
        let inT1 = Double(t1.weight)
        let fromT1 = (!t1.isEmpty && (inT1 > target || (inT1 == target && lastGhostHitInB2))) || t2.isEmpty
        let slot = fromT1 ? t1.tail : t2.tail
        let w = weight(of: slot)
        if fromT1 {
            t1.remove(slot, weight: w, in: &table)
            table[payload: slot] = .b1
            b1.pushFront(slot, weight: w, in: &table)
        } else {
            t2.remove(slot, weight: w, in: &table)
            table[payload: slot] = .b2
            b2.pushFront(slot, weight: w, in: &table)
        }
        table.setDeadline(slot, .max)
        occupancy.count -= 1
        occupancy.bytes -= table.size(slot)
        occupancy.evictions += 1
    }

    public func isGhost(_ slot: Int32) -> Bool { table[payload: slot].isGhost }

    /// A hit in T1 moves the entry to T2's head; a hit in T2 moves it to the head.
    public mutating func didHit(_ slot: Int32) {
        lastGhostHitInB2 = false
        if table[payload: slot] == .t1 {
            t1.remove(slot, weight: weight(of: slot), in: &table)
            table[payload: slot] = .t2
            t2.pushFront(slot, weight: weight(of: slot), in: &table)
        } else {
            t2.moveToFront(slot, in: &table)
        }
    }

    public mutating func unlinkResident(_ slot: Int32, weight: Int64) {
        if table[payload: slot] == .t1 {
            t1.remove(slot, weight: weight, in: &table)
        } else {
            t2.remove(slot, weight: weight, in: &table)
        }
    }

    public mutating func unlinkGhost(_ slot: Int32, weight: Int64) {
        if table[payload: slot] == .b1 {
            b1.remove(slot, weight: weight, in: &table)
        } else {
            b2.remove(slot, weight: weight, in: &table)
        }
    }
}
