import FeedBench
import Foundation
import Testing

/// W-TinyLFU written from its definition with plain arrays and linear scans (index 0 = most
/// recent), sharing only the frequency sketch with the real policy (the sketch is tested on its
/// own). The reference `WTinyLFUPolicy` is checked against.
struct NaiveWTinyLFU: NaiveCache {
    struct Entry {
        var key: UInt64
        var size: Int64
        var deadline: Int64
    }

    let limits: CacheLimits
    let maxAge: Int64?
    let refresh: Bool
    let windowCapacity: Int64
    let mainCapacity: Int64
    let probationCapacity: Int64
    let protectedCapacity: Int64
    var window: [Entry] = []
    var probation: [Entry] = []
    var protected: [Entry] = []
    var sketch: FrequencySketch
    var mainHits: Int64 = 0
    var evictions = 0
    var expirations = 0

    init(limits: CacheLimits, window: Double, protected: Double, maxAge: Int64? = nil, refresh: Bool = false) {
        self.limits = limits
        self.maxAge = maxAge
        self.refresh = refresh
        let capacity = limits.capacity
        windowCapacity = Int64(Double(capacity) * window)
        mainCapacity = capacity - windowCapacity
        // libCacheSim's probation share is 1/5 = 0.2 for protected = 0.8, not 1 − 0.8.
        let probationShare = ((1 - protected) * 1e9).rounded() / 1e9
        probationCapacity = Int64(Double(mainCapacity) * probationShare)
        protectedCapacity = Int64(Double(mainCapacity) * protected)
        sketch = FrequencySketch(expectedEntries: mainCapacity)
    }

    func weight(_ e: Entry) -> Int64 { limits.weight(ofSize: e.size) }
    func total(_ list: [Entry]) -> Int64 { list.reduce(0) { $0 + weight($1) } }
    var mainWeight: Int64 { total(probation) + total(protected) }
    var count: Int { window.count + probation.count + protected.count }
    var bytes: Int64 { (window + probation + protected).reduce(0) { $0 + $1.size } }

    func deadline(_ time: Int64) -> Int64 {
        guard let maxAge else { return .max }
        let (sum, overflow) = time.addingReportingOverflow(maxAge)
        return overflow ? .max : sum
    }

    mutating func access(_ request: CacheRequest) -> Bool {
        if lookup(request) { return true }
        insert(request)
        return false
    }

    mutating func lookup(_ r: CacheRequest) -> Bool {
        if let i = window.firstIndex(where: { $0.key == r.key }) {
            var e = window.remove(at: i)
            if r.time > e.deadline { expirations += 1; return false }
            if refresh { e.deadline = deadline(r.time) }
            window.insert(e, at: 0)
            return true
        }
        if let i = protected.firstIndex(where: { $0.key == r.key }) {
            var e = protected.remove(at: i)
            if r.time > e.deadline { expirations += 1; return false }
            if refresh { e.deadline = deadline(r.time) }
            protected.insert(e, at: 0)
        } else if let i = probation.firstIndex(where: { $0.key == r.key }) {
            var e = probation.remove(at: i)
            if r.time > e.deadline { expirations += 1; return false }
            if refresh { e.deadline = deadline(r.time) }
            protected.insert(e, at: 0)
            while total(protected) > protectedCapacity {
                probation.insert(protected.removeLast(), at: 0)
                while total(probation) > probationCapacity {
                    probation.removeLast()
                    evictions += 1
                }
            }
        } else {
            return false
        }
        sketch.add(r.key)
        mainHits += 1
        if mainHits >= 32 * mainCapacity {
            mainHits = 0
            sketch.halve()
        }
        return true
    }

    @discardableResult
    mutating func insert(_ r: CacheRequest) -> Bool {
        let w = limits.weight(ofSize: r.size)
        guard r.size <= (limits.maxBytes ?? .max), w <= windowCapacity, w <= probationCapacity else { return false }
        while total(window) + mainWeight + w > limits.capacity {
            guard evictOne() else { return false }
        }
        while let maxCount = limits.maxCount, count >= maxCount {
            guard evictOne() else { return false }
        }
        window.insert(Entry(key: r.key, size: r.size, deadline: deadline(r.time)), at: 0)
        sketch.add(r.key)
        return true
    }

    /// Main's victim: the least recent probation entry, else the least recent protected one.
    var mainVictim: UInt64? { probation.last?.key ?? protected.last?.key }

    mutating func evictMainVictim() {
        if probation.isEmpty { protected.removeLast() } else { probation.removeLast() }
        evictions += 1
    }

    mutating func enterMain(_ e: Entry) {
        if total(probation) + weight(e) <= probationCapacity {
            probation.insert(e, at: 0)
        } else if total(protected) + weight(e) <= protectedCapacity {
            protected.insert(e, at: 0)
        } else {
            while mainWeight + weight(e) > mainCapacity, mainVictim != nil { evictMainVictim() }
            probation.insert(e, at: 0)
        }
    }

    @discardableResult
    mutating func evictOne() -> Bool {
        while let candidate = window.last {
            if mainWeight + weight(candidate) <= mainCapacity {
                window.removeLast()
                enterMain(candidate)
                sketch.add(candidate.key)
            } else if let victim = mainVictim, sketch.estimate(candidate.key) > sketch.estimate(victim) {
                evictMainVictim()
                window.removeLast()
                enterMain(candidate)
                sketch.add(candidate.key)
            } else {
                window.removeLast()
                evictions += 1
                sketch.add(candidate.key)
                return true
            }
        }
        guard mainVictim != nil else { return false }
        evictMainVictim()
        return true
    }

    mutating func remove(_ key: UInt64) -> Bool {
        for list in [\NaiveWTinyLFU.window, \.probation, \.protected] {
            if let i = self[keyPath: list].firstIndex(where: { $0.key == key }) {
                self[keyPath: list].remove(at: i)
                return true
            }
        }
        return false
    }

    mutating func removeAll() {
        window = []
        probation = []
        protected = []
    }
}

/// `#expect` for conditions that call mutating methods (which the macro cannot capture).
func expectThat(_ condition: Bool, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(condition, comment, sourceLocation: sourceLocation)
}

@Suite("WTinyLFUPolicy")
struct WTinyLFUPolicyTests {
    // MARK: Differential against the naive model

    /// Limits where the policy caches something at the tested windows, besides the shared set.
    static let limits: [CacheLimits] = DifferentialLimits.all + [
        .objects(20), .objects(100), .bytes(2000), CacheLimits(maxCount: 25, maxBytes: 3000),
    ]

    static func expectSameState(_ policy: WTinyLFUPolicy, _ naive: NaiveWTinyLFU,
                                sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let same = policy.keys(in: .window) == naive.window.map(\.key)
            && policy.keys(in: .probation) == naive.probation.map(\.key)
            && policy.keys(in: .protected) == naive.protected.map(\.key)
            && policy.occupancy.count == naive.count && policy.occupancy.bytes == naive.bytes
            && policy.occupancy.evictions == naive.evictions && policy.occupancy.expirations == naive.expirations
        #expect(same, sourceLocation: sourceLocation)
        return same
    }

    @Test("identical hits, segments and occupancy to the naive model over random traces",
          arguments: [(0.01, 0.8), (0.1, 0.8), (0.3, 0.5), (0.5, 0.9)])
    func differential(window: Double, protected: Double) {
        for limits in Self.limits {
            for seed in UInt64(1)...6 {
                let trace = RandomTrace(seed: seed &* 31 &+ UInt64(window * 1000), count: 3000,
                                        keys: Int(min(limits.capacity, 60)) * 2 + 10,
                                        sizes: DifferentialLimits.sizes(for: limits), skewed: seed % 3 != 0)
                var policy = WTinyLFUPolicy(limits: limits, window: window, protected: protected)
                var naive = NaiveWTinyLFU(limits: limits, window: window, protected: protected)
                for (i, request) in trace.requests.enumerated() {
                    let hit = policy.access(request)
                    guard hit == naive.access(request) else {
                        Issue.record("\(limits) w=\(window) p=\(protected) seed \(seed): request \(i) differs")
                        return
                    }
                    if i % 8 == 7 { guard Self.expectSameState(policy, naive) else { return } }
                }
                guard Self.expectSameState(policy, naive) else { return }
            }
        }
    }

    @Test("the sketch halves after 32 × main-capacity main hits, in step with the naive model")
    func differentialThroughHalvings() {
        // main = 36 objects: a halving every 1,152 main hits, many times over 30,000 requests.
        let limits = CacheLimits.objects(40)
        var policy = WTinyLFUPolicy(limits: limits, window: 0.1)
        var naive = NaiveWTinyLFU(limits: limits, window: 0.1, protected: 0.8)
        let trace = RandomTrace(seed: 77, count: 30_000, keys: 120)
        var halvings = 0
        for (i, request) in trace.requests.enumerated() {
            let before = policy.mainHitsSinceHalving
            guard policy.access(request) == naive.access(request) else {
                Issue.record("request \(i) differs")
                return
            }
            if policy.mainHitsSinceHalving < before { halvings += 1 }
        }
        #expect(halvings >= 5)
        #expect(Self.expectSameState(policy, naive))
    }

    @Test("identical with expiry (lifetime from insertion or restarted by hits)", arguments: [false, true])
    func differentialWithExpiry(refresh: Bool) {
        for limits in [CacheLimits.objects(40), .bytes(400), CacheLimits(maxCount: 9, maxBytes: 300)] {
            for seed in UInt64(1)...5 {
                let trace = RandomTrace(seed: seed + 100, count: 3000, keys: 60, sizes: DifferentialLimits.sizes(for: limits))
                var policy = WTinyLFUPolicy(limits: limits, expiry: Expiry(maxAge: 40, refreshOnAccess: refresh), window: 0.2)
                var naive = NaiveWTinyLFU(limits: limits, window: 0.2, protected: 0.8, maxAge: 40, refresh: refresh)
                for request in trace.requests {
                    guard policy.access(request) == naive.access(request) else {
                        Issue.record("\(limits) seed \(seed): outcomes differ")
                        return
                    }
                }
                #expect(policy.occupancy.expirations > 0)
                _ = Self.expectSameState(policy, naive)
            }
        }
    }

    @Test("identical under interleaved remove, evictOne and removeAll")
    func differentialWithOperations() {
        for limits in [CacheLimits.objects(20), .objects(100), .bytes(400), CacheLimits(maxCount: 9, maxBytes: 300)] {
            for seed in UInt64(1)...5 {
                let trace = RandomTrace(seed: seed + 200, count: 4000, keys: 80, sizes: DifferentialLimits.sizes(for: limits))
                var policy = WTinyLFUPolicy(limits: limits, window: 0.25, protected: 0.6)
                var naive = NaiveWTinyLFU(limits: limits, window: 0.25, protected: 0.6)
                var generator = SeededGenerator(seed: seed)
                for request in trace.requests {
                    switch generator.next(in: 0...99) {
                    case 0..<6:
                        expectThat(policy.remove(request.key) == naive.remove(request.key))
                    case 6..<10:
                        expectThat(policy.evictOne() == naive.evictOne())
                    case 10:
                        policy.removeAll()
                        naive.removeAll()
                    default:
                        expectThat(policy.access(request) == naive.access(request))
                    }
                    let naiveHolds = (naive.window + naive.probation + naive.protected).contains { $0.key == request.key }
                    #expect(policy.contains(request.key) == naiveHolds)
                    guard Self.expectSameState(policy, naive) else { return }
                }
            }
        }
    }

    // MARK: libCacheSim's figures

    /// libCacheSim's WTinyLFU-w0.01-SLRU on cloudphysics (shared/traces/README.md): capacity,
    /// misses, missed bytes (count mode: bytes not given).
    static let libCacheSimCounts: [(Int64, Int, Int64?)] = [(489, 96480, nil), (4897, 88374, nil), (12243, 73668, nil)]
    static let libCacheSimBytes: [(Int64, Int, Int64?)] = [
        (20_297_697, 94076, 4_264_131_584), (202_976_972, 87296, 3_900_783_104), (507_442_432, 75881, 3_222_775_808),
    ]

    @Test("cloudphysics: within 0.5 % of libCacheSim's misses", .needsCloudPhysics, arguments: [CapacityUnit.objects, .bytes])
    func cloudphysics(unit: CapacityUnit) throws {
        let path = SharedFiles.cloudPhysics
        let expected = unit == .objects ? Self.libCacheSimCounts : Self.libCacheSimBytes
        let simulation = CacheSimulation(policies: [PolicySpec(.wtinylfu)], capacities: expected.map(\.0), unit: unit)
        let results = try simulation.run(tracePath: path)
        for (result, (capacity, misses, missedBytes)) in zip(results, expected) {
            #expect(result.capacity == capacity)
            let deviation = abs(Double(result.misses - misses)) / Double(misses)
            #expect(deviation <= 0.005, "capacity \(capacity): \(result.misses) misses vs libCacheSim's \(misses)")
            if let missedBytes {
                // In byte mode both sketches are far larger than the trace's key count, so
                // neither collides: the structure alone decides, and the counts agree exactly.
                #expect(result.misses == misses)
                #expect(result.missedBytes == missedBytes)
            }
        }
    }

    @Test("queue sizes are libCacheSim's for the reference capacities")
    func referenceSizes() {
        let expected: [(CacheLimits, Int64, Int64, Int64, Int64)] = [
            (.objects(489), 4, 485, 97, 388),
            (.objects(4897), 48, 4849, 969, 3879),
            (.objects(12243), 122, 12121, 2424, 9696),
            (.bytes(20_297_697), 202_976, 20_094_721, 4_018_944, 16_075_776),
            (.bytes(202_976_972), 2_029_769, 200_947_203, 40_189_440, 160_757_762),
            (.bytes(507_442_432), 5_074_424, 502_368_008, 100_473_601, 401_894_406),
        ]
        for (limits, window, main, probation, protected) in expected {
            let policy = WTinyLFUPolicy(limits: limits)
            #expect(policy.windowCapacity == window)
            #expect(policy.mainCapacity == main)
            #expect(policy.probationCapacity == probation)
            #expect(policy.protectedCapacity == protected)
            #expect(policy.halvingPeriod == 32 * main)
        }
    }

    // MARK: Hand-worked scenarios

    /// 1,000 bytes of 100-byte objects: a window of 2 objects, a main of 8 (4 probation, 4
    /// protected). The sketch (sized for 800 entries) is far from full, so estimates are exact.
    static func tenSlots() -> WTinyLFUPolicy { WTinyLFUPolicy(limits: .bytes(1000), window: 0.2, protected: 0.5) }

    static func request(_ key: UInt64, size: Int64 = 100, time: Int64 = 0) -> CacheRequest {
        CacheRequest(key: key, size: size, time: time)
    }

    /// Keys 1…11 once each: the cache fills, then key 11's eviction step moves 1…8 into main and
    /// evicts 9.
    static func filled() -> WTinyLFUPolicy {
        var cache = tenSlots()
        for key in UInt64(1)...11 { cache.access(request(key)) }
        return cache
    }

    @Test("the window holds the whole cache while main is empty")
    func windowFillsFirst() {
        var cache = Self.tenSlots()
        for key in UInt64(1)...10 { expectThat(!cache.access(Self.request(key))) }
        #expect(cache.keys(in: .window) == Array((1...10).reversed()))
        #expect(cache.segmentWeights.probation == 0 && cache.segmentWeights.protected == 0)
        #expect(cache.occupancy.evictions == 0)
    }

    @Test("window victims move to main while it has room: probation first, then protected; then they must win a duel")
    func mainFillsProbationThenProtected() {
        let cache = Self.filled()
        #expect(cache.keys(in: .probation) == [4, 3, 2, 1])
        #expect(cache.keys(in: .protected) == [8, 7, 6, 5])
        #expect(cache.keys(in: .window) == [11, 10])
        // 9 (counted once on insertion) lost to 1 (insertion + move into main).
        #expect(!cache.contains(9))
        #expect(cache.sketch.estimate(1) == 2)
        #expect(cache.sketch.estimate(9) == 2)  // its insertion and its duel
        #expect(cache.occupancy.evictions == 1)
        #expect(cache.occupancy.count == 10 && cache.occupancy.bytes == 1000)
    }

    @Test("a burst of one-hit wonders passes through the window without displacing main")
    func oneHitWondersDoNotDisplaceMain() {
        var cache = Self.filled()
        let mainBefore = Set(cache.keys(in: .probation) + cache.keys(in: .protected))
        for key in UInt64(100)..<200 { expectThat(!cache.access(Self.request(key))) }
        #expect(Set(cache.keys(in: .probation) + cache.keys(in: .protected)) == mainBefore)
        #expect(cache.keys(in: .window) == [199, 198])
        #expect(cache.occupancy.evictions == 1 + 100)
    }

    @Test("a window victim estimated more frequent than main's victim replaces it, and the step goes on")
    func frequentCandidateReplacesMainVictim() {
        var cache = Self.filled()
        // 9 comes back: its third count. Making room evicts 10 (1 count against 1's 2).
        expectThat(!cache.access(Self.request(9)))
        #expect(cache.sketch.estimate(9) == 3)
        #expect(!cache.contains(10))
        expectThat(!cache.access(Self.request(12)))  // evicts 11 the same way
        #expect(cache.keys(in: .window) == [12, 9])
        // 13: the candidate 9 (3) beats main's victim 1 (2): 1 is evicted, 9 enters probation;
        // the step goes on, and the next candidate, 12 (1), loses to 2 (2).
        expectThat(!cache.access(Self.request(13)))
        #expect(!cache.contains(1))
        #expect(cache.keys(in: .probation) == [9, 4, 3, 2])
        #expect(!cache.contains(12))
        #expect(cache.keys(in: .window) == [13])
        #expect(cache.occupancy.evictions == 1 + 2 + 2)
    }

    @Test("ties go to main: the candidate must be strictly more frequent")
    func tiesKeepMainVictim() {
        var cache = Self.filled()
        expectThat(cache.remove(10))
        expectThat(!cache.access(Self.request(10)))  // fits without eviction; its second count
        #expect(cache.sketch.estimate(10) == 2)
        expectThat(!cache.access(Self.request(12)))  // evicts 11
        expectThat(!cache.access(Self.request(13)))  // 10 (2) against 1 (2): 10 goes
        #expect(!cache.contains(10))
        #expect(cache.contains(1))
    }

    @Test("a probation hit moves to protected; protected's overflow is demoted to probation's head")
    func promotionAndDemotion() {
        var cache = Self.filled()
        expectThat(cache.access(Self.request(2)))
        #expect(cache.keys(in: .protected) == [2, 8, 7, 6])
        #expect(cache.keys(in: .probation) == [5, 4, 3, 1])
        #expect(cache.sketch.estimate(2) == 3)  // main hits count
        expectThat(cache.access(Self.request(7)))
        #expect(cache.keys(in: .protected) == [7, 2, 8, 6])
        #expect(cache.mainHitsSinceHalving == 2)
    }

    @Test("a window hit refreshes recency but is not counted in the sketch")
    func windowHitsAreNotCounted() {
        var cache = Self.filled()
        expectThat(cache.access(Self.request(10)))
        #expect(cache.keys(in: .window) == [10, 11])
        #expect(cache.sketch.estimate(10) == 1)
        #expect(cache.mainHitsSinceHalving == 0)
    }

    @Test("a promotion that overflows probation evicts probation's tail: a hit can evict")
    func promotionCanEvict() {
        var cache = Self.tenSlots()
        for (key, size) in [(UInt64(1), Int64(100)), (2, 100), (3, 100), (4, 100), (5, 200), (6, 100), (7, 100), (8, 100), (9, 100), (10, 100)] {
            cache.access(Self.request(key, size: size))
        }
        #expect(cache.keys(in: .probation) == [4, 3, 2, 1])
        #expect(cache.keys(in: .protected) == [7, 6, 5])  // 5 is 200 bytes
        #expect(!cache.contains(8))
        // 1's promotion pushes protected to 500 bytes: 5 (200) is demoted, probation reaches 500
        // bytes, and its tail 2 is evicted.
        expectThat(cache.access(Self.request(1)))
        #expect(cache.keys(in: .protected) == [1, 7, 6])
        #expect(cache.keys(in: .probation) == [5, 4, 3])
        #expect(!cache.contains(2))
        #expect(cache.occupancy.evictions == 2)
    }

    @Test("nothing is cached below 100 objects with the default 1 % window")
    func admissionNeedsAWindow() {
        var small = WTinyLFUPolicy(limits: .objects(99))
        expectThat(!small.insert(Self.request(1, size: 1)))
        #expect(small.occupancy.count == 0)
        var hundred = WTinyLFUPolicy(limits: .objects(100))
        expectThat(hundred.insert(Self.request(1, size: 1)))
    }

    @Test("admission requires the object to fit in the window and in probation")
    func admissionBySegmentSize() {
        var cache = Self.tenSlots()  // window 200, probation 400
        expectThat(!cache.insert(Self.request(1, size: 201)))
        expectThat(cache.insert(Self.request(2, size: 200)))
        var tightProbation = WTinyLFUPolicy(limits: .bytes(1000), window: 0.2, protected: 0.9)  // probation 80
        #expect(tightProbation.probationCapacity == 80)
        expectThat(!tightProbation.insert(Self.request(1, size: 81)))
        expectThat(tightProbation.insert(Self.request(2, size: 80)))
    }

    @Test("every 32 × main-capacity main hits the sketch is halved")
    func halving() {
        var cache = Self.filled()  // main capacity 800 (bytes): a halving every 25,600 main hits
        #expect(cache.halvingPeriod == 25_600)
        for _ in 0..<25_599 { cache.access(Self.request(5)) }
        #expect(cache.mainHitsSinceHalving == 25_599)
        let five = cache.sketch.estimate(5)
        let others = (UInt64(1)...11).map { cache.sketch.estimate($0) }
        #expect(five == 2 + 25_599)
        cache.access(Self.request(5))
        #expect(cache.mainHitsSinceHalving == 0)
        #expect(cache.sketch.estimate(5) == (five + 1) / 2)
        for (key, before) in zip(UInt64(1)...11, others) where key != 5 {
            #expect(cache.sketch.estimate(key) == before / 2)
        }
    }

    @Test("an expired entry found by lookup is a miss, removed and counted")
    func expiry() {
        var cache = WTinyLFUPolicy(limits: .objects(100), expiry: Expiry(maxAge: 10))
        expectThat(!cache.access(Self.request(1, size: 1, time: 0)))
        expectThat(cache.access(Self.request(1, size: 1, time: 10)))
        expectThat(!cache.lookup(Self.request(1, size: 1, time: 11)))
        #expect(!cache.contains(1))
        #expect(cache.occupancy.expirations == 1 && cache.occupancy.count == 0)

        var refreshed = WTinyLFUPolicy(limits: .objects(100), expiry: Expiry(maxAge: 10, refreshOnAccess: true))
        refreshed.access(Self.request(1, size: 1, time: 0))
        expectThat(refreshed.access(Self.request(1, size: 1, time: 10)))
        expectThat(refreshed.access(Self.request(1, size: 1, time: 20)))
        expectThat(!refreshed.access(Self.request(1, size: 1, time: 31)))
    }

    @Test("with both limits the queues are sized in bytes and the count limit is enforced too")
    func bothLimits() {
        var cache = WTinyLFUPolicy(limits: CacheLimits(maxCount: 3, maxBytes: 1000), window: 0.2)
        #expect(cache.windowCapacity == 200 && cache.mainCapacity == 800)
        for key in UInt64(1)...5 { cache.access(Self.request(key, size: 10)) }
        #expect(cache.occupancy.count == 3 && cache.occupancy.bytes == 30)
        #expect(cache.occupancy.evictions == 2)
    }

    @Test("remove, evictOne, removeAll and contains keep occupancy exact")
    func maintenance() {
        var cache = Self.filled()
        #expect(cache.contains(3))
        expectThat(cache.remove(3))
        expectThat(!cache.remove(3))
        #expect(!cache.contains(3))
        #expect(cache.occupancy.count == 9 && cache.occupancy.bytes == 900 && cache.occupancy.evictions == 1)
        // One step: main has room again, so the window's tail 10 moves there; the next
        // candidate, 11 (1), loses to main's victim 1 (2).
        expectThat(cache.evictOne())
        #expect(cache.keys(in: .probation) == [10, 4, 2, 1])
        #expect(!cache.contains(11))
        #expect(cache.occupancy.count == 8 && cache.occupancy.evictions == 2)
        cache.removeAll()
        #expect(cache.occupancy.count == 0 && cache.occupancy.bytes == 0 && cache.occupancy.evictions == 2)
        #expect(!cache.contains(1))
        expectThat(!cache.evictOne())
        #expect(cache.sketch.estimate(1) == 2)  // the popularity history is kept
        // Empty again, the cache fills its window first.
        for key in UInt64(1)...10 { cache.access(Self.request(key)) }
        #expect(cache.keys(in: .window).count == 10)
    }

    @Test("the policy spec parses its tunables and builds the policy")
    func spec() throws {
        let spec = try PolicySpec.parse("wtinylfu:window=0.1:protected=0.5", source: "test")
        #expect(spec.description == "wtinylfu:window=0.1:protected=0.5")
        let policy = try spec.makePolicy(limits: .objects(1000), source: "test")
        let built = try #require(policy as? WTinyLFUPolicy)
        #expect(built.windowCapacity == 100 && built.probationCapacity == 450 && built.protectedCapacity == 450)
        #expect(PolicySpec(.wtinylfu).value("window") == 0.01)
        #expect(PolicySpec(.wtinylfu).value("protected") == 0.8)
        #expect(throws: InputError.self) { try PolicySpec.parse("wtinylfu:window=0.9", source: "test") }
        #expect(throws: InputError.self) { try PolicySpec.parse("wtinylfu:small=0.1", source: "test") }
    }
}
