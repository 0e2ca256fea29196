/// One request as a cache sees it.
public struct CacheRequest: Sendable, Equatable {
    /// The object's identity (an image URL's id, a trace's `obj_id`).
    public var key: UInt64
    /// The object's size in bytes; `1` when the cache counts objects.
    public var size: Int64
    /// The request's time, in the unit the cache's `Expiry.maxAge` is given in.
    public var time: Int64
    /// The position (or time) of the next request for the same key, `Int64.max` if none:
    /// only Belady reads it.
    public var nextAccess: Int64

    public init(key: UInt64, size: Int64, time: Int64 = 0, nextAccess: Int64 = .max) {
        self.key = key
        self.size = size
        self.time = time
        self.nextAccess = nextAccess
    }
}

/// How much a cache may hold: a count limit, a byte (cost) limit, or both.
///
/// The first limit given is the *capacity unit* multi-queue policies size their queues in: bytes
/// when a byte limit is set, objects otherwise (`weight(ofSize:)`).
public struct CacheLimits: Sendable, Hashable {
    /// The most entries the cache holds, or `nil` for no count limit.
    public var maxCount: Int?
    /// The most bytes the cache holds, or `nil` for no byte limit.
    public var maxBytes: Int64?

    public init(maxCount: Int? = nil, maxBytes: Int64? = nil) {
        precondition(maxCount.map { $0 > 0 } ?? true, "CacheLimits: maxCount must be positive")
        precondition(maxBytes.map { $0 > 0 } ?? true, "CacheLimits: maxBytes must be positive")
        self.maxCount = maxCount
        self.maxBytes = maxBytes
    }

    /// A cache limited to `count` objects.
    public static func objects(_ count: Int) -> CacheLimits { CacheLimits(maxCount: count) }
    /// A cache limited to `bytes` bytes.
    public static func bytes(_ bytes: Int64) -> CacheLimits { CacheLimits(maxBytes: bytes) }
    /// No limit at all (seed 002's dictionary cache).
    public static let unbounded = CacheLimits()

    /// Whether weights are bytes (a byte limit is set) rather than object counts.
    public var measuresBytes: Bool { maxBytes != nil }

    /// The capacity in the capacity unit (`Int64.max` when unbounded).
    public var capacity: Int64 { maxBytes ?? maxCount.map(Int64.init) ?? .max }

    /// An entry's weight in the capacity unit. O(1).
    @inline(__always)
    public func weight(ofSize size: Int64) -> Int64 { maxBytes == nil ? 1 : size }

    /// Whether an object of `size` bytes can be cached at all (equal to the limit is admitted).
    public func admits(size: Int64) -> Bool { maxBytes.map { size <= $0 } ?? true }

    /// Whether adding an object of `size` bytes to `occupancy` would exceed a limit.
    @inline(__always)
    public func wouldOverflow(_ occupancy: CacheOccupancy, adding size: Int64) -> Bool {
        if let maxCount, occupancy.count + 1 > maxCount { return true }
        if let maxBytes, occupancy.bytes + size > maxBytes { return true }
        return false
    }

    /// Whether these limits are each at least `other`'s (no limit counts as the largest): any
    /// occupancy within `other` is within these. O(1).
    public func holdsAtLeast(_ other: CacheLimits) -> Bool {
        func atLeast<T: Comparable>(_ mine: T?, _ theirs: T?) -> Bool {
            guard let mine else { return true }
            return theirs.map { mine >= $0 } ?? false
        }
        return atLeast(maxCount, other.maxCount) && atLeast(maxBytes, other.maxBytes)
    }

    /// Whether `occupancy` is within both limits.
    public func holds(_ occupancy: CacheOccupancy) -> Bool {
        (maxCount.map { occupancy.count <= $0 } ?? true) && (maxBytes.map { occupancy.bytes <= $0 } ?? true)
    }
}

/// An optional maximum age applied on top of any policy.
///
/// An entry whose deadline has passed (`now > deadline`) is a miss and is removed when it is
/// looked up; the `ttl` policy also removes expired entries eagerly.
public struct Expiry: Sendable, Hashable {
    /// The lifetime, in the unit of `CacheRequest.time`.
    public var maxAge: Int64
    /// Whether a hit restarts the lifetime (Kingfisher's "since last access") or not (seed 001's
    /// lifetime from insertion).
    public var refreshOnAccess: Bool

    public init(maxAge: Int64, refreshOnAccess: Bool = false) {
        precondition(maxAge >= 0, "Expiry: maxAge must not be negative")
        self.maxAge = maxAge
        self.refreshOnAccess = refreshOnAccess
    }

    func deadline(from time: Int64) -> Int64 {
        let (sum, overflow) = time.addingReportingOverflow(maxAge)
        return overflow ? .max : sum
    }
}

/// What a cache holds now and what it has thrown out.
public struct CacheOccupancy: Sendable, Hashable {
    /// Resident entries (ghosts excluded).
    public var count: Int = 0
    /// Resident bytes (sum of the sizes the entries were inserted with).
    public var bytes: Int64 = 0
    /// Entries removed to make room.
    public var evictions: Int = 0
    /// Entries removed because their maximum age passed.
    public var expirations: Int = 0

    public init() {}
}

/// An eviction policy with its storage: the one abstraction the memory cache, the disk cache and
/// `bench cachesim` all use.
///
/// The protocol follows libCacheSim's split of a cache access: `lookup` (a hit updates the
/// policy's state; a miss may consult ghost entries) and, on a miss, `insert` (admission, then
/// eviction one entry at a time until the object fits; the new object is never the victim of
/// its own insertion). `access` does both, as a trace replay does.
public protocol EvictionPolicy {
    /// The limits this cache was created with.
    var limits: CacheLimits { get }
    /// Resident entries and bytes, evictions and expirations so far.
    var occupancy: CacheOccupancy { get }

    /// Looks `request.key` up: a hit updates the policy's state and returns `true`; a miss
    /// (including an expired entry, which is removed) returns `false`.
    mutating func lookup(_ request: CacheRequest) -> Bool

    /// Inserts the object of a request that missed, evicting as needed. Returns `false` when the
    /// policy does not admit it (larger than the cache, or refused by an admission filter).
    /// The key must not be resident.
    @discardableResult
    mutating func insert(_ request: CacheRequest) -> Bool

    /// Removes `key` if resident (not counted as an eviction); returns whether it was.
    @discardableResult
    mutating func remove(_ key: UInt64) -> Bool

    /// Evicts the policy's next victim; returns `false` when nothing is resident.
    @discardableResult
    mutating func evictOne() -> Bool

    /// Whether `key` is resident, without touching the policy's state.
    func contains(_ key: UInt64) -> Bool

    /// Empties the cache (a memory warning's "clear all"); counters are kept.
    mutating func removeAll()

    /// Removes every resident entry whose maximum age has passed at `time`, without waiting
    /// for a lookup (Kingfisher's memory cache sweeps every 120 s); each counts as an
    /// expiration. O(slots).
    mutating func removeExpired(at time: Int64)

    /// Accesses every request of a key-trace batch in order, as `access` would; returns the
    /// misses and the bytes they requested. `nextAccess`, aligned with the batch, feeds Belady;
    /// with `countsObjects` every request has size 1 in the cache. The default implementation
    /// is the whole replay loop: being a requirement, it is compiled for each policy type, so a
    /// replay through an existential pays one dynamic call per batch, not per request.
    mutating func replay(_ batch: KeyTraceBatch, nextAccess: [Int64]?, countsObjects: Bool) -> (misses: Int, missedBytes: Int64)
}

extension EvictionPolicy {
    /// A whole cache access: lookup, then insert on a miss. Returns whether it was a hit.
    @discardableResult
    public mutating func access(_ request: CacheRequest) -> Bool {
        if lookup(request) { return true }
        insert(request)
        return false
    }

    /// O(batch) accesses.
    public mutating func replay(_ batch: KeyTraceBatch, nextAccess: [Int64]?, countsObjects: Bool) -> (misses: Int, missedBytes: Int64) {
        var misses = 0
        var missedBytes: Int64 = 0
        batch.keys.withUnsafeBufferPointer { keys in
            batch.sizes.withUnsafeBufferPointer { sizes in
                batch.times.withUnsafeBufferPointer { times in
                    for i in 0..<keys.count {
                        let size = sizes[i]
                        let request = CacheRequest(key: keys[i], size: countsObjects ? 1 : size, time: times[i],
                                                   nextAccess: nextAccess?[i] ?? .max)
                        if !access(request) {
                            misses += 1
                            missedBytes += size
                        }
                    }
                }
            }
        }
        return (misses, missedBytes)
    }

    /// Evicts in policy order until the cache holds at most `bytes` (Nuke's background trim to a
    /// tenth of its cost limit). O(evicted).
    public mutating func trim(toBytes bytes: Int64) {
        while occupancy.bytes > bytes {
            guard evictOne() else { break }
        }
    }

    /// Evicts in policy order until the cache holds at most `fraction` of its current bytes and
    /// entries (Nuke's background trim to 10 %, a disk cache's trim to 70 %). O(evicted).
    public mutating func trim(toFraction fraction: Double) {
        precondition((0...1).contains(fraction), "trim: fraction must be in 0...1")
        let targetBytes = Int64((Double(occupancy.bytes) * fraction).rounded(.down))
        let targetCount = Int((Double(occupancy.count) * fraction).rounded(.down))
        while occupancy.bytes > targetBytes || occupancy.count > targetCount {
            guard evictOne() else { break }
        }
    }
}
