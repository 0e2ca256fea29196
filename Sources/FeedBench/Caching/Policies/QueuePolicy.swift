/// Where a hit puts an entry in a `QueuePolicy`'s single queue.
public protocol QueueOrder {
    /// Whether a hit moves the entry to the head (recency order) or leaves it (insertion order).
    static var promotesOnHit: Bool { get }
}

/// Recency order: a hit moves the entry to the head. Makes `QueuePolicy` an LRU.
public enum RecencyOrder: QueueOrder { public static let promotesOnHit = true }

/// Insertion order: a hit changes nothing. Makes `QueuePolicy` a FIFO.
public enum InsertionOrder: QueueOrder { public static let promotesOnHit = false }

/// A cache over one queue: new entries at the head, victims from the tail.
///
/// With `RecencyOrder` it is **LRU**, with `InsertionOrder` **FIFO**. With eager expiry it is
/// the **TTL** policy: every entry has the same lifetime, so the tail is always the entry that
/// expires first; each operation first drops the expired entries from the tail, and capacity
/// pressure evicts from the tail too (with a lifetime restarted by each hit, use recency order,
/// which keeps deadlines sorted along the queue).
///
/// Every operation is O(1) (expected, for the key lookup); eager expiry is O(expired).
public struct QueuePolicy<Order: QueueOrder>: SlotPolicy {
    public let limits: CacheLimits
    public let expiry: Expiry?
    /// Whether expired entries are dropped from the tail before every operation (TTL).
    public let expiresEagerly: Bool
    public var table: SlotTable<Void>
    public var occupancy = CacheOccupancy()
    var queue = SlotList()

    /// Creates an empty cache. `expiresEagerly` requires an `expiry`.
    public init(limits: CacheLimits, expiry: Expiry? = nil, expiresEagerly: Bool = false) {
        precondition(!expiresEagerly || expiry != nil, "QueuePolicy: eager expiry needs a maximum age")
        precondition(!expiresEagerly || Order.promotesOnHit || expiry?.refreshOnAccess != true,
                     "QueuePolicy: a lifetime restarted by hits needs recency order to expire eagerly")
        self.limits = limits
        self.expiry = expiry
        self.expiresEagerly = expiresEagerly
        table = SlotTable(expectedCount: min(limits.maxCount ?? 1024, 1 << 20))
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
        if Order.promotesOnHit { queue.moveToFront(slot, in: &table) }
    }

    public mutating func didInsert(_ slot: Int32, _ request: CacheRequest) {
        queue.pushFront(slot, weight: 1, in: &table)
    }

    public mutating func selectVictim() -> Int32 { queue.tail }

    public mutating func willRemove(_ slot: Int32) { queue.remove(slot, weight: 1, in: &table) }

    public mutating func resetOrder() { queue.reset() }
}

/// Least recently used: evicts the entry whose last access is oldest.
public typealias LRUPolicy = QueuePolicy<RecencyOrder>
/// First in, first out: evicts the oldest insertion; hits change nothing.
public typealias FIFOPolicy = QueuePolicy<InsertionOrder>
