@testable import FeedBench
import Testing

/// The main job's screened search: every configuration on the first seed, every seed for the
/// contenders; it recommends what running every seed of every configuration does.
@Suite struct ScreenedSearchTests {
    @Test func contendersAreWithinTheMarginOfTheBestAndWithinTheLimit() {
        let runs = [(100, "0", 100, 1 << 20), (100, "5", 117, 1 << 20), (100, "10", 115, 1 << 20), (100, "20", 1, 2 << 30)]
            .map { limit, window, stalls, peak in
                MatrixSummaryTests.run(Int64(limit), window: window, seed: "1", stalls: Int64(stalls), peak: Int64(peak))
            }
        // The bound: 100 × 1.15 + 1 = 116; window 20 stalls least but is over the memory limit.
        let contenders = ScreenedSearch.contenders(runs, criteria: MatrixSummary.criteria(for: .lowEnd), weights: nil)
        #expect(Set(contenders.map(\.window)) == ["0", "10"])
    }

    /// A small matrix with configurations far apart: lru and fifo, a tiny cache and the
    /// profile's, no window and 20, on two networks.
    static func plan() throws -> SweepPlan {
        var grid = SweepGrid()
        grid.profiles = [SweepGrid.Value("low-end", source: "test")]
        grid.networks = ["wifi", "3g"].map { SweepGrid.Value($0, source: "test") }
        grid.policies = ["lru", "fifo"].map { SweepGrid.Value($0, source: "test") }
        grid.memoryLimits = ["0.03125x", "1x"].map { SweepGrid.Value($0, source: "test") }
        grid.windows = ["0", "20"].map { SweepGrid.Value($0, source: "test") }
        grid.behaviors = [SweepGrid.Value("browser", source: "test")]
        grid.seeds = ["1", "2", "3"].map { SweepGrid.Value($0, source: "test") }
        grid.session.duration = 20_000_000_000
        return try SweepPlan(grid)
    }

    @Test func itRecommendsWhatTheFullSearchDoesAndItsRowsAreTheFullSearchs() throws {
        let plan = try Self.plan()
        var wifi = NetworkProfile.wifi, cellular = NetworkProfile.threeG
        (wifi.name, cellular.name) = ("wifi", "3g")
        let population = NetworkPopulation(name: "test", members: [(wifi, 1, .wifi, "wifi"), (cellular, 1, .cellular, "3g")])
        let criteria = MatrixSummary.criteria(for: .lowEnd, weighted: true)
        let full = try RunBatch.run(plan.configurations, jobs: 2)
        let screened = try ScreenedSearch.run(plan, criteria: criteria, weights: population.weights, jobs: 2)
        #expect(screened.count < full.count)
        // Every screened row is the full search's row of the same run, in the same order.
        let byIdentity = Dictionary(uniqueKeysWithValues: full.map { ("\($0.network) \($0.policy) \($0.memoryLimitBytes) \($0.prefetchWindow) \($0.seed)", $0.csvRow) })
        #expect(screened.map { byIdentity["\($0.network) \($0.policy) \($0.memoryLimitBytes) \($0.prefetchWindow) \($0.seed)"] } == screened.map(\.csvRow))
        let order = full.map { "\($0.network) \($0.policy) \($0.memoryLimitBytes) \($0.prefetchWindow) \($0.seed)" }
        let positions = screened.map { row in order.firstIndex(of: "\(row.network) \(row.policy) \(row.memoryLimitBytes) \(row.prefetchWindow) \(row.seed)")! }
        #expect(positions == positions.sorted())
        let fullAnswer = MatrixSummary(profile: .lowEnd, results: full, population: population)
        let screenedAnswer = MatrixSummary(profile: .lowEnd, results: screened, population: population)
        let recommended = try #require(fullAnswer.recommended)
        #expect(screenedAnswer.recommended.map { [$0.policy, String($0.memoryLimitBytes), $0.window] } == [recommended.policy, String(recommended.memoryLimitBytes), recommended.window])
        #expect(screenedAnswer.ranking.count == fullAnswer.ranking.count)
        #expect(screenedAnswer.screenedOut > 0)
        #expect(screenedAnswer.table().contains("configurations ran every seed"))
    }
}
