import Foundation
import Testing
@testable import FeedBench

/// S3-FIFO against a naive model written from its definition (shared/traces/README.md, with
/// libCacheSim's order of operations), against libCacheSim's own numbers on the CloudPhysics
/// trace, and in small scenarios that read as its specification.
@Suite struct S3FIFOPolicyTests {
    /// Three arrays of keys, oldest first; every decision a linear scan.
    struct NaiveS3FIFO: NaiveEvictingCache {
        let limits: CacheLimits
        let expiry: Expiry?
        let smallCapacity: Int64, mainCapacity: Int64, ghostCapacity: Int64
        var small: [UInt64] = [], main: [UInt64] = [], ghost: [UInt64] = []
        var sizes: [UInt64: Int64] = [:], frequencies: [UInt64: Int] = [:], deadlines: [UInt64: Int64] = [:]
        var evictions = 0, expirations = 0

        init(limits: CacheLimits, expiry: Expiry?, small: Double = 0.1, ghost: Double = 0.9) {
            self.limits = limits
            self.expiry = expiry
            let capacity = limits.maxBytes ?? Int64(limits.maxCount!)
            smallCapacity = Int64(Double(capacity) * small)
            mainCapacity = capacity - smallCapacity
            ghostCapacity = Int64(Double(capacity) * ghost)
        }

        func weight(_ key: UInt64) -> Int64 { limits.maxBytes == nil ? 1 : sizes[key]! }
        func total(_ queue: [UInt64]) -> Int64 { queue.reduce(0) { $0 + weight($1) } }
        var resident: [UInt64] { small + main }

        mutating func access(_ r: CacheRequest) -> Bool {
            if resident.contains(r.key) {
                if r.time > deadlines[r.key]! {
                    _ = remove(r.key)
                    expirations += 1
                } else {
                    frequencies[r.key]! += 1
                    if let expiry, expiry.refreshOnAccess { deadlines[r.key] = r.time + expiry.maxAge }
                    return true
                }
            }
            let returning = ghost.contains(r.key)
            ghost.removeAll { $0 == r.key }
            let w = limits.maxBytes == nil ? 1 : r.size
            if w > smallCapacity { return false }
            while (limits.maxCount.map { resident.count + 1 > $0 } ?? false)
                || (limits.maxBytes.map { resident.reduce(0) { $0 + sizes[$1]! } + r.size > $0 } ?? false) {
                evictOne()
            }
            if !returning && w >= smallCapacity { return false }
            sizes[r.key] = r.size
            frequencies[r.key] = 0
            deadlines[r.key] = expiry.map { r.time + $0.maxAge } ?? .max
            if returning { main.append(r.key) } else { small.append(r.key) }
            return false
        }

        @discardableResult
        mutating func evictOne() -> Bool {
            while !resident.isEmpty {
                if total(main) > mainCapacity || small.isEmpty {
                    while !main.isEmpty {
                        let key = main.removeFirst()
                        if frequencies[key]! >= 1 {
                            frequencies[key] = min(frequencies[key]!, 3) - 1
                            main.append(key)
                        } else {
                            evictions += 1
                            return true
                        }
                    }
                } else {
                    while !small.isEmpty {
                        let key = small.removeFirst()
                        if frequencies[key]! >= 2 {
                            frequencies[key] = 0
                            main.append(key)
                        } else {
                            evictions += 1
                            if weight(key) <= ghostCapacity {
                                while total(ghost) + weight(key) > ghostCapacity { ghost.removeFirst() }
                                ghost.append(key)
                            }
                            return true
                        }
                    }
                }
            }
            return false
        }

        mutating func remove(_ key: UInt64) -> Bool {
            let wasResident = resident.contains(key)
            small.removeAll { $0 == key }
            main.removeAll { $0 == key }
            ghost.removeAll { $0 == key }
            return wasResident
        }
    }

    static let limits: [CacheLimits] = DifferentialLimits.all + [
        .objects(19), .objects(20), .objects(23), .objects(31), .objects(100), .bytes(1000),
        CacheLimits(maxCount: 25, maxBytes: 2000),
    ]

    static let expiries: [Expiry?] = [nil, Expiry(maxAge: 25), Expiry(maxAge: 25, refreshOnAccess: true)]

    @Test("same outcome as the naive model for every request", arguments: limits)
    func matchesNaiveModel(limits: CacheLimits) {
        for seed in UInt64(1)...30 {
            let expiry = Self.expiries[Int(seed) % 3]
            let (small, ghost) = seed % 5 == 0 ? (0.25, 0.5) : (0.1, 0.9)
            let trace = RandomTrace(seed: seed, count: 500, keys: 40 + Int(seed % 4) * 30,
                                    sizes: DifferentialLimits.sizes(for: limits), skewed: seed % 2 == 0)
            var policy = S3FIFOPolicy(limits: limits, expiry: expiry, smallFraction: small, ghostFraction: ghost)
            var naive = NaiveS3FIFO(limits: limits, expiry: expiry, small: small, ghost: ghost)
            expectSameOutcomes(trace, &policy, &naive, seed: seed)
            expectSameOccupancy(policy, resident: naive.resident, sizes: naive.sizes, evictions: naive.evictions,
                                expirations: naive.expirations, "seed \(seed)")
            #expect(policy.ghostCount == naive.ghost.count, "seed \(seed)")
        }
    }

    @Test("libCacheSim's misses on CloudPhysics, counting objects and bytes", .needsCloudPhysics)
    func cloudPhysics() throws {
        let (objects, bytes) = try SharedFiles.cloudPhysicsResults("s3fifo")
        #expect(objects.map(\.misses) == [94559, 85691, 74318])
        #expect(bytes.map(\.misses) == [93706, 83764, 76771])
        #expect(bytes.map(\.missedBytes) == [4265741824, 3764903936, 3288591872])
        #expect(objects.first?.policy == "s3fifo")
    }

    @Test("parameters out of range are refused with the valid range")
    func parameterRanges() throws {
        #expect(throws: InputError.self) { try PolicySpec.parse("s3fifo:small=1.5", source: "--policy") }
        do {
            _ = try PolicySpec.parse("s3fifo:small=1.5", source: "--policy")
        } catch let error as InputError {
            #expect(error.message.contains("0.01...0.5"))
            #expect(error.message.contains("1.5"))
        }
        do {
            _ = try PolicySpec.parse("s3fifo:ghost=-1", source: "--policy")
            Issue.record("ghost=-1 was accepted")
        } catch let error as InputError {
            #expect(error.message.contains("0...2"))
        }
        let spec = try PolicySpec.parse("s3fifo:small=0.2:ghost=0.5", source: "--policy")
        #expect(spec.description == "s3fifo:small=0.2:ghost=0.5")
        let policy = try #require(try spec.makePolicy(limits: .objects(100), source: "test") as? S3FIFOPolicy)
        #expect((policy.smallCapacity, policy.mainCapacity, policy.ghostCapacity) == (20, 80, 50))
    }

    // MARK: - Scenarios

    static func request(_ key: UInt64, size: Int64 = 1, time: Int64 = 0) -> CacheRequest {
        CacheRequest(key: key, size: size, time: time)
    }

    /// A 20-object cache (small 2, main 18, ghost 18) holding keys 1...20, all in small.
    static func fullSmallQueue() -> S3FIFOPolicy {
        var cache = S3FIFOPolicy(limits: .objects(20))
        for key in UInt64(1)...20 { cache.access(request(key)) }
        return cache
    }

    @Test("queues are floor(10 %) small, the rest main, floor(90 %) ghost")
    func queueSizes() {
        let cache = S3FIFOPolicy(limits: .objects(489))
        #expect((cache.smallCapacity, cache.mainCapacity, cache.ghostCapacity) == (48, 441, 440))
        let bytes = S3FIFOPolicy(limits: CacheLimits(maxCount: 10, maxBytes: 1000))
        #expect((bytes.smallCapacity, bytes.mainCapacity, bytes.ghostCapacity) == (100, 900, 900))
    }

    @Test("new objects enter small and fill the whole cache before anything is evicted")
    func newObjectsEnterSmall() {
        let cache = Self.fullSmallQueue()
        #expect(cache.occupancy.count == 20)
        #expect((1...20).allSatisfy { cache.queue(of: UInt64($0)) == .small })
        #expect(cache.occupancy.evictions == 0)
    }

    @Test("an object hit twice in small moves to main with frequency 0; the next unhit one goes to the ghost")
    func twiceHitMovesToMain() {
        var cache = Self.fullSmallQueue()
        let hits = [cache.access(Self.request(1)), cache.access(Self.request(1)), cache.access(Self.request(21))]
        #expect(hits == [true, true, false])
        #expect(cache.queue(of: 1) == .main)
        #expect(cache.frequency(of: 1) == 0)
        #expect(cache.queue(of: 2) == .ghost)
        #expect(!cache.contains(2))
        #expect(cache.occupancy.count == 20)
        #expect(cache.occupancy.evictions == 1)
    }

    @Test("an object hit once in small is evicted into the ghost")
    func onceHitIsEvicted() {
        var cache = Self.fullSmallQueue()
        let hit = cache.access(Self.request(1))
        cache.access(Self.request(21))
        #expect(hit)
        #expect(cache.queue(of: 1) == .ghost)
        #expect(cache.queue(of: 2) == .small)
    }

    @Test("a key found in the ghost is a miss, leaves the ghost and enters main")
    func ghostHitEntersMain() {
        var cache = Self.fullSmallQueue()
        cache.access(Self.request(21))
        #expect(cache.queue(of: 1) == .ghost)
        let hit = cache.access(Self.request(1))
        #expect(!hit)
        #expect(cache.queue(of: 1) == .main)
        #expect(cache.ghostCount == 1)
        #expect(cache.queue(of: 2) == .ghost)
    }

    @Test("main gives a hit entry another pass with min(count, 3) − 1 and evicts the first unhit one")
    func mainIsAClock() {
        var cache = S3FIFOPolicy(limits: .objects(20))
        // Keys 1...18 reach main by being hit twice in small.
        for key in UInt64(1)...20 { cache.access(Self.request(key)) }
        for key in UInt64(1)...18 {
            cache.access(Self.request(key))
            cache.access(Self.request(key))
        }
        cache.access(Self.request(21))
        #expect((1...18).allSatisfy { cache.queue(of: UInt64($0)) == .main })
        // Main (18) is not over its share: small's tail 19 goes to the ghost, 20 and 21 remain.
        #expect(cache.queue(of: 19) == .ghost)
        for _ in 0..<5 { cache.access(Self.request(1)) }  // count capped at 3
        cache.access(Self.request(2))
        #expect(cache.frequency(of: 1) == 3)
        // Evict from main explicitly: small is not empty and main is not over its share, so the
        // first evictOne takes small's tail (20), the second 21, then main: 1 and 2 get another
        // pass, 3 is evicted.
        let firstTwo = [cache.evictOne(), cache.evictOne()]
        #expect(firstTwo == [true, true])
        #expect(cache.queue(of: 20) == .ghost && cache.queue(of: 21) == .ghost)
        let third = cache.evictOne()
        #expect(third)
        #expect(cache.queue(of: 3) == nil)
        #expect(cache.frequency(of: 1) == 2)
        #expect(cache.frequency(of: 2) == 0)
        #expect(cache.contains(1) && cache.contains(2))
    }

    @Test("in object mode nothing is cached below 20 objects")
    func tinyCachesCacheNothing() {
        for capacity in [1, 9, 10, 19] {
            var cache = S3FIFOPolicy(limits: .objects(capacity))
            let hits = (0..<3).map { _ in cache.access(Self.request(7)) }
            #expect(hits == [false, false, false], "capacity \(capacity)")
            #expect(cache.occupancy.count == 0)
        }
        var twenty = S3FIFOPolicy(limits: .objects(20))
        let hits = [twenty.access(Self.request(7)), twenty.access(Self.request(7))]
        #expect(hits == [false, true])
    }

    @Test("an object as large as small is admitted, makes room, and is then not inserted")
    func objectAsLargeAsSmall() {
        var cache = S3FIFOPolicy(limits: .bytes(100))  // small 10 bytes
        for key in UInt64(1)...11 { cache.access(Self.request(key, size: 9)) }
        #expect(cache.occupancy.bytes == 99)
        let asLarge = cache.insert(Self.request(50, size: 10))
        #expect(!asLarge)
        #expect(cache.occupancy.evictions == 1)
        #expect(!cache.contains(50))
        let larger = cache.insert(Self.request(51, size: 11))
        #expect(!larger)
        #expect(cache.occupancy.evictions == 1)
    }

    @Test("a returning key larger than small is refused but still leaves the ghost")
    func returningKeyTooLarge() {
        var cache = S3FIFOPolicy(limits: .bytes(100))
        for key in UInt64(1)...12 { cache.access(Self.request(key, size: 9)) }
        #expect(cache.queue(of: 1) == .ghost)
        let hit = cache.access(Self.request(1, size: 40))
        #expect(!hit)
        #expect(cache.queue(of: 1) == nil)
    }

    @Test("expired entries are misses, removed and counted; remove and removeAll forget ghosts too")
    func expiryRemoveAndClear() {
        var cache = S3FIFOPolicy(limits: .objects(20), expiry: Expiry(maxAge: 10))
        for key in UInt64(1)...21 { cache.access(Self.request(key, time: 0)) }
        let hits = [cache.access(Self.request(5, time: 10)), cache.access(Self.request(6, time: 11))]
        #expect(hits == [true, false])
        #expect(cache.occupancy.expirations == 1)
        #expect(cache.queue(of: 6) == .small)  // re-inserted as new, not through the ghost
        #expect(cache.queue(of: 1) == .ghost)
        let removed = [cache.remove(1), cache.remove(5)]
        #expect(removed == [false, true])
        #expect(cache.queue(of: 1) == nil)
        #expect(!cache.contains(5))
        #expect(cache.occupancy.count == 19)
        cache.removeAll()
        #expect(cache.occupancy.count == 0 && cache.occupancy.bytes == 0 && cache.ghostCount == 0)
        #expect(cache.occupancy.evictions == 1)
    }
}

