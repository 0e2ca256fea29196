import Testing
@testable import FeedBench

/// `bench cachesim` reproduces what libCacheSim's cachesim printed for the CloudPhysics trace
/// (`shared/traces/README.md`): exact miss counts and missed bytes.
@Suite(.needsCloudPhysics) struct CloudPhysicsReferenceTests {
    struct Expected: Sendable, CustomTestStringConvertible {
        var policy: String
        var capacity: Int64
        var unit: CapacityUnit
        var misses: Int
        var missedBytes: Int64?
        var testDescription: String { "\(policy) \(capacity) \(unit)" }
    }

    static let requests = 113_872
    static let requestedBytes: Int64 = 4_368_040_448

    static let objectTable: [Expected] = [
        ("lru", [95420, 91657, 76538]), ("fifo", [96518, 91716, 77971]), ("lfu", [96765, 90040, 75430]),
        ("belady", [90263, 71620, 59600]),
    ].flatMap { policy, misses in
        zip([489, 4897, 12243] as [Int64], misses).map { Expected(policy: policy, capacity: $0, unit: .objects, misses: $1) }
    }

    static let byteTable: [Expected] = [
        ("lru", [(94956, 4_280_799_744), (92200, 4_157_572_608), (81987, 3_677_807_104)]),
        ("fifo", [(95293, 4_282_329_600), (91954, 4_153_497_088), (84091, 3_811_942_912)]),
        ("lfu", [(93724, 4_270_392_832), (89993, 4_060_649_472), (76934, 3_469_850_112)]),
    ].flatMap { policy, rows in
        zip([20_297_697, 202_976_972, 507_442_432] as [Int64], rows).map {
            Expected(policy: policy, capacity: $0, unit: .bytes, misses: $1.0, missedBytes: $1.1)
        }
    }

    /// libCacheSim breaks ties between never-again objects by heap order, so byte-based Belady is
    /// a reference within 0.5 %.
    static let beladyBytes: [Expected] = zip([20_297_697, 202_976_972, 507_442_432] as [Int64],
                                             [(91152, 4_102_901_760), (74162, 3_197_508_096), (62052, 2_567_073_792)] as [(Int, Int64)])
        .map { Expected(policy: "belady", capacity: $0, unit: .bytes, misses: $1.0, missedBytes: $1.1) }

    static func simulate(_ expected: [Expected], unit: CapacityUnit) throws -> [CacheSimResult] {
        let policies = try PolicySpec.parseList(Array(Set(expected.map(\.policy))).sorted().joined(separator: ","), source: "test")
        let capacities = Array(Set(expected.map(\.capacity))).sorted()
        return try CacheSimulation(policies: policies, capacities: capacities, unit: unit).run(tracePath: SharedFiles.cloudPhysics)
    }

    static func find(_ e: Expected, in results: [CacheSimResult]) -> CacheSimResult? {
        results.first { $0.policy == e.policy && $0.capacity == e.capacity }
    }

    @Test func objectCapacitiesMatchExactly() throws {
        let results = try Self.simulate(Self.objectTable, unit: .objects)
        for e in Self.objectTable {
            let r = try #require(Self.find(e, in: results))
            #expect(r.requests == Self.requests && r.requestedBytes == Self.requestedBytes)
            #expect(r.misses == e.misses, "\(e.testDescription)")
        }
    }

    @Test func byteCapacitiesMatchExactly() throws {
        let results = try Self.simulate(Self.byteTable, unit: .bytes)
        for e in Self.byteTable {
            let r = try #require(Self.find(e, in: results))
            #expect(r.misses == e.misses, "\(e.testDescription)")
            #expect(r.missedBytes == e.missedBytes, "\(e.testDescription)")
        }
    }

    @Test func byteBeladyIsWithinHalfAPercent() throws {
        let results = try Self.simulate(Self.beladyBytes, unit: .bytes)
        for e in Self.beladyBytes {
            let r = try #require(Self.find(e, in: results))
            #expect(abs(Double(r.misses - e.misses)) <= 0.005 * Double(e.misses), "\(e.testDescription)")
            #expect(abs(Double(r.missedBytes - e.missedBytes!)) <= 0.005 * Double(e.missedBytes!), "\(e.testDescription)")
        }
    }

    @Test func rowsPrintRatiosWithSixDecimals() throws {
        let results = try Self.simulate([Self.objectTable[0]], unit: .objects)
        #expect(results[0].csvRow == "lru,489,objects,113872,95420,0.837958,4368040448,4284496896,0.980874")
    }
}
