import Testing
@testable import FeedBench

/// Properties of whole runs that fail if the model breaks (issue: the simulator and the main job).
@Suite struct FeedSimulationTests {
    static let duration: Int64 = 30_000_000_000

    static func run(policy: String = "lru", window: Int, behavior: ScrollBehavior = .browser, network: NetworkProfile = .wifi,
                    profile: DeviceProfile = .lowEnd, seed: UInt64 = 1, launches: Int = 1) throws -> RunResult {
        var configuration = try RunConfiguration.standard(
            profile: profile, policy: PolicySpec.parse(policy, source: "test"), window: .items(PrefetchWindow(ahead: window)),
            workload: .behavior(behavior, duration: duration), seed: seed, network: network)
        configuration.launches = launches
        return try FeedSimulation.run(configuration)
    }

    @Test func theSameArgumentsGiveTheSameRowWhateverTheJobs() throws {
        let runs = try StandardMatrix.plan(profile: .lowEnd, memoryLimits: [.times(millionths: 250_000), .setups],
                                                     windows: [.items(PrefetchWindow(ahead: 0)), .items(PrefetchWindow(ahead: 20))],
                                                     seeds: [1], duration: Self.duration).configurations
        let one = try RunBatch.run(runs, jobs: 1).map(\.csvRow)
        let two = try RunBatch.run(runs, jobs: 2).map(\.csvRow)
        let again = try RunBatch.run(runs, jobs: 3).map(\.csvRow)
        #expect(one == two && two == again)
        #expect(Set(one).count == one.count, "different configurations give different rows")
    }

    /// Every display has a latency (0 for a memory hit); every other display is a stall, even
    /// one still waiting when the session ends — on Edge, most of the short session's misses.
    @Test(arguments: [NetworkProfile.edge, .wifi])
    func everyDisplayWaitsOnceAndWaitsUnderWayAtTheEndAreStalls(network: NetworkProfile) throws {
        var configuration = try RunConfiguration.standard(
            profile: .lowEnd, policy: PolicySpec(.lru), window: .items(PrefetchWindow(ahead: 0)),
            workload: .behavior(.browser, duration: 5_000_000_000), seed: 1, network: network)
        configuration.launches = 2
        let result = try FeedSimulation.run(configuration)
        #expect(result.displays > 0)
        #expect(result.displayLatency.count == result.displays)
        #expect(result.stalls.count == result.displays - result.memoryHits)
        #expect(result.launchFigures.map(\.stalls).reduce(0, +) == result.stalls.count)
    }

    @Test func displayLatencyCountsMemoryHitsAsNoWaitSoItNeverExceedsTheStallPercentile() throws {
        let result = try Self.run(window: 20, behavior: .revisitor)
        let all = result.displayLatency.microseconds(atPercentiles: [50, 95, 99])
        let stalled = result.stalls.microseconds(atPercentiles: [50, 95, 99])
        #expect(result.memoryHits > 0 && all[0] == 0)
        #expect(zip(all, stalled).allSatisfy { $0 <= $1 })
    }

    @Test(arguments: [ScrollBehavior.browser, .skimmer])
    func prefetchingAheadStallsLessOnWifiAndDownloadsNoLess(behavior: ScrollBehavior) throws {
        let none = try Self.run(window: 0, behavior: behavior)
        let twenty = try Self.run(window: 20, behavior: behavior)
        #expect(twenty.stalls.count < none.stalls.count)
        #expect(twenty.bytesDownloaded >= none.bytesDownloaded)
        #expect(twenty.wastedPrefetches >= none.wastedPrefetches)
        #expect(none.wastedPrefetches == 0)
    }

    @Test func withoutPrefetchingOnlyImagesShownBeforeAreMemoryHits() throws {
        var simulation = try FeedSimulation(RunConfiguration.standard(
            profile: .lowEnd, policy: PolicySpec(.lru), window: .items(PrefetchWindow(ahead: 0)),
            workload: .behavior(.revisitor, duration: Self.duration), seed: 3, network: .wifi))
        simulation.recordsDisplays = true
        _ = try simulation.run()
        var shown = Set<UInt64>()
        for display in simulation.displayLog {
            if display.outcome == .memoryHit { #expect(shown.contains(display.url), "memory hit on a first showing") }
            shown.insert(display.url)
        }
        #expect(simulation.displayLog.contains { $0.outcome == .memoryHit }, "revisiting shows images again from memory")
    }

    @Test(arguments: [0, 20])
    func theFeedSupplyAndViewedRulesHold(window: Int) throws {
        var simulation = try FeedSimulation(RunConfiguration.standard(
            profile: .lowEnd, policy: PolicySpec(.lru), window: .items(PrefetchWindow(ahead: window)),
            workload: .behavior(.skimmer, duration: Self.duration), seed: 5, network: .wifi))
        simulation.recordsDisplays = true
        let result = try simulation.run()
        let distinct = Set(simulation.displayLog.map(\.url)).count
        #expect(result.apiRequests * 10 >= distinct)
        #expect(result.reshownViewed == 0)
        #expect(result.imageRequests <= distinct + result.wastedPrefetches + result.cancelledRequests)
        #expect(result.displays == result.memoryHits + result.diskHits + result.inflightHits + result.misses)
    }

    @Test func aSecondLaunchShowsNoImageViewedInTheFirst() throws {
        let result = try Self.run(window: 10, behavior: .browser, launches: 3)
        #expect(result.launches == 3)
        #expect(result.reshownViewed == 0)
        #expect(result.firstImageTimes.count == 3)
    }

    @Test func memoryAboveTheWarningThresholdEmptiesTheMemoryCacheAndAboveJetsamIsAKill() throws {
        var tight = DeviceProfile.lowEnd
        tight.memoryWarningBytes = 20 << 20
        tight.jetsamLimitBytes = 1 << 40
        let warned = try Self.run(window: 20, behavior: .browser, profile: tight)
        #expect(warned.memoryWarnings > 0)
        #expect(warned.jetsamKills == 0)

        var fragile = DeviceProfile.lowEnd
        fragile.memoryWarningBytes = 1 << 40
        fragile.jetsamLimitBytes = 1 << 40
        fragile.memoryCacheBytes = 1 << 40
        var configuration = try RunConfiguration.standard(profile: fragile, policy: PolicySpec(.lru), window: .items(PrefetchWindow(ahead: 20)),
                                                          workload: .behavior(.browser, duration: Self.duration), seed: 1, network: .wifi)
        configuration.profile.jetsamLimitBytes = 30 << 20
        configuration.profile.memoryWarningBytes = 30 << 20
        configuration.launches = 2
        let killed = try FeedSimulation.run(configuration)
        #expect(killed.jetsamKills >= 1)
        #expect(killed.peakMemoryBytes > 30 << 20, "the kill happened because memory crossed the limit")
    }

    @Test func everyBuiltInProfileRunsItsStandardMatrixRow() throws {
        for profile in DeviceProfile.builtIn {
            let result = try Self.run(window: 10, behavior: .browser, network: try NetworkProfile.named(profile.defaultNetwork), profile: profile)
            #expect(result.displays > 0, "\(profile.name)")
            #expect(result.firstImageTimes.count == 1)
        }
    }
}
