/// A cache over one queue: new entries at the head, victims from the tail.
///
/// With recency order (a hit moves the entry to the head) it is **LRU**; with insertion order
/// (hits change nothing) **FIFO**. With eager expiry it is the **TTL** policy: every entry has
/// the same lifetime, so the tail is always the entry that expires first; each operation first
/// drops the expired entries from the tail, and capacity pressure evicts from the tail too (with
/// a lifetime restarted by each hit, use recency order, which keeps deadlines sorted along the
/// queue).
///
/// The order is a stored flag rather than a type parameter on purpose: a generic policy type
/// would reach the replay loop unspecialised through the existential (`Benchmarks/` showed LRU
/// at 4 M requests/s that way).
///
/// Every operation is O(1) (expected, for the key lookup); eager expiry is O(expired).
public struct QueuePolicy: SlotPolicy {
    /// Where a hit puts an entry.
    public enum Order: Sendable {
        /// A hit moves the entry to the head (LRU).
        case recency
        /// A hit changes nothing (FIFO).
        case insertion
    }

    public let limits: CacheLimits
    public let expiry: Expiry?
    public let order: Order
    /// Whether expired entries are dropped from the tail before every operation (TTL).
    public let expiresEagerly: Bool
    public var table: SlotTable<Void>
    public var occupancy = CacheOccupancy()
    var queue = SlotList()

    /// Creates an empty cache. `expiresEagerly` requires an `expiry`.
    public init(order: Order, limits: CacheLimits, expiry: Expiry? = nil, expiresEagerly: Bool = false) {
        precondition(!expiresEagerly || expiry != nil, "QueuePolicy: eager expiry needs a maximum age")
        precondition(!expiresEagerly || order == .recency || expiry?.refreshOnAccess != true,
                     "QueuePolicy: a lifetime restarted by hits needs recency order to expire eagerly")
        self.order = order
        self.limits = limits
        self.expiry = expiry
        self.expiresEagerly = expiresEagerly
        table = SlotTable(expectedCount: min(limits.maxCount ?? 1024, 1 << 20))
    }

    /// Least recently used: evicts the entry whose last access is oldest.
    public static func lru(limits: CacheLimits, expiry: Expiry? = nil) -> QueuePolicy {
        QueuePolicy(order: .recency, limits: limits, expiry: expiry)
    }

    /// First in, first out: evicts the oldest insertion; hits change nothing.
    public static func fifo(limits: CacheLimits, expiry: Expiry? = nil) -> QueuePolicy {
        QueuePolicy(order: .insertion, limits: limits, expiry: expiry)
    }

    /// Time to live: entries expire `expiry.maxAge` after insertion (or after their last hit when
    /// `refreshOnAccess`), eagerly; under pressure the entry that expires first goes first.
    public static func ttl(limits: CacheLimits, expiry: Expiry) -> QueuePolicy {
        QueuePolicy(order: expiry.refreshOnAccess ? .recency : .insertion, limits: limits, expiry: expiry, expiresEagerly: true)
    }

    public mutating func lookup(_ request: CacheRequest) -> Bool {
        if expiresEagerly { expireDue(at: request.time) }
        return slotLookup(request)
    }

    @discardableResult
    public mutating func insert(_ request: CacheRequest) -> Bool {
        if expiresEagerly { expireDue(at: request.time) }
        return slotInsert(request)
    }

    /// Drops every entry whose deadline is before `time`. O(expired).
    public mutating func expireDue(at time: Int64) {
        while queue.tail >= 0, time > table.deadline(queue.tail) {
            removeSlot(queue.tail)
            occupancy.expirations += 1
        }
    }

    public func payload(for request: CacheRequest) {}

    public mutating func didHit(_ slot: Int32, _ request: CacheRequest) {
        if order == .recency { queue.moveToFront(slot, in: &table) }
    }

    public mutating func didInsert(_ slot: Int32, _ request: CacheRequest) {
        queue.pushFront(slot, weight: 1, in: &table)
    }

    public mutating func selectVictim() -> Int32 { queue.tail }

    public mutating func willRemove(_ slot: Int32) { queue.remove(slot, weight: 1, in: &table) }

    public mutating func resetOrder() { queue.reset() }
}
