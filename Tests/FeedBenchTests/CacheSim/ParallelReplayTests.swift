import Testing
@testable import FeedBench

/// `bench cachesim --jobs N`: the caches shared among threads give the rows one thread gives.
@Suite struct ParallelReplayTests {
    @Test(arguments: [2, 3, 7])
    func cachesimGivesTheSameRowsWhateverTheJobs(jobs: Int) throws {
        let trace = RandomTrace(seed: UInt64(jobs), count: 6_000, keys: 600, sizes: 1...1_000).batch
        let policies = PolicyName.allCases.filter { $0 != .unbounded }.map { PolicySpec($0, maxAge: $0 == .ttl ? 40 : nil) }
        for unit in CapacityUnit.allCases {
            let capacities: [Int64] = unit == .objects ? [10, 100, 400] : [10_000, 100_000]
            let simulation = CacheSimulation(policies: policies, capacities: capacities, unit: unit)
            let alone = try simulation.run(trace: trace, jobs: 1)
            #expect(try simulation.run(trace: trace, jobs: jobs) == alone, "\(unit)")
            #expect(alone.count == policies.count * capacities.count)
        }
    }
}
