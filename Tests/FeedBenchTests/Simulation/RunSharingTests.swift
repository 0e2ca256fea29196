import Testing
@testable import FeedBench

/// Runs that differ only in the memory cache's policy and limit are run once when one's row is
/// what the other would write: the shared rows are byte for byte the rows the runs write,
/// whatever the policies, limits, windows, launches and memory warnings.
@Suite struct RunSharingTests {
    /// Policies that evict alike while nothing expires (`fifo` and `ttl`), ones that expire
    /// entries within the run, and ones whose queues the limit sizes.
    static let policies = ["lru", "lfu", "fifo", "ttl:max-age=300", "ttl:max-age=8", "lru:max-age=6", "s3fifo", "arc"]

    static func plan(_ profile: DeviceProfile, network: NetworkProfile, behavior: ScrollBehavior, seed: UInt64,
                     windows: [WindowMode] = [.items(PrefetchWindow(ahead: 0)), .items(PrefetchWindow(ahead: 20))],
                     launches: Int = 1) throws -> SweepPlan {
        try StandardMatrix.plan(
            profile: profile, network: network,
            caches: policies.map { .policy(try PolicySpec.parse($0, source: "test")) },
            memoryLimits: [32, 8, 1].map { .times(millionths: 1_000_000 / $0) },
            windows: windows, workloads: [.behavior(behavior, duration: 25_000_000_000)], seeds: [seed], launches: launches,
            gap: 20_000_000_000)
    }

    /// Every run of `plan` made alone, and shared: the rows, and how many runs sharing made.
    static func bothWays(_ plan: SweepPlan) throws -> (every: [RunResult], shared: [RunResult]) {
        let runs = plan.configurations
        let every = try RunBatch.run(runs, jobs: 2)
        let shared = try RunSharing.run(runs, groups: plan.sharingGroups, jobs: 2)
        return (every, shared)
    }

    /// The rows of `plan` shared are the rows of every run; each group made at least as many
    /// runs as its rows have different runs (rows equal but for the policy, limit, evictions and
    /// memory) — more where a follower stopped on a question whose other answer happened to
    /// leave the row as it was — and the plan made fewer runs than it has rows.
    static func expectSharedRowsAreTheRunsRows(_ plan: SweepPlan) throws {
        let (every, shared) = try bothWays(plan)
        #expect(shared.map(\.csvRow) == every.map(\.csvRow))
        #expect(every.allSatisfy { !$0.isShared })
        for chain in RunSharing.chains(groups: plan.sharingGroups) {
            var runs = Set<String>()
            for index in chain {
                var row = every[index]
                (row.policy, row.memoryLimitBytes, row.evictions, row.peakMemoryBytes, row.meanMemoryBytes) = ("", 0, 0, 0, 0)
                runs.insert(row.csvRow)
            }
            #expect(chain.filter { !shared[$0].isShared }.count >= runs.count)
        }
        #expect(shared.filter { !$0.isShared }.count < shared.count)
    }

    @Test(arguments: [(DeviceProfile.lowEnd, NetworkProfile.wifi, ScrollBehavior.skimmer, UInt64(1)),
                      (.lowEnd, .lte, .browser, 2), (.mid, .wifi, .browser, 3), (.tablet, .lte, .skimmer, 4), (.lowEnd, .wifi, .revisitor, 5)])
    func sharedRowsAreTheRowsTheRunsWouldWrite(profile: DeviceProfile, network: NetworkProfile, behavior: ScrollBehavior,
                                               seed: UInt64) throws {
        try Self.expectSharedRowsAreTheRunsRows(try Self.plan(profile, network: network, behavior: behavior, seed: seed))
    }

    /// Three launches 20 s apart: the background trim, warm resumes and the paused mean.
    @Test func sharedRowsHoldOverLaunchesAndTheirBackgroundTrims() throws {
        try Self.expectSharedRowsAreTheRunsRows(try Self.plan(.lowEnd, network: .wifi, behavior: .revisitor, seed: 7, launches: 3))
    }

    /// A phone that warns at 40 MB: the largest caches cross it (and are cleared) where the
    /// smaller ones do not, and the adaptive window reads memory.
    @Test func sharedRowsHoldWhereMemoryWarningsAndTheAdaptiveWindowDifferByCache() throws {
        var profile = DeviceProfile.lowEnd
        profile.memoryWarningBytes = 40_000_000
        let plan = try Self.plan(profile, network: .wifi, behavior: .revisitor, seed: 8, windows: [.adaptive(start: 20)])
        try Self.expectSharedRowsAreTheRunsRows(plan)
        let (every, _) = try Self.bothWays(plan)
        #expect(every.contains { $0.memoryWarnings > 0 } && every.contains { $0.memoryWarnings == 0 },
                "some caches warn and some do not")
    }

    @Test func theRowsDoNotDependOnTheJobs() throws {
        let plan = try Self.plan(.lowEnd, network: .lte, behavior: .skimmer, seed: 6)
        let one = try RunSharing.run(plan.configurations, groups: plan.sharingGroups, jobs: 1)
        let three = try RunSharing.run(plan.configurations, groups: plan.sharingGroups, jobs: 3)
        #expect(one.map(\.csvRow) == three.map(\.csvRow) && one.map(\.isShared) == three.map(\.isShared))
    }

    @Test func aGroupIsItsPositionsInOrderAndAConfigurationWithoutOneRunsAlone() {
        #expect(RunSharing.chains(groups: [0, nil, 1, 0, 1, nil]) == [[0, 3], [1], [2, 4], [5]])
    }
}
