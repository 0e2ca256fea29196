import Testing
@testable import FeedBench

// CLOCK, SIEVE and LFU-DA: each against a naive model written from its definition, CLOCK and
// SIEVE against libCacheSim's figures for cloudphysics.csv, and a few hand-worked scenarios.

/// What the differential runner needs from a naive model besides `access`.
protocol NaiveSimpleModel: NaiveCache {
    init(limits: CacheLimits, expiry: Expiry?)
    /// Drops `key` if resident (not an eviction); returns whether it was.
    mutating func remove(_ key: UInt64) -> Bool
    var count: Int { get }
    var bytes: Int64 { get }
    var evictions: Int { get }
    var expirations: Int { get }
}

/// `SlotPolicy.slotInsert`'s rule, restated: one more object of `size` would break a limit.
private func naiveOverflows(_ limits: CacheLimits, count: Int, bytes: Int64, adding size: Int64) -> Bool {
    if let maxCount = limits.maxCount, count + 1 > maxCount { return true }
    if let maxBytes = limits.maxBytes, bytes + size > maxBytes { return true }
    return false
}

/// CLOCK as an array, oldest first: a referenced front entry loses its bit and goes to the back;
/// the first unreferenced front entry is the victim.
struct NaiveClock: NaiveSimpleModel {
    struct Entry { var key: UInt64, size: Int64, referenced: Bool, deadline: Int64 }
    let limits: CacheLimits
    let expiry: Expiry?
    var queue: [Entry] = []
    var evictions = 0, expirations = 0

    init(limits: CacheLimits, expiry: Expiry?) { self.limits = limits; self.expiry = expiry }

    var count: Int { queue.count }
    var bytes: Int64 { queue.reduce(0) { $0 + $1.size } }

    mutating func access(_ r: CacheRequest) -> Bool {
        if let i = queue.firstIndex(where: { $0.key == r.key }) {
            if r.time > queue[i].deadline {
                queue.remove(at: i)
                expirations += 1
            } else {
                queue[i].referenced = true
                if let expiry, expiry.refreshOnAccess { queue[i].deadline = r.time + expiry.maxAge }
                return true
            }
        }
        if let maxBytes = limits.maxBytes, r.size > maxBytes { return false }
        while naiveOverflows(limits, count: count, bytes: bytes, adding: r.size) {
            while queue[0].referenced {
                var entry = queue.removeFirst()
                entry.referenced = false
                queue.append(entry)
            }
            queue.removeFirst()
            evictions += 1
        }
        queue.append(Entry(key: r.key, size: r.size, referenced: false, deadline: expiry.map { r.time + $0.maxAge } ?? .max))
        return false
    }

    mutating func remove(_ key: UInt64) -> Bool {
        guard let i = queue.firstIndex(where: { $0.key == key }) else { return false }
        queue.remove(at: i)
        return true
    }
}

/// SIEVE as an array from the tail (index 0, oldest) to the head (last, newest), the hand kept
/// as the key it rests on (`nil`: start at the tail).
struct NaiveSieve: NaiveSimpleModel {
    struct Entry { var key: UInt64, size: Int64, visited: Bool, deadline: Int64 }
    let limits: CacheLimits
    let expiry: Expiry?
    var list: [Entry] = []
    var hand: UInt64?
    var evictions = 0, expirations = 0

    init(limits: CacheLimits, expiry: Expiry?) { self.limits = limits; self.expiry = expiry }

    var count: Int { list.count }
    var bytes: Int64 { list.reduce(0) { $0 + $1.size } }

    /// The key of the entry after `i` toward the head, `nil` past the head.
    func keyTowardHead(from i: Int) -> UInt64? { i + 1 < list.count ? list[i + 1].key : nil }

    /// Removes the entry at `i`; a hand resting on it moves toward the head.
    mutating func drop(at i: Int) {
        if list[i].key == hand { hand = keyTowardHead(from: i) }
        list.remove(at: i)
    }

    mutating func access(_ r: CacheRequest) -> Bool {
        if let i = list.firstIndex(where: { $0.key == r.key }) {
            if r.time > list[i].deadline {
                drop(at: i)
                expirations += 1
            } else {
                list[i].visited = true
                if let expiry, expiry.refreshOnAccess { list[i].deadline = r.time + expiry.maxAge }
                return true
            }
        }
        if let maxBytes = limits.maxBytes, r.size > maxBytes { return false }
        while naiveOverflows(limits, count: count, bytes: bytes, adding: r.size) {
            var i = hand.flatMap { key in list.firstIndex { $0.key == key } } ?? 0
            while list[i].visited {
                list[i].visited = false
                i = i + 1 < list.count ? i + 1 : 0
            }
            hand = keyTowardHead(from: i)
            list.remove(at: i)
            evictions += 1
        }
        list.append(Entry(key: r.key, size: r.size, visited: false, deadline: expiry.map { r.time + $0.maxAge } ?? .max))
        return false
    }

    mutating func remove(_ key: UInt64) -> Bool {
        guard let i = list.firstIndex(where: { $0.key == key }) else { return false }
        drop(at: i)
        return true
    }
}

/// LFU-DA as an array: priority = count + L at the last access; the victim has the lowest
/// priority, then the oldest last access; L becomes the victim's priority.
struct NaiveLFUDA: NaiveSimpleModel {
    struct Entry { var key: UInt64, size: Int64, count: Int64, priority: Int64, lastAccess: Int, deadline: Int64 }
    let limits: CacheLimits
    let expiry: Expiry?
    var entries: [Entry] = []
    var inflation: Int64 = 0
    var clock = 0
    var evictions = 0, expirations = 0

    init(limits: CacheLimits, expiry: Expiry?) { self.limits = limits; self.expiry = expiry }

    var count: Int { entries.count }
    var bytes: Int64 { entries.reduce(0) { $0 + $1.size } }

    mutating func access(_ r: CacheRequest) -> Bool {
        clock += 1
        if let i = entries.firstIndex(where: { $0.key == r.key }) {
            if r.time > entries[i].deadline {
                entries.remove(at: i)
                expirations += 1
            } else {
                entries[i].count += 1
                entries[i].priority = entries[i].count + inflation
                entries[i].lastAccess = clock
                if let expiry, expiry.refreshOnAccess { entries[i].deadline = r.time + expiry.maxAge }
                return true
            }
        }
        if let maxBytes = limits.maxBytes, r.size > maxBytes { return false }
        while naiveOverflows(limits, count: count, bytes: bytes, adding: r.size) {
            let victim = entries.indices.min {
                (entries[$0].priority, entries[$0].lastAccess) < (entries[$1].priority, entries[$1].lastAccess)
            }!
            inflation = entries[victim].priority
            entries.remove(at: victim)
            evictions += 1
        }
        entries.append(Entry(key: r.key, size: r.size, count: 1, priority: 1 + inflation, lastAccess: clock,
                             deadline: expiry.map { r.time + $0.maxAge } ?? .max))
        return false
    }

    mutating func remove(_ key: UInt64) -> Bool {
        guard let i = entries.firstIndex(where: { $0.key == key }) else { return false }
        entries.remove(at: i)
        return true
    }
}

/// Every request of many seeded random traces has the same outcome in the policy and in its
/// naive model: object, byte and combined limits, objects larger than the cache, one-object
/// caches, with and without a maximum age, with random removals in between.
@Suite struct ModernSimplePoliciesDifferentialTests {
    static let expiries: [(Int64?, Bool)] = [(nil, false), (25, false), (25, true)]

    func agree<Model: NaiveSimpleModel>(_ name: PolicyName, _: Model.Type) throws {
        for seed in UInt64(0)..<30 {
            for limits in DifferentialLimits.all {
                for (maxAge, refresh) in Self.expiries {
                    let label = "\(name) seed \(seed) \(limits) age \(String(describing: maxAge)) refresh \(refresh)"
                    let trace = RandomTrace(seed: seed, count: 600, keys: 20 + Int(seed % 4) * 15,
                                            sizes: DifferentialLimits.sizes(for: limits), skewed: seed % 5 != 4)
                    var policy = try PolicySpec(name, maxAge: maxAge, refreshOnAccess: refresh).makePolicy(limits: limits, source: "test")
                    var model = Model(limits: limits, expiry: maxAge.map { Expiry(maxAge: $0, refreshOnAccess: refresh) })
                    var removals = SeededGenerator(seed: seed, stream: 77)
                    for (i, request) in trace.requests.enumerated() {
                        if removals.chance(0.04) {
                            let key = trace.requests[Int(removals.next(below: UInt64(trace.requests.count)))].key
                            let removed = model.remove(key)
                            let actuallyRemoved = policy.remove(key)
                            #expect(actuallyRemoved == removed, "\(label): remove before request \(i)")
                        }
                        let expected = model.access(request)
                        let actual = policy.access(request)
                        #expect(actual == expected, "\(label): request \(i)")
                        if actual != expected { return }
                    }
                    #expect(policy.occupancy.count == model.count, "\(label)")
                    #expect(policy.occupancy.bytes == model.bytes, "\(label)")
                    #expect(policy.occupancy.evictions == model.evictions, "\(label)")
                    #expect(policy.occupancy.expirations == model.expirations, "\(label)")
                    #expect(limits.holds(policy.occupancy), "\(label)")
                }
            }
        }
    }

    @Test func clockAgreesWithTheNaiveModel() throws { try agree(.clock, NaiveClock.self) }
    @Test func sieveAgreesWithTheNaiveModel() throws { try agree(.sieve, NaiveSieve.self) }
    @Test func lfudaAgreesWithTheNaiveModel() throws { try agree(.lfuda, NaiveLFUDA.self) }
}

/// CLOCK and SIEVE on cloudphysics.csv give exactly libCacheSim's miss counts and missed bytes
/// (shared/traces/README.md).
@Suite(.needsCloudPhysics) struct ModernSimplePoliciesTraceTests {
    /// `shared/traces/` beside the package root.
    static let tracesFolder = String(SharedFiles.cloudPhysics.dropLast("/cloudphysics.csv".count))

    struct Expected {
        var policy: String
        var misses: [Int]
        var missedBytes: [Int64]?
    }

    static let objectCapacities: [Int64] = [489, 4897, 12243]
    static let byteCapacities: [Int64] = [20_297_697, 202_976_972, 507_442_432]

    static let byObjects: [PolicyName: Expected] = [
        .clock: Expected(policy: "Clock", misses: [95332, 91599, 77041]),
        .sieve: Expected(policy: "Sieve", misses: [94419, 90040, 75430]),
    ]
    static let byBytes: [PolicyName: Expected] = [
        .clock: Expected(policy: "Clock", misses: [94828, 92082, 81672], missedBytes: [4_279_953_408, 4_158_443_008, 3_664_963_072]),
        .sieve: Expected(policy: "Sieve", misses: [93724, 89993, 76934], missedBytes: [4_270_392_832, 4_060_649_472, 3_469_850_112]),
    ]

    /// The README's table row for `expected`, as printed there.
    static func readmeRow(_ expected: Expected) -> String {
        let cells = expected.misses.indices.map { i in
            "\(expected.misses[i]) misses" + (expected.missedBytes.map { ", \($0[i]) B" } ?? "")
        }
        return "| \(expected.policy) | " + cells.joined(separator: " | ") + " |"
    }

    @Test func theReadmeHoldsTheseFigures() throws {
        var lines: [String] = []
        try LineReader(path: Self.tracesFolder + "/README.md").forEachLine { line, _ in
            lines.append(String(decoding: line, as: UTF8.self))
        }
        for expected in Array(Self.byObjects.values) + Array(Self.byBytes.values) {
            #expect(lines.contains(Self.readmeRow(expected)), "README row \(Self.readmeRow(expected))")
        }
    }

    @Test(arguments: [PolicyName.clock, .sieve], CapacityUnit.allCases)
    func matchesLibCacheSimExactly(name: PolicyName, unit: CapacityUnit) throws {
        let expected = (unit == .objects ? Self.byObjects : Self.byBytes)[name]!
        let capacities = unit == .objects ? Self.objectCapacities : Self.byteCapacities
        let results = try CacheSimulation(policies: [PolicySpec(name)], capacities: capacities, unit: unit)
            .run(tracePath: Self.tracesFolder + "/cloudphysics.csv")
        #expect(results.map(\.requests) == [113_872, 113_872, 113_872])
        #expect(results.map(\.misses) == expected.misses)
        if let missedBytes = expected.missedBytes { #expect(results.map(\.missedBytes) == missedBytes) }
    }
}

/// Small hand-worked traces that read as the policies' specifications.
@Suite struct ModernSimplePoliciesScenarioTests {
    static func get(_ key: UInt64) -> CacheRequest { CacheRequest(key: key, size: 1) }

    @Test func clockGivesAReferencedEntryOneSecondChance() {
        var clock = ClockPolicy(limits: .objects(3))
        for key: UInt64 in [1, 2, 3] { clock.access(Self.get(key)) }
        let hit = clock.access(Self.get(1))
        #expect(hit)
        #expect(clock.isReferenced(1) == true)
        clock.access(Self.get(4))
        #expect(clock.contains(1) && !clock.contains(2), "1 was at the tail but referenced: 2 goes instead")
        #expect(clock.isReferenced(1) == false, "the second chance costs the bit")
        clock.access(Self.get(5))
        #expect(!clock.contains(3), "1 went back to the head, so 3 is now the oldest")
        clock.access(Self.get(6))
        #expect(!clock.contains(1), "without a new hit, 1 has no third chance")
    }

    @Test func clockWithEveryEntryReferencedEvictsInInsertionOrder() {
        var clock = ClockPolicy(limits: .objects(3))
        for key: UInt64 in [1, 2, 3, 1, 2, 3, 4] { clock.access(Self.get(key)) }
        #expect(!clock.contains(1) && clock.contains(2) && clock.contains(3))
        #expect(clock.isReferenced(2) == false && clock.isReferenced(3) == false, "one full turn cleared every bit")
    }

    @Test func sieveKeepsAVisitedEntryInPlaceThroughOneSweep() {
        var sieve = SievePolicy(limits: .objects(3))
        for key: UInt64 in [1, 2, 3] { sieve.access(Self.get(key)) }
        let hit = sieve.access(Self.get(1))
        #expect(hit)
        sieve.access(Self.get(4))
        #expect(sieve.contains(1) && !sieve.contains(2), "the hand passes visited 1 at the tail and takes 2")
        #expect(sieve.isVisited(1) == false)
        #expect(sieve.handKey == 3, "the hand rests on the victim's neighbour toward the head")
        // New entries enter at the head, ahead of the hand: it takes the unvisited newcomers one
        // by one as it advances and comes back to 1, at the tail, only after passing the head.
        for key: UInt64 in 5...9 { sieve.access(Self.get(key)) }
        #expect(sieve.contains(1) && sieve.contains(8) && sieve.contains(9))
        #expect(sieve.handKey == 8)
    }

    @Test func sieveRestartsFromTheTailAfterEvictingTheHead() {
        var sieve = SievePolicy(limits: .objects(2))
        for key: UInt64 in [1, 2, 1, 3] { sieve.access(Self.get(key)) }
        #expect(sieve.contains(1) && !sieve.contains(2), "visited 1 is spared; 2, the head, goes")
        #expect(sieve.handKey == nil)
        sieve.access(Self.get(4))
        #expect(!sieve.contains(1) && sieve.contains(3), "the next sweep starts again at the tail")
    }

    @Test func sieveWrapsFromTheHeadToTheTailWhenEverythingIsVisited() {
        var sieve = SievePolicy(limits: .objects(3))
        for key: UInt64 in [1, 2, 3, 1, 2, 3, 4] { sieve.access(Self.get(key)) }
        #expect(!sieve.contains(1) && sieve.contains(2) && sieve.contains(3))
        #expect(sieve.handKey == 2)
    }

    @Test func sieveMovesTheHandTowardTheHeadWhenItsEntryLeavesOtherwise() {
        var sieve = SievePolicy(limits: .objects(4))
        for key: UInt64 in [1, 2, 3, 4, 1, 5] { sieve.access(Self.get(key)) }
        #expect(!sieve.contains(2) && sieve.handKey == 3)
        let removed = sieve.remove(3)
        #expect(removed)
        #expect(sieve.handKey == 4)
        let hit = sieve.access(Self.get(4))
        #expect(hit)
        sieve.access(Self.get(6))
        #expect(sieve.occupancy.evictions == 1, "the removal made room for 6")
        sieve.access(Self.get(7))
        #expect(sieve.contains(1) && sieve.contains(4) && !sieve.contains(5), "the sweep resumed at 4, not at the tail")
        // Expiry does the same: the hand leaves an entry found expired.
        var aging = SievePolicy(limits: .objects(3), expiry: Expiry(maxAge: 10))
        aging.access(CacheRequest(key: 1, size: 1, time: 0))
        aging.access(CacheRequest(key: 2, size: 1, time: 0))
        aging.access(CacheRequest(key: 3, size: 1, time: 5))
        aging.access(CacheRequest(key: 1, size: 1, time: 5))
        aging.access(CacheRequest(key: 4, size: 1, time: 5))
        #expect(aging.handKey == 3)
        let expiredHit = aging.access(CacheRequest(key: 3, size: 1, time: 16))
        #expect(!expiredHit, "3 expired at 15")
        #expect(aging.handKey == 4)
    }

    @Test func lfudaAgesOutAFormerlyPopularEntry() {
        var lfuda = LFUDAPolicy(limits: .objects(2))
        var lfu = LFUPolicy(limits: .objects(2))
        let trace: [UInt64] = [1, 1, 1, 1, 1, 2, 3, 4, 5, 6]
        for key in trace { lfuda.access(Self.get(key)); lfu.access(Self.get(key)) }
        // Each eviction raised L by one: 2 (priority 1), 3 (2), 4 (3), 5 (4).
        #expect(lfuda.inflation == 4)
        #expect(lfuda.priority(of: 1) == 5 && lfuda.priority(of: 6) == 5)
        lfuda.access(Self.get(7))
        lfu.access(Self.get(7))
        #expect(!lfuda.contains(1) && lfuda.contains(6), "equal priority 5: the least recently accessed goes")
        #expect(lfuda.inflation == 5)
        #expect(lfu.contains(1), "plain LFU keeps the old favourite forever")
    }

    @Test func lfudaRepricesAHitWithTheCurrentInflation() {
        var lfuda = LFUDAPolicy(limits: .objects(2))
        for key: UInt64 in [1, 2, 3] { lfuda.access(Self.get(key)) }
        #expect(!lfuda.contains(1) && lfuda.inflation == 1)
        #expect(lfuda.priority(of: 2) == 1 && lfuda.priority(of: 3) == 2)
        let hit = lfuda.access(Self.get(2))
        #expect(hit)
        #expect(lfuda.frequency(of: 2) == 2 && lfuda.priority(of: 2) == 3)
        lfuda.access(Self.get(4))
        #expect(!lfuda.contains(3) && lfuda.inflation == 2)
        lfuda.removeAll()
        #expect(lfuda.inflation == 0)
    }

    @Test func theNewPoliciesAreNamedWithoutTunables() throws {
        for (text, name) in [("clock", PolicyName.clock), ("SIEVE", .sieve), ("lfuda", .lfuda)] {
            #expect(try PolicySpec.parse(text, source: "--policy") == PolicySpec(name))
            #expect(name.tunables.isEmpty && !name.summary.isEmpty && !name.needsFuture)
            #expect(throws: InputError.self) { try PolicySpec.parse("\(text):small=0.1", source: "--policy") }
        }
    }
}
