@testable import FeedBench
import Testing

/// The answer across a population of networks: configurations ranked by each network's stalls
/// weighted by its share, what each network gives up, and settings per path class recommended
/// exactly when switching between them beats one setting beyond the seeds' noise.
@Suite struct PopulationSummaryTests {
    /// A run of window `window` on `network`, the same `stalls` on seeds 1–3.
    static func runs(_ network: String, window: String, stalls: Int64, peak: Int64 = 1 << 20) -> [MatrixSummary.Run] {
        ["1", "2", "3"].map { seed in
            var run = MatrixSummaryTests.run(100, window: window, seed: seed, stalls: stalls, peak: peak)
            run.network = network
            return run
        }
    }

    /// A population of networks `a` (Wi-Fi) and `b` (cellular) with shares `shareA` and `shareB`.
    static func population(_ shareA: Double, _ shareB: Double) -> NetworkPopulation {
        var a = NetworkProfile.wifi, b = NetworkProfile.lte
        (a.name, b.name) = ("a", "b")
        return NetworkPopulation(name: "test", members: [(a, shareA, .wifi, "a"), (b, shareB, .cellular, "b")])
    }

    @Test func configurationsRankByTheSharesWeightedStallsNotTheirSum() {
        // Window 5: 0.75 × 10 + 0.25 × 100 = 32.5; window 20: 0.75 × 40 + 0.25 × 20 = 35. Summed
        // plainly, window 20 (60) would beat window 5 (110).
        let runs = Self.runs("a", window: "5", stalls: 10) + Self.runs("b", window: "5", stalls: 100)
            + Self.runs("a", window: "20", stalls: 40) + Self.runs("b", window: "20", stalls: 20)
        let summary = MatrixSummary(profile: .lowEnd, runs: runs, population: Self.population(3, 1))
        #expect(summary.recommended?.window == "5")
        #expect(summary.ranking.map { $0.spread(.weightedStalls).mean } == [32_500_000, 35_000_000])
        #expect(MatrixSummary(profile: .lowEnd, runs: runs).recommended?.window == "20")
        #expect(summary.table().hasPrefix("low-end on test (2 networks): fewest weighted stalls, peak ≤ 1000.0 MiB on each network\n"))
        #expect(summary.table().contains("32.5 (32–33)"))
        #expect(summary.table().contains("stalls 32.5 a seed (32.5–32.5 over 3 seeds)"))
    }

    @Test func theMemoryLimitHoldsOnEveryNetwork() {
        let runs = Self.runs("a", window: "5", stalls: 1) + Self.runs("b", window: "5", stalls: 1, peak: 2 << 30)
            + Self.runs("a", window: "20", stalls: 9) + Self.runs("b", window: "20", stalls: 9)
        #expect(MatrixSummary(profile: .lowEnd, runs: runs, population: Self.population(99, 1)).recommended?.window == "20")
    }

    @Test func aPopulationOfOneNetworkRanksAsThatNetworkAlone() {
        let runs = ["1", "2", "3"].flatMap { seed in
            [(100, "5", 12), (400, "5", 11), (100, "20", 30), (400, "20", 9)].map { limit, window, stalls in
                var run = MatrixSummaryTests.run(Int64(limit), window: window, seed: seed, stalls: Int64(stalls + Int(seed)!))
                run.network = "lte"
                return run
            }
        }
        let alone = MatrixSummary(profile: .lowEnd, runs: runs)
        let population = NetworkPopulation(name: "one", members: [(NetworkProfile.lte, 7, .cellular, "lte")])
        let weighted = MatrixSummary(profile: .lowEnd, runs: runs, population: population)
        #expect(weighted.ranking.map(\.number) == alone.ranking.map(\.number))
        #expect(weighted.equivalentCount == alone.equivalentCount)
        #expect(weighted.recommended?.number == alone.recommended?.number)
    }

    @Test func settingsPerPathAreRecommendedWhenSwitchingBeatsOneSettingBeyondTheNoise() throws {
        // One setting: window 20, 0.5 × 30 + 0.5 × 20 = 25. Switching: Wi-Fi's window 5 (10),
        // cellular's window 20 (20): 15 a seed, 40 % fewer.
        let runs = Self.runs("a", window: "5", stalls: 10) + Self.runs("b", window: "5", stalls: 50)
            + Self.runs("a", window: "20", stalls: 30) + Self.runs("b", window: "20", stalls: 20)
        let summary = PopulationSummary(profile: .lowEnd, runs: runs, population: Self.population(1, 1))
        #expect(summary.overall.recommended?.window == "20")
        #expect(summary.paths.map { $0.summary.recommended?.window } == ["5", "20"])
        let split = try #require(summary.split)
        #expect(split.beatsSingle)
        #expect(split.split == [15_000_000, 15_000_000, 15_000_000])
        #expect(abs(split.saving - 0.4) < 1e-12)
        let table = summary.table()
        #expect(table.contains("""
            Recommended per path (NWPathMonitor), switching when the path changes:
              on wifi (50.0 %): lru, memory cache 0.0 MiB, prefetch window 5
              on cellular (50.0 %): lru, memory cache 0.0 MiB, prefetch window 20
            """))
        #expect(table.split(separator: "\n").allSatisfy { $0.count <= 100 })
        #expect(table.contains("40.0 % fewer weighted stalls than one setting (15 against 25 a seed)"))
        // Each network's own best beside the recommendation's stalls there.
        #expect(summary.networks.map { $0.summary.recommended?.window } == ["5", "20"])
        #expect(summary.networks.map { $0.recommendationHere?.spread(.stalls).mean } == [30, 20])
    }

    @Test func oneSettingServesEveryPathWhenSwitchingGainsLessThanTheNoise() throws {
        // One setting: window 20, 0.5 × 11 + 0.5 × 20 = 15.5; switching (Wi-Fi's window 5, 10)
        // gives 15: half a stall, under the one stall the noise rule allows a count.
        let runs = Self.runs("a", window: "5", stalls: 10) + Self.runs("b", window: "5", stalls: 50)
            + Self.runs("a", window: "20", stalls: 11) + Self.runs("b", window: "20", stalls: 20)
        let summary = PopulationSummary(profile: .lowEnd, runs: runs, population: Self.population(1, 1))
        let split = try #require(summary.split)
        #expect(!split.beatsSingle)
        #expect(summary.table().contains("By path (NWPathMonitor), each path's own best: one setting serves every path\n"))
        #expect(summary.table().contains("  switching would give 15 weighted stalls a seed against 15.5: within the seeds' noise\n"))
        #expect(!summary.table().contains("Recommended per path"))
    }

    @Test func stallRatesAndStallsPerMinuteAreSplitBySession() {
        var runs: [MatrixSummary.Run] = []
        for (trace, stalls, frames) in [("browser", 3, 7_200), ("skimmer", 60, 3_600)] {
            var run = MatrixSummaryTests.run(100, seed: "1", stalls: Int64(stalls))
            run.trace = trace
            run.values[ResultMetric.all.firstIndex { $0.name == "frames" }!] = Int64(frames)
            runs.append(run)
        }
        // 63 stalls over 200 displays; 10,800 frames at 60 Hz = 3 minutes.
        let line = MatrixSummary(profile: .lowEnd, runs: runs).table()
        #expect(line.contains("  31.5 % of displays waited, 21.0 stalls a minute of scrolling\n  by session: browser 3.0 % (1.5/min), skimmer 60.0 % (60.0/min)\n"))
    }
}
