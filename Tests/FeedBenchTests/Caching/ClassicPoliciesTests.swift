import Testing
@testable import FeedBench

/// The classic policies against a naive model written from their definitions: every request of
/// many seeded random traces must have the same outcome, at object and byte capacities, with
/// objects larger than the cache and one-object caches, with and without a maximum age.
@Suite struct ClassicPoliciesTests {
    enum Rule: String, CaseIterable {
        case lru, fifo, lfu, ttl, belady
    }

    /// Entries in an array; every decision a linear scan.
    struct NaiveClassicCache: NaiveCache {
        struct Entry {
            var key: UInt64, size: Int64
            var inserted: Int, lastAccess: Int, lifetimeStart: Int, count: Int
            var nextAccess: Int64, deadline: Int64
        }

        let rule: Rule
        let limits: CacheLimits
        let expiry: Expiry?
        var entries: [Entry] = []
        var clock = 0

        mutating func access(_ r: CacheRequest) -> Bool {
            clock += 1
            if rule == .ttl { entries.removeAll { r.time > $0.deadline } }
            if let i = entries.firstIndex(where: { $0.key == r.key }) {
                if r.time > entries[i].deadline {
                    entries.remove(at: i)
                } else {
                    entries[i].lastAccess = clock
                    entries[i].count += 1
                    entries[i].nextAccess = r.nextAccess
                    if let expiry, expiry.refreshOnAccess {
                        entries[i].deadline = r.time + expiry.maxAge
                        entries[i].lifetimeStart = clock
                    }
                    return true
                }
            }
            if let maxBytes = limits.maxBytes, r.size > maxBytes { return false }
            func overflows() -> Bool {
                (limits.maxCount.map { entries.count + 1 > $0 } ?? false)
                    || (limits.maxBytes.map { entries.reduce(0) { $0 + $1.size } + r.size > $0 } ?? false)
            }
            while overflows() {
                let victim: Int
                switch rule {
                case .lru: victim = entries.indices.min { entries[$0].lastAccess < entries[$1].lastAccess }!
                case .fifo: victim = entries.indices.min { entries[$0].inserted < entries[$1].inserted }!
                case .lfu:
                    victim = entries.indices.min {
                        (entries[$0].count, entries[$0].lastAccess) < (entries[$1].count, entries[$1].lastAccess)
                    }!
                case .ttl:
                    victim = entries.indices.min {
                        (entries[$0].deadline, entries[$0].lifetimeStart) < (entries[$1].deadline, entries[$1].lifetimeStart)
                    }!
                case .belady:
                    victim = entries.indices.max {
                        (entries[$0].nextAccess, entries[$0].lastAccess) < (entries[$1].nextAccess, entries[$1].lastAccess)
                    }!
                }
                entries.remove(at: victim)
            }
            entries.append(Entry(key: r.key, size: r.size, inserted: clock, lastAccess: clock, lifetimeStart: clock, count: 1,
                                 nextAccess: r.nextAccess, deadline: expiry.map { r.time + $0.maxAge } ?? .max))
            return false
        }
    }

    static func spec(_ rule: Rule, maxAge: Int64?, refresh: Bool) -> PolicySpec {
        PolicySpec(PolicyName(rawValue: rule.rawValue)!, maxAge: maxAge, refreshOnAccess: refresh)
    }

    static let expiries: [(Int64?, Bool)] = [(nil, false), (25, false), (25, true)]

    @Test(arguments: Rule.allCases)
    func agreesWithTheNaiveModel(rule: Rule) throws {
        for seed in UInt64(0)..<25 {
            for limits in DifferentialLimits.all {
                for (maxAge, refresh) in Self.expiries {
                    if rule == .ttl && maxAge == nil { continue }
                    if rule == .belady && maxAge != nil { continue }
                    let trace = RandomTrace(seed: seed, count: 400, keys: 30, sizes: DifferentialLimits.sizes(for: limits))
                    var policy = try Self.spec(rule, maxAge: maxAge, refresh: refresh).makePolicy(limits: limits, source: "test")
                    var model = NaiveClassicCache(rule: rule, limits: limits, expiry: maxAge.map { Expiry(maxAge: $0, refreshOnAccess: refresh) })
                    for (i, request) in trace.requests.enumerated() {
                        let expected = model.access(request)
                        let actual = policy.access(request)
                        #expect(actual == expected, "\(rule) seed \(seed) \(limits) age \(String(describing: maxAge)) request \(i)")
                        if actual != expected { return }
                    }
                    #expect(policy.occupancy.count == model.entries.count)
                    #expect(policy.occupancy.bytes == model.entries.reduce(0) { $0 + $1.size })
                    #expect(limits.holds(policy.occupancy))
                }
            }
        }
    }

    @Test func lruMissesNeverRiseWithCapacity() throws {
        for seed in UInt64(0)..<10 {
            let trace = RandomTrace(seed: seed, count: 2000, keys: 120).batch
            let results = try CacheSimulation(policies: [PolicySpec(.lru)], capacities: Array(1...80), unit: .objects).run(trace: trace)
            for (smaller, larger) in zip(results, results.dropFirst()) {
                #expect(larger.misses <= smaller.misses, "seed \(seed): capacity \(larger.capacity)")
            }
        }
    }

    @Test func beladyIsNeverBeatenOnUnitSizes() throws {
        let others = PolicyName.allCases.filter { $0 != .belady && $0 != .unbounded }.map { PolicySpec($0, maxAge: $0 == .ttl ? 40 : nil) }
        for seed in UInt64(0)..<10 {
            let trace = RandomTrace(seed: seed, count: 2000, keys: 150).batch
            for capacity: Int64 in [1, 3, 10, 40, 100] {
                let belady = try CacheSimulation(policies: [PolicySpec(.belady)], capacities: [capacity], unit: .objects).run(trace: trace)[0]
                for result in try CacheSimulation(policies: others, capacities: [capacity], unit: .objects).run(trace: trace) {
                    #expect(belady.misses <= result.misses, "seed \(seed) capacity \(capacity): belady vs \(result.policy)")
                }
            }
        }
    }
}

/// Operations beyond a trace replay: removal, clearing, trimming, expiry bookkeeping.
@Suite struct CacheOperationsTests {
    @Test(arguments: PolicyName.allCases)
    func removeAndRemoveAllKeepOccupancyExact(name: PolicyName) throws {
        var cache = try PolicySpec(name, maxAge: name == .ttl ? 1000 : nil).makePolicy(limits: CacheLimits(maxCount: 50, maxBytes: 10_000), source: "test")
        for key in UInt64(0)..<40 { cache.insert(CacheRequest(key: key, size: 10 + Int64(key))) }
        #expect(cache.occupancy.count == 40)
        let outcome1 = cache.remove(3)
        #expect(outcome1)
        let outcome2 = cache.remove(3)
        #expect(!outcome2)
        #expect(!cache.contains(3))
        #expect(cache.occupancy.count == 39)
        let expectedBytes: Int64 = (0..<40).filter { $0 != 3 }.reduce(0) { $0 + 10 + Int64($1) }
        #expect(cache.occupancy.bytes == expectedBytes)
        #expect(cache.occupancy.evictions == 0)
        cache.removeAll()
        #expect(cache.occupancy.count == 0 && cache.occupancy.bytes == 0)
        #expect(!cache.contains(10))
        let outcome3 = cache.access(CacheRequest(key: 10, size: 5))
        #expect(!outcome3)
        let outcome4 = cache.access(CacheRequest(key: 10, size: 5))
        #expect(outcome4)
    }

    @Test func trimEvictsInPolicyOrderDownToTheFraction() {
        var lru = QueuePolicy.lru(limits: .objects(100))
        for key in UInt64(0)..<100 { lru.access(CacheRequest(key: key, size: 1)) }
        lru.access(CacheRequest(key: 0, size: 1))
        lru.trim(toFraction: 0.1)
        #expect(lru.occupancy.count == 10)
        #expect(lru.contains(0), "the most recently used entry survives a trim")
        #expect(!lru.contains(1))
        #expect(lru.occupancy.evictions == 90)
    }

    @Test func ttlDropsExpiredEntriesEagerlyAndEvictsTheFirstToExpire() {
        var ttl = QueuePolicy.ttl(limits: .objects(3), expiry: Expiry(maxAge: 10))
        ttl.access(CacheRequest(key: 1, size: 1, time: 0))
        ttl.access(CacheRequest(key: 2, size: 1, time: 5))
        let outcome5 = ttl.access(CacheRequest(key: 1, size: 1, time: 10))
        #expect(outcome5, "alive at exactly its deadline")
        ttl.access(CacheRequest(key: 3, size: 1, time: 11))
        #expect(!ttl.contains(1), "expired at time 11 without being looked up")
        #expect(ttl.occupancy.expirations == 1)
        ttl.access(CacheRequest(key: 4, size: 1, time: 12))
        ttl.access(CacheRequest(key: 5, size: 1, time: 12))
        #expect(!ttl.contains(2), "capacity pressure evicts the entry that expires first")
        #expect(ttl.occupancy.evictions == 1)
    }

    @Test func maxAgeOnLRUExpiresLazilyAndRefreshRestartsTheLifetime() {
        var fixed = QueuePolicy.lru(limits: .objects(10), expiry: Expiry(maxAge: 100))
        fixed.access(CacheRequest(key: 1, size: 1, time: 0))
        let outcome6 = fixed.access(CacheRequest(key: 1, size: 1, time: 90))
        #expect(outcome6)
        let outcome7 = fixed.access(CacheRequest(key: 1, size: 1, time: 101))
        #expect(!outcome7, "lifetime counts from insertion")
        #expect(fixed.occupancy.expirations == 1)
        var refreshed = QueuePolicy.lru(limits: .objects(10), expiry: Expiry(maxAge: 100, refreshOnAccess: true))
        refreshed.access(CacheRequest(key: 1, size: 1, time: 0))
        let outcome8 = refreshed.access(CacheRequest(key: 1, size: 1, time: 90))
        #expect(outcome8)
        let outcome9 = refreshed.access(CacheRequest(key: 1, size: 1, time: 180))
        #expect(outcome9, "each hit restarts the lifetime")
    }

    @Test func objectsLargerThanTheCacheAreNotAdmittedAndEqualIs() {
        var lru = QueuePolicy.lru(limits: .bytes(100))
        let outcome10 = lru.insert(CacheRequest(key: 1, size: 101))
        #expect(!outcome10)
        let outcome11 = lru.insert(CacheRequest(key: 2, size: 100))
        #expect(outcome11)
        let outcome12 = lru.insert(CacheRequest(key: 3, size: 1))
        #expect(outcome12)
        #expect(!lru.contains(2) && lru.contains(3), "the new object is never its own victim")
    }

    @Test func lfuCountsAreKeptPerResidentEntryAndRestartOnReinsertion() {
        var lfu = LFUPolicy(limits: .objects(2))
        lfu.access(CacheRequest(key: 1, size: 1))
        lfu.access(CacheRequest(key: 1, size: 1))
        lfu.access(CacheRequest(key: 2, size: 1))
        #expect(lfu.frequency(of: 1) == 2)
        lfu.access(CacheRequest(key: 3, size: 1))
        #expect(!lfu.contains(2), "the lowest count goes")
        lfu.remove(1)
        lfu.access(CacheRequest(key: 1, size: 1))
        #expect(lfu.frequency(of: 1) == 1)
    }
}
