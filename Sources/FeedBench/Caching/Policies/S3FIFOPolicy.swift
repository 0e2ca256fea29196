/// S3-FIFO (Yang et al., SOSP 2023), with libCacheSim's exact semantics: a small FIFO that
/// filters one-hit wonders, a main FIFO with a 2-bit clock, and a ghost FIFO of recently
/// evicted keys that lets a returning object skip the small queue.
///
/// Sizes are in the capacity unit (`CacheLimits.weight(ofSize:)`): the small FIFO holds
/// floor(`smallFraction` × capacity), main the rest, the ghost floor(`ghostFraction` ×
/// capacity) measured in its entries' weights.
///
/// - A hit in small or main adds 1 to the entry's frequency (kept up to 3, all the policy reads).
/// - A miss whose key is in the ghost removes it from the ghost and inserts into main's head;
///   any other miss inserts into small's head. Admission needs weight ≤ small's capacity; an
///   insertion into small (not main) needs weight < small's capacity, checked after making room,
///   so an object exactly as large as small evicts others and is then not cached. In object
///   mode nothing is cached below 20 objects (small holds one object and admits none).
/// - Eviction takes from main when main is over its share or small is empty, else from small.
///   Main: a tail entry with frequency ≥ 1 goes back to main's head with min(frequency, 3) − 1;
///   the first with 0 is evicted. Small: a tail entry with frequency ≥ 2 moves to main's head
///   with frequency 0 (not an eviction); the first with less is evicted into the ghost.
/// - The ghost is a FIFO: a key enters at the head if its weight fits the ghost at all, after
///   dropping tail keys until it fits.
///
/// Ghost keys share the resident entries' `SlotTable`, so one key lookup finds either; an
/// entry demoted to the ghost keeps its slot. `contains`, `occupancy` and evictions count
/// resident entries only. With both a count and a byte limit, queues are sized in bytes and the
/// count limit is enforced by further evictions.
///
/// Every operation is O(1) expected, except eviction: O(entries passed over), amortised O(1)
/// per request (each pass-over spends a hit).
public struct S3FIFOPolicy: GhostPolicy {
    /// Where an entry is.
    public enum Queue: UInt8, Sendable {
        case small, main, ghost
    }

    /// One entry's state.
    public struct Entry {
        public var queue: Queue
        /// Hits since insertion into its queue (or since its last pass in main), capped.
        public var frequency: UInt8
    }

    /// The frequency at which an entry leaving small moves to main instead of the ghost.
    public static let promotionThreshold: UInt8 = 2
    /// The cap of an entry's frequency (a 2-bit counter).
    static let maxFrequency: UInt8 = 3

    public let limits: CacheLimits
    public let expiry: Expiry?
    /// The small FIFO's capacity, in the capacity unit.
    public let smallCapacity: Int64
    /// The main FIFO's capacity (the rest of the cache), in the capacity unit.
    public let mainCapacity: Int64
    /// The ghost FIFO's capacity, in the capacity unit.
    public let ghostCapacity: Int64
    public var occupancy = CacheOccupancy()

    public var table: SlotTable<Entry>
    var small = SlotList()
    var main = SlotList()
    var ghost = SlotList()

    /// Creates an empty cache. `smallFraction` is the small FIFO's share of the capacity,
    /// `ghostFraction` the ghost's size relative to the capacity.
    public init(limits: CacheLimits, expiry: Expiry? = nil, smallFraction: Double = 0.1, ghostFraction: Double = 0.9) {
        precondition(smallFraction > 0 && smallFraction < 1, "S3FIFOPolicy: smallFraction must be in (0, 1)")
        precondition(ghostFraction >= 0, "S3FIFOPolicy: ghostFraction must not be negative")
        self.limits = limits
        self.expiry = expiry
        smallCapacity = limits.capacityShare(smallFraction)
        mainCapacity = limits.capacity - smallCapacity
        ghostCapacity = limits.capacityShare(ghostFraction)
        table = SlotTable(expectedCount: 2 * min(limits.maxCount ?? 1024, 1 << 20))
    }

    /// Consumes the key's ghost entry if any, then admits, evicts and inserts (see the type's
    /// description). O(1) expected plus the evictions' cost.
    @discardableResult
    public mutating func insert(_ request: CacheRequest) -> Bool {
        var returning = false
        if let slot = table.slot(of: request.key) {
            guard table[payload: slot].queue == .ghost else {
                assertionFailure("insert: key is already resident")
                return true
            }
            dropGhost(slot)
            returning = true
        }
        let weight = limits.weight(ofSize: request.size)
        guard weight <= smallCapacity else { return false }
        while limits.wouldOverflow(occupancy, adding: request.size) {
            guard evictOne() else { return false }
        }
        // libCacheSim checks the stricter bound for small only after making room.
        guard returning || weight < smallCapacity else { return false }
        let queue: Queue = returning ? .main : .small
        let deadline = expiry?.deadline(from: request.time) ?? .max
        let slot = table.allocate(key: request.key, size: request.size, deadline: deadline,
                                  payload: Entry(queue: queue, frequency: 0))
        if returning {
            main.pushFront(slot, weight: weight, in: &table)
        } else {
            small.pushFront(slot, weight: weight, in: &table)
        }
        occupancy.count += 1
        occupancy.bytes += request.size
        return true
    }

    /// Evicts one resident entry, moving entries between queues on the way as the policy does.
    /// O(entries passed over).
    @discardableResult
    public mutating func evictOne() -> Bool {
        while !small.isEmpty || !main.isEmpty {
            if main.weight > mainCapacity || small.isEmpty {
                if evictFromMain() { return true }
            } else if evictFromSmall() {
                return true
            }
        }
        return false
    }

    /// Forgets resident and ghost entries. O(slots).
    public mutating func removeAll() {
        small.reset()
        main.reset()
        ghost.reset()
        table.removeAll()
        occupancy.count = 0
        occupancy.bytes = 0
    }

    /// The queue `key` is in (`.ghost` for a ghost key), or `nil`. O(1) expected.
    public func queue(of key: UInt64) -> Queue? {
        table.slot(of: key).map { table[payload: $0].queue }
    }

    /// The frequency of a resident key, or `nil`. O(1) expected.
    public func frequency(of key: UInt64) -> Int? {
        guard let slot = table.slot(of: key), table[payload: slot].queue != .ghost else { return nil }
        return Int(table[payload: slot].frequency)
    }

    /// The number of keys in the ghost.
    public var ghostCount: Int { ghost.count }

    // MARK: - Internals

    /// Main's clock: reinserts tail entries that were hit, evicts the first that was not.
    mutating func evictFromMain() -> Bool {
        while main.tail >= 0 {
            let slot = main.tail
            let frequency = table[payload: slot].frequency
            if frequency >= 1 {
                main.moveToFront(slot, in: &table)
                table[payload: slot].frequency = min(frequency, S3FIFOPolicy.maxFrequency) - 1
            } else {
                main.remove(slot, weight: limits.weight(ofSize: table.size(slot)), in: &table)
                occupancy.count -= 1
                occupancy.bytes -= table.size(slot)
                occupancy.evictions += 1
                table.release(slot)
                return true
            }
        }
        return false
    }

    /// Small's filter: promotes tail entries hit often enough, evicts the first that was not
    /// into the ghost. Returns `false` when small emptied without an eviction.
    mutating func evictFromSmall() -> Bool {
        while small.tail >= 0 {
            let slot = small.tail
            let weight = limits.weight(ofSize: table.size(slot))
            small.remove(slot, weight: weight, in: &table)
            if table[payload: slot].frequency >= S3FIFOPolicy.promotionThreshold {
                table[payload: slot] = Entry(queue: .main, frequency: 0)
                main.pushFront(slot, weight: weight, in: &table)
            } else {
                occupancy.count -= 1
                occupancy.bytes -= table.size(slot)
                occupancy.evictions += 1
                enterGhost(slot, weight: weight)
                return true
            }
        }
        return false
    }

    /// Turns the just-evicted `slot` into a ghost entry, or releases it when it cannot fit.
    mutating func enterGhost(_ slot: Int32, weight: Int64) {
        guard weight <= ghostCapacity else {
            table.release(slot)
            return
        }
        while ghost.weight + weight > ghostCapacity, ghost.tail >= 0 { dropGhost(ghost.tail) }
        table[payload: slot] = Entry(queue: .ghost, frequency: 0)
        table.setDeadline(slot, .max)
        ghost.pushFront(slot, weight: weight, in: &table)
    }

    public func isGhost(_ slot: Int32) -> Bool { table[payload: slot].queue == .ghost }

    /// A hit adds 1 to the entry's frequency, up to `maxFrequency`.
    public mutating func didHit(_ slot: Int32) {
        if table[payload: slot].frequency < S3FIFOPolicy.maxFrequency { table[payload: slot].frequency += 1 }
    }

    public mutating func unlinkResident(_ slot: Int32, weight: Int64) {
        switch table[payload: slot].queue {
        case .small: small.remove(slot, weight: weight, in: &table)
        case .main: main.remove(slot, weight: weight, in: &table)
        case .ghost: preconditionFailure("unlinkResident: a ghost entry")
        }
    }

    public mutating func unlinkGhost(_ slot: Int32, weight: Int64) { ghost.remove(slot, weight: weight, in: &table) }
}
