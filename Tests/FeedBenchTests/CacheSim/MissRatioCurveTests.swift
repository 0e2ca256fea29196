import Foundation
import Testing
@testable import FeedBench

/// `--mrc`: LRU's curve from one pass of stack distances is, at every capacity, exactly what a
/// replay of LRU at that capacity gives.
@Suite struct MissRatioCurveTests {
    /// 20 capacities from 1 to past the key count.
    static let capacities: [Int64] = [1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610, 987, 1_597, 2_584, 4_181, 6_765, 10_946]

    static func curve(_ batch: KeyTraceBatch) -> MissRatioCurve {
        var curve = MissRatioCurve()
        curve.add(batch)
        return curve
    }

    @Test(arguments: 0..<12)
    func equalsLRUReplaysOnRandomTraces(seed: Int) throws {
        let trace = RandomTrace(seed: UInt64(seed), count: 5_000, keys: 50 + seed * 300, sizes: 1...5_000, skewed: seed % 3 != 0).batch
        let replayed = try CacheSimulation(policies: [PolicySpec.parse("lru", source: "test")], capacities: Self.capacities, unit: .objects).run(trace: trace)
        #expect(Self.curve(trace).results(at: Self.capacities) == replayed)
    }

    /// 70,000 requests grow the tree past its first 65,536 positions.
    @Test func equalsLRUReplaysAcrossTheTreesGrowth() throws {
        let trace = RandomTrace(seed: 99, count: 70_000, keys: 5_000).batch
        let capacities: [Int64] = [1, 10, 100, 1_000, 4_000, 6_000]
        let replayed = try CacheSimulation(policies: [PolicySpec.parse("lru", source: "test")], capacities: capacities, unit: .objects).run(trace: trace)
        var curve = MissRatioCurve()
        // In batches, as the reader hands them over.
        for start in stride(from: 0, to: trace.count, by: 7_777) {
            var part = KeyTraceBatch()
            for i in start..<min(start + 7_777, trace.count) { part.append(time: trace.times[i], key: trace.keys[i], size: trace.sizes[i]) }
            curve.add(part)
        }
        #expect(curve.results(at: capacities) == replayed)
    }

    @Test func stepsAreWhereTheMissesFallAndTheCurveNeverRises() {
        let trace = RandomTrace(seed: 5, count: 3_000, keys: 400).batch
        let curve = Self.curve(trace)
        let steps = curve.steps
        #expect(steps == steps.sorted() && steps.first! >= 1)
        let misses = curve.results(at: Array(1...450)).map(\.misses)
        #expect(zip(misses, misses.dropFirst()).allSatisfy { $0 >= $1 }, "LRU's misses never rise with capacity")
        for capacity in 1..<450 where misses[capacity] < misses[capacity - 1] {
            #expect(steps.contains(Int64(capacity + 1)), "a fall at \(capacity + 1) is a step")
        }
        #expect(curve.results(at: [10_000])[0].misses == Set(trace.keys).count, "past every distance only first requests miss")
    }

    @Test(.needsCloudPhysics) func equalsLRUOnCloudPhysicsAt20Capacities() throws {
        let capacities: [Int64] = (1...20).map { Int64($0) * 2_500 }
        let replayed = try CacheSimulation(policies: [PolicySpec.parse("lru", source: "test")], capacities: capacities, unit: .objects)
            .run(tracePath: SharedFiles.cloudPhysics)
        var curve = MissRatioCurve()
        _ = try KeyTraceReader(path: SharedFiles.cloudPhysics).forEachBatch { curve.add($0) }
        #expect(curve.results(at: capacities) == replayed)
    }
}
