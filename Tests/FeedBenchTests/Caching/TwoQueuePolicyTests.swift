import Foundation
import Testing
@testable import FeedBench

/// 2Q against a naive model written from its definition (shared/traces/README.md, with
/// libCacheSim's order of operations), against libCacheSim's own numbers on the CloudPhysics
/// trace, and in small scenarios that read as its specification.
@Suite struct TwoQueuePolicyTests {
    /// Three arrays of keys, oldest (or least recently used) first; every decision a linear scan.
    struct NaiveTwoQ: NaiveEvictingCache {
        let limits: CacheLimits
        let expiry: Expiry?
        let inCapacity: Int64, mainCapacity: Int64, outCapacity: Int64
        var ain: [UInt64] = [], am: [UInt64] = [], aout: [UInt64] = []
        var sizes: [UInt64: Int64] = [:], deadlines: [UInt64: Int64] = [:]
        var evictions = 0, expirations = 0

        init(limits: CacheLimits, expiry: Expiry?, in inFraction: Double = 0.25, out outFraction: Double = 0.5) {
            self.limits = limits
            self.expiry = expiry
            let capacity = limits.maxBytes ?? Int64(limits.maxCount!)
            inCapacity = Int64(Double(capacity) * inFraction)
            mainCapacity = capacity - inCapacity
            outCapacity = Int64(Double(capacity) * outFraction)
        }

        func weight(_ key: UInt64) -> Int64 { limits.maxBytes == nil ? 1 : sizes[key]! }
        func total(_ queue: [UInt64]) -> Int64 { queue.reduce(0) { $0 + weight($1) } }
        var resident: [UInt64] { ain + am }

        mutating func access(_ r: CacheRequest) -> Bool {
            if resident.contains(r.key) {
                if r.time > deadlines[r.key]! {
                    _ = remove(r.key)
                    expirations += 1
                } else {
                    if am.contains(r.key) {
                        am.removeAll { $0 == r.key }
                        am.append(r.key)
                    }
                    if let expiry, expiry.refreshOnAccess { deadlines[r.key] = r.time + expiry.maxAge }
                    return true
                }
            }
            let returning = aout.contains(r.key)
            aout.removeAll { $0 == r.key }
            let w = limits.maxBytes == nil ? 1 : r.size
            if w > inCapacity { return false }
            while (limits.maxCount.map { resident.count + 1 > $0 } ?? false)
                || (limits.maxBytes.map { resident.reduce(0) { $0 + sizes[$1]! } + r.size > $0 } ?? false) {
                evictOne()
            }
            if returning {
                if w > mainCapacity { return false }
                while !am.isEmpty && total(am) + w > mainCapacity {
                    am.removeFirst()
                    evictions += 1
                }
            }
            sizes[r.key] = r.size
            deadlines[r.key] = expiry.map { r.time + $0.maxAge } ?? .max
            if returning { am.append(r.key) } else { ain.append(r.key) }
            return false
        }

        @discardableResult
        mutating func evictOne() -> Bool {
            if !ain.isEmpty && (total(ain) > inCapacity || am.isEmpty) {
                let key = ain.removeFirst()
                evictions += 1
                if weight(key) <= outCapacity {
                    while total(aout) + weight(key) > outCapacity { aout.removeFirst() }
                    aout.append(key)
                }
                return true
            }
            if am.isEmpty { return false }
            am.removeFirst()
            evictions += 1
            return true
        }

        mutating func remove(_ key: UInt64) -> Bool {
            let wasResident = resident.contains(key)
            ain.removeAll { $0 == key }
            am.removeAll { $0 == key }
            aout.removeAll { $0 == key }
            return wasResident
        }
    }

    static let limits: [CacheLimits] = DifferentialLimits.all + [
        .objects(3), .objects(4), .objects(5), .objects(13), .objects(100), .bytes(1000),
        CacheLimits(maxCount: 25, maxBytes: 2000),
    ]

    static let expiries: [Expiry?] = [nil, Expiry(maxAge: 25), Expiry(maxAge: 25, refreshOnAccess: true)]

    @Test("same outcome as the naive model for every request", arguments: limits)
    func matchesNaiveModel(limits: CacheLimits) {
        for seed in UInt64(1)...30 {
            let expiry = Self.expiries[Int(seed) % 3]
            let (inFraction, outFraction) = seed % 5 == 0 ? (0.5, 1.5) : (0.25, 0.5)
            let trace = RandomTrace(seed: seed, count: 500, keys: 40 + Int(seed % 4) * 30,
                                    sizes: DifferentialLimits.sizes(for: limits), skewed: seed % 2 == 0)
            var policy = TwoQueuePolicy(limits: limits, expiry: expiry, inFraction: inFraction, outFraction: outFraction)
            var naive = NaiveTwoQ(limits: limits, expiry: expiry, in: inFraction, out: outFraction)
            expectSameOutcomes(trace, &policy, &naive, seed: seed)
            expectSameOccupancy(policy, resident: naive.resident, sizes: naive.sizes, evictions: naive.evictions,
                                expirations: naive.expirations, "seed \(seed)")
            #expect(policy.ghostCount == naive.aout.count, "seed \(seed)")
        }
    }

    @Test("libCacheSim's misses on CloudPhysics, counting objects and bytes", .needsCloudPhysics)
    func cloudPhysics() throws {
        let (objects, bytes) = try SharedFiles.cloudPhysicsResults("2q")
        #expect(objects.map(\.misses) == [94573, 88160, 72818])
        #expect(bytes.map(\.misses) == [94245, 87627, 78156])
        #expect(bytes.map(\.missedBytes) == [4273110528, 3938483200, 3380256256])
        #expect(objects.first?.policy == "2q")
    }

    @Test("parameters out of range are refused with the valid range")
    func parameterRanges() throws {
        do {
            _ = try PolicySpec.parse("2q:in=0.9", source: "--policy")
            Issue.record("in=0.9 was accepted")
        } catch let error as InputError {
            #expect(error.message.contains("0.01...0.5"))
            #expect(error.message.contains("0.9"))
        }
        do {
            _ = try PolicySpec.parse("2q:out=5", source: "--policy")
            Issue.record("out=5 was accepted")
        } catch let error as InputError {
            #expect(error.message.contains("0...2"))
        }
        #expect(throws: InputError.self) { try PolicySpec.parse("2q:small=0.1", source: "--policy") }
        let spec = try PolicySpec.parse("2Q:in=0.5:out=1", source: "--policy")
        #expect(spec.name == .twoQueue)
        #expect(spec.description == "2q:in=0.5:out=1")
        let policy = try #require(try spec.makePolicy(limits: .objects(100), source: "test") as? TwoQueuePolicy)
        #expect((policy.inCapacity, policy.mainCapacity, policy.outCapacity) == (50, 50, 100))
    }

    // MARK: - Scenarios

    static func request(_ key: UInt64, size: Int64 = 1, time: Int64 = 0) -> CacheRequest {
        CacheRequest(key: key, size: size, time: time)
    }

    /// An 8-object cache (Ain 2, Am 6, Aout 4) after `keys` were requested in order.
    static func cache(after keys: [UInt64], expiry: Expiry? = nil) -> TwoQueuePolicy {
        var cache = TwoQueuePolicy(limits: .objects(8), expiry: expiry)
        for key in keys { cache.access(request(key)) }
        return cache
    }

    @Test("queues are floor(25 %) Ain, the rest Am, floor(50 %) Aout")
    func queueSizes() {
        let cache = TwoQueuePolicy(limits: .objects(4897))
        #expect((cache.inCapacity, cache.mainCapacity, cache.outCapacity) == (1224, 3673, 2448))
    }

    @Test("new objects enter Ain; a hit there changes nothing, so Ain evicts in insertion order into Aout")
    func ainIsAFIFO() {
        var cache = Self.cache(after: Array(1...8))
        #expect((1...8).allSatisfy { cache.queue(of: UInt64($0)) == .ain })
        let hit = cache.access(Self.request(1))
        cache.access(Self.request(9))
        #expect(hit)
        #expect(cache.queue(of: 1) == .aout)
        #expect(!cache.contains(1))
        #expect(cache.occupancy.evictions == 1)
    }

    @Test("a key remembered in Aout is a miss, leaves Aout and enters Am")
    func aoutHitEntersAm() {
        var cache = Self.cache(after: Array(1...9))
        let hit = cache.access(Self.request(1))
        #expect(!hit)
        #expect(cache.queue(of: 1) == .am)
        #expect(cache.queue(of: 2) == .aout)
        #expect(cache.ghostCount == 1)
    }

    /// Keys 1...6 reach Am through Aout; Ain is left with 11 and 12, its share.
    static let amFull: [UInt64] = Array(1...12) + [1, 2, 3, 4, 5, 6]

    @Test("once Ain is within its share, Am's least recently used entry is evicted for good")
    func amIsAnLRU() {
        var cache = Self.cache(after: Self.amFull)
        #expect((1...6).allSatisfy { cache.queue(of: UInt64($0)) == .am })
        #expect(cache.queue(of: 11) == .ain && cache.queue(of: 12) == .ain)
        cache.access(Self.request(1))  // 1 becomes most recent; 2 is now least recent
        cache.access(Self.request(7))  // 7 returns from Aout
        #expect(cache.queue(of: 7) == .am)
        #expect(cache.queue(of: 2) == nil)
        #expect(cache.contains(1))
        #expect(cache.queue(of: 11) == .ain)
    }

    @Test("an object entering Am is held to Am's share even when the cache has room")
    func amKeepsItsShare() {
        var cache = Self.cache(after: Self.amFull)
        let removed = cache.remove(11)
        #expect(removed)
        #expect(cache.occupancy.count == 7)
        cache.access(Self.request(8))  // returns from Aout; Am (6) is at its share
        #expect(cache.queue(of: 8) == .am)
        #expect(cache.queue(of: 1) == nil)
        #expect(cache.occupancy.count == 7)
        #expect(cache.occupancy.evictions == 11)
    }

    @Test("admission needs size ≤ Ain's share: nothing is cached below 4 objects")
    func admission() {
        for capacity in [1, 2, 3] {
            var cache = TwoQueuePolicy(limits: .objects(capacity))
            let hits = [cache.access(Self.request(7)), cache.access(Self.request(7))]
            #expect(hits == [false, false], "capacity \(capacity)")
        }
        var bytes = TwoQueuePolicy(limits: .bytes(100))  // Ain 25 bytes
        let inserted = [bytes.insert(Self.request(1, size: 25)), bytes.insert(Self.request(2, size: 26))]
        #expect(inserted == [true, false])
    }

    @Test("expired entries are misses, removed and counted; removeAll forgets Aout too")
    func expiryAndClear() {
        var cache = Self.cache(after: Array(1...9), expiry: Expiry(maxAge: 5))
        let hits = [cache.access(Self.request(2, time: 5)), cache.access(Self.request(3, time: 6))]
        #expect(hits == [true, false])
        #expect(cache.occupancy.expirations == 1)
        #expect(cache.queue(of: 3) == .ain)
        cache.removeAll()
        #expect(cache.occupancy.count == 0 && cache.ghostCount == 0 && cache.queue(of: 1) == nil)
    }
}

