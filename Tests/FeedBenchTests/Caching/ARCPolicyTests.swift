import Foundation
import Testing
@testable import FeedBench

/// ARC against a naive model written from its definition (shared/traces/README.md, with
/// libCacheSim's handling of variable sizes), against libCacheSim's own numbers on the
/// CloudPhysics trace, and in small scenarios that read as its specification.
@Suite struct ARCPolicyTests {
    /// Four arrays of keys, least recently used first; every decision a linear scan.
    struct NaiveARC: NaiveEvictingCache {
        let limits: CacheLimits
        let expiry: Expiry?
        let c: Int64
        var t1: [UInt64] = [], t2: [UInt64] = [], b1: [UInt64] = [], b2: [UInt64] = []
        var p = 0.0
        var lastGhostHitInB2 = false
        var sizes: [UInt64: Int64] = [:], deadlines: [UInt64: Int64] = [:]
        var evictions = 0, expirations = 0

        init(limits: CacheLimits, expiry: Expiry?) {
            self.limits = limits
            self.expiry = expiry
            c = limits.maxBytes ?? Int64(limits.maxCount!)
        }

        func total(_ list: [UInt64]) -> Int64 { list.reduce(0) { $0 + (limits.maxBytes == nil ? 1 : sizes[$1]!) } }
        var resident: [UInt64] { t1 + t2 }

        mutating func access(_ r: CacheRequest) -> Bool {
            if resident.contains(r.key) {
                if r.time > deadlines[r.key]! {
                    _ = remove(r.key)
                    expirations += 1
                } else {
                    lastGhostHitInB2 = false
                    t1.removeAll { $0 == r.key }
                    t2.removeAll { $0 == r.key }
                    t2.append(r.key)
                    if let expiry, expiry.refreshOnAccess { deadlines[r.key] = r.time + expiry.maxAge }
                    return true
                }
            }
            var ghostHit = false
            if b1.contains(r.key) {
                p = min(p + max(Double(total(b2)) / Double(total(b1)), 1), Double(c))
                b1.removeAll { $0 == r.key }
                lastGhostHitInB2 = false
                ghostHit = true
            } else if b2.contains(r.key) {
                p = max(p - max(Double(total(b1)) / Double(total(b2)), 1), 0)
                b2.removeAll { $0 == r.key }
                lastGhostHitInB2 = true
                ghostHit = true
            }
            let w = limits.maxBytes == nil ? 1 : r.size
            if w > c { return false }
            while (limits.maxCount.map { resident.count + 1 > $0 } ?? false)
                || (limits.maxBytes.map { resident.reduce(0) { $0 + sizes[$1]! } + r.size > $0 } ?? false) {
                _ = evict(incoming: w, afterGhostHit: ghostHit)
            }
            sizes[r.key] = r.size
            deadlines[r.key] = expiry.map { r.time + $0.maxAge } ?? .max
            if ghostHit {
                t2.append(r.key)
                lastGhostHitInB2 = false
            } else {
                t1.append(r.key)
            }
            return false
        }

        @discardableResult
        /// Evicts as for a plain miss of weight 0, as `ARCPolicy.evictOne` does.
        mutating func evictOne() -> Bool { evict(incoming: 0, afterGhostHit: false) }

        mutating func evict(incoming: Int64, afterGhostHit: Bool) -> Bool {
            if resident.isEmpty { return false }
            if afterGhostHit {
                replace()
            } else if total(t1) + total(b1) + incoming > c {
                if !b1.isEmpty {
                    b1.removeFirst()
                    replace()
                } else {
                    t1.removeFirst()
                    evictions += 1
                }
            } else {
                if total(t1) + total(b1) + total(t2) + total(b2) >= 2 * c && !b2.isEmpty { b2.removeFirst() }
                replace()
            }
            return true
        }

        mutating func replace() {
            let inT1 = Double(total(t1))
            if (!t1.isEmpty && (inT1 > p || (inT1 == p && lastGhostHitInB2))) || t2.isEmpty {
                b1.append(t1.removeFirst())
            } else {
                b2.append(t2.removeFirst())
            }
            evictions += 1
        }

        mutating func remove(_ key: UInt64) -> Bool {
            let wasResident = resident.contains(key)
            for i in 0..<4 {
                switch i {
                case 0: t1.removeAll { $0 == key }
                case 1: t2.removeAll { $0 == key }
                case 2: b1.removeAll { $0 == key }
                default: b2.removeAll { $0 == key }
                }
            }
            return wasResident
        }
    }

    static let limits: [CacheLimits] = DifferentialLimits.all + [
        .objects(3), .objects(16), .objects(100), .bytes(1000), CacheLimits(maxCount: 25, maxBytes: 2000),
    ]

    static let expiries: [Expiry?] = [nil, Expiry(maxAge: 25), Expiry(maxAge: 25, refreshOnAccess: true)]

    @Test("same outcome as the naive model for every request", arguments: limits)
    func matchesNaiveModel(limits: CacheLimits) {
        for seed in UInt64(1)...30 {
            let expiry = Self.expiries[Int(seed) % 3]
            let trace = RandomTrace(seed: seed, count: 500, keys: 40 + Int(seed % 4) * 30,
                                    sizes: DifferentialLimits.sizes(for: limits), skewed: seed % 2 == 0)
            var policy = ARCPolicy(limits: limits, expiry: expiry)
            var naive = NaiveARC(limits: limits, expiry: expiry)
            expectSameOutcomes(trace, &policy, &naive, seed: seed) { policy, naive, i in
                #expect(policy.target == naive.p, "seed \(seed), request \(i)")
                return policy.target == naive.p
            }
            let weights = policy.listWeights
            #expect(weights.t1 == naive.total(naive.t1) && weights.t2 == naive.total(naive.t2), "seed \(seed)")
            #expect(weights.b1 == naive.total(naive.b1) && weights.b2 == naive.total(naive.b2), "seed \(seed)")
            expectSameOccupancy(policy, resident: naive.resident, sizes: naive.sizes, evictions: naive.evictions,
                                expirations: naive.expirations, "seed \(seed)")
            #expect((0...Double(limits.capacity)).contains(policy.target), "seed \(seed)")
        }
    }

    @Test("libCacheSim's misses on CloudPhysics, counting objects and bytes", .needsCloudPhysics)
    func cloudPhysics() throws {
        let (objects, bytes) = try SharedFiles.cloudPhysicsResults("arc")
        #expect(objects.map(\.misses) == [94229, 88002, 69901])
        #expect(bytes.map(\.misses) == [93625, 87541, 74506])
        #expect(bytes.map(\.missedBytes) == [4267274752, 3942487552, 3310283264])
        #expect(objects.first?.policy == "arc")
    }

    @Test("ARC takes no parameters besides max-age and refresh")
    func noTunables() throws {
        do {
            _ = try PolicySpec.parse("arc:p=3", source: "--policy")
            Issue.record("arc:p=3 was accepted")
        } catch let error as InputError {
            #expect(error.message.contains("max-age, refresh"))
        }
        let spec = try PolicySpec.parse("arc:max-age=60", source: "--policy")
        #expect(try spec.makePolicy(limits: .objects(10), source: "test") is ARCPolicy)
    }

    // MARK: - Scenarios

    static func request(_ key: UInt64, size: Int64 = 1, time: Int64 = 0) -> CacheRequest {
        CacheRequest(key: key, size: size, time: time)
    }

    /// A 4-object cache after `keys` were requested in order.
    static func cache(after keys: [UInt64], expiry: Expiry? = nil) -> ARCPolicy {
        var cache = ARCPolicy(limits: .objects(4), expiry: expiry)
        for key in keys { cache.access(request(key)) }
        return cache
    }

    @Test("a new object enters T1; a hit moves it to T2")
    func hitPromotesToT2() {
        let cache = Self.cache(after: [1, 2, 1])
        #expect(cache.list(of: 1) == .t2)
        #expect(cache.list(of: 2) == .t1)
    }

    @Test("with T1 holding the whole cache and B1 empty, T1's LRU entry is evicted without a ghost")
    func fullT1EvictsWithoutGhost() {
        let cache = Self.cache(after: [1, 2, 3, 4, 5])
        #expect(cache.list(of: 1) == nil)
        #expect(cache.occupancy.evictions == 1)
    }

    @Test("when T1 is above the target, a miss evicts T1's LRU entry into B1")
    func replaceFromT1() {
        let cache = Self.cache(after: [1, 1, 2, 3, 4, 5])
        #expect(cache.list(of: 2) == .b1)
        #expect(cache.list(of: 1) == .t2)
        #expect(cache.target == 0)
    }

    @Test("when T1 ∪ B1 fills the cache, a miss first drops B1's LRU key")
    func fullL1DropsB1() {
        let cache = Self.cache(after: [1, 1, 2, 3, 4, 5, 6])
        #expect(cache.list(of: 2) == nil)
        #expect(cache.list(of: 3) == .b1)
    }

    @Test("a B1 hit raises the target by max(|B2|/|B1|, 1) and the object enters T2")
    func b1HitRaisesTarget() {
        var cache = Self.cache(after: [1, 1, 2, 3, 4, 5])
        let hit = cache.access(Self.request(2))
        #expect(!hit)
        #expect(cache.target == 1)
        #expect(cache.list(of: 2) == .t2)
        #expect(cache.list(of: 3) == .b1)
    }

    @Test("with T1 within the target T2's LRU entry goes to B2; a B2 hit lowers the target")
    func b2HitLowersTarget() {
        var cache = Self.cache(after: [1, 1, 2, 3, 4, 5, 2, 3])
        #expect(cache.target == 2)
        #expect(cache.list(of: 1) == .b2)
        #expect(cache.list(of: 3) == .t2)
        cache.access(Self.request(1))
        #expect(cache.target == 1)
        #expect(cache.list(of: 1) == .t2)
        #expect(cache.list(of: 4) == .b1)
    }

    @Test("in bytes the target moves by real-valued steps")
    func realValuedTarget() {
        var cache = ARCPolicy(limits: .bytes(100))
        // 1, 2 and 3 (30, 30, 40 bytes) fill T2; 4 then pushes 1 into B2 (T1 is empty), and 5
        // pushes 4 into B1.
        for (key, size) in [(1, 30), (1, 30), (2, 30), (2, 30), (3, 40), (3, 40), (4, 20), (5, 20)] as [(UInt64, Int64)] {
            cache.access(Self.request(key, size: size))
        }
        #expect(cache.list(of: 1) == .b2 && cache.list(of: 4) == .b1)
        cache.access(Self.request(4, size: 20))  // B1 hit: + max(30 / 20, 1)
        #expect(cache.target == 1.5)
        #expect(cache.list(of: 5) == .b1)
        cache.access(Self.request(1, size: 30))  // B2 hit: − max(20 / 30, 1)
        #expect(cache.target == 0.5)
        #expect(cache.list(of: 2) == .b2)
    }

    @Test("expired entries are misses, removed and counted; remove forgets ghosts; removeAll resets the target")
    func expiryRemoveAndClear() {
        var cache = Self.cache(after: [1, 1, 2, 3, 4, 5, 2], expiry: Expiry(maxAge: 5))
        #expect(cache.target == 1)
        let hits = [cache.access(Self.request(4, time: 5)), cache.access(Self.request(5, time: 6))]
        #expect(hits == [true, false])
        #expect(cache.occupancy.expirations == 1)
        #expect(cache.list(of: 5) == .t1)
        #expect(cache.list(of: 3) == .b1)
        let removed = [cache.remove(3), cache.remove(4)]
        #expect(removed == [false, true])
        #expect(cache.list(of: 3) == nil && !cache.contains(4))
        cache.removeAll()
        #expect(cache.target == 0 && cache.occupancy.count == 0 && cache.listWeights.b1 == 0)
    }
}

