import Testing
@testable import FeedBench

/// Runs that differ only in the memory cache's policy and limit are run once when one's row is
/// what the other would write: the shared rows are byte for byte the rows the runs write, and
/// the rule shares only where nothing the policy or the limit decides could differ.
@Suite struct RunSharingTests {
    /// Policies that share (`lru`, `lfu`, `fifo`, `ttl` whose lifetime outlasts the run), a `ttl`
    /// and an `lru` whose lifetime ends within it (they expire entries, so share only with
    /// themselves), and one that never shares (`s3fifo`).
    static let policies = ["lru", "lfu", "fifo", "ttl:max-age=300", "ttl:max-age=8", "lru:max-age=6", "s3fifo"]

    static func plan(_ profile: DeviceProfile, network: NetworkProfile, behavior: ScrollBehavior, seed: UInt64) throws -> SweepPlan {
        try StandardMatrix.plan(
            profile: profile, network: network,
            caches: policies.map { .policy(try PolicySpec.parse($0, source: "test")) },
            memoryLimits: [32, 8, 1].map { .times(millionths: 1_000_000 / $0) },
            windows: [.items(PrefetchWindow(ahead: 0)), .items(PrefetchWindow(ahead: 20))],
            workloads: [.behavior(behavior, duration: 25_000_000_000)], seeds: [seed])
    }

    /// Over profiles, networks, behaviours and seeds: the rows with sharing are the rows every
    /// run writes, some runs are shared, and the policies that expire entries did.
    @Test(arguments: [(DeviceProfile.lowEnd, NetworkProfile.wifi, ScrollBehavior.skimmer, UInt64(1)),
                      (.lowEnd, .lte, .browser, 2), (.mid, .wifi, .browser, 3), (.tablet, .lte, .skimmer, 4), (.lowEnd, .wifi, .revisitor, 5)])
    func sharedRowsAreTheRowsTheRunsWouldWrite(profile: DeviceProfile, network: NetworkProfile, behavior: ScrollBehavior,
                                               seed: UInt64) throws {
        let plan = try Self.plan(profile, network: network, behavior: behavior, seed: seed)
        let runs = plan.configurations
        let every = try RunBatch.run(runs, jobs: 2)
        let shared = try RunSharing.run(runs, groups: (0..<plan.count).map(plan.sharingGroup(at:)), jobs: 2)
        #expect(shared.map(\.csvRow) == every.map(\.csvRow))
        #expect(shared.contains(where: \.isShared) && !every.contains(where: \.isShared))
        #expect(shared.filter { $0.isShared && $0.policy == "s3fifo" }.isEmpty, "its queues are sized by the limit")
        #expect(every.contains { $0.policy == "ttl:max-age=8" && $0.memoryCacheUse.expired })
    }

    @Test func theRowsDoNotDependOnTheJobs() throws {
        let plan = try Self.plan(.lowEnd, network: .lte, behavior: .skimmer, seed: 6)
        let groups = (0..<plan.count).map(plan.sharingGroup(at:))
        let one = try RunSharing.run(plan.configurations, groups: groups, jobs: 1)
        let three = try RunSharing.run(plan.configurations, groups: groups, jobs: 3)
        #expect(one.map(\.csvRow) == three.map(\.csvRow) && one.map(\.isShared) == three.map(\.isShared))
    }

    static func pipeline(_ policy: String, mebibytes: Int64) throws -> PipelineConfiguration {
        PipelineConfiguration(memoryPolicy: try PolicySpec.parse(policy, source: "test"), memoryLimits: .bytes(mebibytes << 20),
                              diskLimits: .bytes(1 << 30))
    }

    static let seconds: Int64 = 1_000_000_000
    static let untouched = MemoryCacheUse(limitActed: false, expired: false, span: 120 * seconds)
    static let evicting = MemoryCacheUse(limitActed: true, expired: false, span: 120 * seconds)

    static func stands(_ target: String, _ targetMiB: Int64, for source: String, _ sourceMiB: Int64, _ use: MemoryCacheUse) throws -> Bool {
        RunSharing.stands(for: try pipeline(target, mebibytes: targetMiB), source: try pipeline(source, mebibytes: sourceMiB), use: use)
    }

    @Test func aRunWhoseLimitNeverActedStandsForEveryPolicyThatOnlyMakesRoomAtThatLimitOrMore() throws {
        for target in ["lru", "lfu", "fifo", "ttl:max-age=300"] {
            #expect(try Self.stands(target, 16, for: "lru", 8, Self.untouched))
            #expect(try Self.stands(target, 8, for: "lfu", 8, Self.untouched))
            #expect(try !Self.stands(target, 4, for: "lru", 8, Self.untouched), "a smaller limit might act")
        }
        #expect(try !Self.stands("ttl:max-age=100", 16, for: "lru", 8, Self.untouched), "100 s ends within the run's 120")
        #expect(try !Self.stands("s3fifo", 16, for: "lru", 8, Self.untouched), "its queues are sized by the limit")
        #expect(try !Self.stands("unbounded", 16, for: "lru", 8, Self.untouched), "it ignores memory warnings")
        #expect(try Self.stands("lru:max-age=300:refresh=1", 16, for: "lru", 8, Self.untouched),
                "a lifetime longer than the run never ends")
    }

    @Test func aRunWhoseLimitActedStandsOnlyForThePolicyThatEvictsAlikeAtItsOwnLimit() throws {
        #expect(try Self.stands("ttl:max-age=300", 8, for: "fifo", 8, Self.evicting), "ttl evicts as fifo while nothing expires")
        #expect(try Self.stands("lru:max-age=200", 8, for: "lru", 8, Self.evicting))
        #expect(try Self.stands("ttl:max-age=300:refresh=1", 8, for: "lru", 8, Self.evicting), "a lifetime restarted by hits: lru's order")
        #expect(try !Self.stands("ttl:max-age=300", 16, for: "fifo", 8, Self.evicting), "a larger limit evicts less")
        #expect(try !Self.stands("lfu", 8, for: "lru", 8, Self.evicting), "another order")
        #expect(try !Self.stands("ttl:max-age=300", 8, for: "lru", 8, Self.evicting))
        var long = Self.evicting
        long.span = 301 * Self.seconds
        #expect(try !Self.stands("ttl:max-age=300", 8, for: "fifo", 8, long), "an entry could outlive 300 s")
    }

    @Test func aRunThatExpiredEntriesStandsOnlyForItsOwnPolicyAtALargerLimit() throws {
        let expired = MemoryCacheUse(limitActed: false, expired: true, span: 120 * Self.seconds)
        #expect(try Self.stands("ttl:max-age=60", 16, for: "ttl:max-age=60", 8, expired))
        #expect(try !Self.stands("fifo", 8, for: "ttl:max-age=60", 8, expired))
        #expect(try !Self.stands("ttl:max-age=300", 16, for: "ttl:max-age=60", 8, expired))
        var both = expired
        both.limitActed = true
        #expect(try !Self.stands("ttl:max-age=60", 16, for: "ttl:max-age=60", 8, both))
    }

    @Test func aPresetsRunIsNeverShared() throws {
        var preset = try Self.pipeline("lru", mebibytes: 8)
        preset.label = "nuke"
        #expect(!RunSharing.stands(for: try Self.pipeline("lru", mebibytes: 16), source: preset, use: Self.untouched))
        #expect(!RunSharing.stands(for: preset, source: try Self.pipeline("lru", mebibytes: 4), use: Self.untouched))
    }

    @Test func aGroupTriesItsSmallestLimitsFirstAndFifoFirstAtEach() throws {
        let plan = try StandardMatrix.plan(profile: .lowEnd, windows: [.items(PrefetchWindow(ahead: 0))],
                                           workloads: [.behavior(.browser, duration: 1_000_000_000)], seeds: [1])
        let runs = plan.configurations
        let chains = RunSharing.chains(runs, groups: (0..<plan.count).map(plan.sharingGroup(at:)))
        #expect(chains.count == 1 && chains[0].count == runs.count)
        let order = chains[0].map { (runs[$0].pipeline.memoryLimits.maxBytes!, runs[$0].pipeline.memoryPolicy.description) }
        #expect(order.map(\.0) == order.map(\.0).sorted())
        #expect(order.prefix(4).map(\.1) == ["fifo", "lru", "lfu", "ttl:max-age=300"])
    }
}
