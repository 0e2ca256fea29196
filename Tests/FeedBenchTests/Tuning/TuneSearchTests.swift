@testable import FeedBench
import Foundation
import Testing

/// `bench tune`'s search: successive halving picks what the exhaustive grid picks on the
/// standard matrix; the front holds no dominated candidate; constraints bound every seed.
@Suite struct TuneSearchTests {
    /// The low-end standard matrix (4 policies × 6 windows at the profile's memory limit, browser
    /// and skimmer) over 5 seeds, with 20-second sessions to keep the test quick.
    static let standardSpace: TuneSpace = {
        var grid = SweepGrid()
        grid.profiles = [SweepGrid.Value("low-end", source: "test")]
        grid.seeds = (1...5).map { SweepGrid.Value(String($0), source: "test") }
        grid.session.duration = 20_000_000_000
        return try! TuneSpace(plan: SweepPlan(grid))
    }()

    /// Every candidate of the standard space on every seed, simulated once for the suite.
    static let exhaustive = try! TuneSearchTests().search(standardSpace).run(method: .exhaustive, jobs: 2)

    func standardSpace() -> TuneSpace { Self.standardSpace }

    /// The default bounds of `bench tune --profile low-end`: the warning threshold, no kill.
    static func criteria(_ objective: TuneFigure = .stalls) -> TuneCriteria {
        TuneCriteria(objective: objective,
                     constraints: [TuneConstraint(figure: .peakMemory, atMost: DeviceProfile.lowEnd.memoryWarningBytes),
                                   TuneConstraint(figure: .kills, atMost: 0)])
    }

    func search(_ space: TuneSpace, _ objective: TuneFigure = .stalls) -> TuneSearch {
        TuneSearch(space: space, criteria: Self.criteria(objective))
    }

    @Test func halvingPicksWhatTheExhaustiveGridPicksOnTheStandardMatrix() throws {
        let space = standardSpace()
        #expect(space.candidateCount == 24)
        for objective in [TuneFigure.stalls, .requests] {
            let tuning = search(space, objective)
            let exhaustive = Self.exhaustive
            let halving = try tuning.run(method: .halving, jobs: 2)
            #expect(exhaustive.runs == 24 * 2 * 5)
            #expect(halving.runs < exhaustive.runs)
            let best = TuneReport(profile: .lowEnd, search: tuning, outcome: exhaustive).recommended
            let found = TuneReport(profile: .lowEnd, search: tuning, outcome: halving).recommended
            #expect(best != nil)
            #expect(found?.number == best?.number, "\(objective.name)")
            #expect(found?.samples == best?.samples)
        }
    }

    @Test func theFrontHoldsNoDominatedCandidateAndTheRecommendationIsOnIt() throws {
        let tuning = search(standardSpace())
        let report = TuneReport(profile: .lowEnd, search: tuning, outcome: Self.exhaustive)
        let figures = [TuneFigure.stalls, .peakMemory, .requests]
        for a in report.front {
            for b in report.front where a.number != b.number {
                let pairs = figures.map { (b.spread($0).mean, a.spread($0).mean) }
                #expect(!(pairs.allSatisfy { $0.0 <= $0.1 } && pairs.contains { $0.0 < $0.1 }))
            }
        }
        #expect(report.recommended?.number == report.front.first?.number)
        #expect(report.recommended?.samples.count == 5)
        #expect(report.table.contains("\nRecommended: "))
        #expect(report.csv.split(separator: "\n").count == report.front.count + 1)
    }

    @Test func aConstraintNoCandidateMeetsLeavesNoRecommendation() throws {
        let tuning = TuneSearch(space: standardSpace(),
                                criteria: TuneCriteria(objective: .stalls, constraints: [TuneConstraint(figure: .peakMemory, atMost: 1 << 20)]))
        let report = TuneReport(profile: .lowEnd, search: tuning, outcome: try tuning.run(method: .halving, jobs: 2))
        #expect(report.recommended == nil && report.front.isEmpty)
        #expect(report.table.contains("Recommended: none"))
    }

    @Test func constraintsParseWithUnits() throws {
        let memory = try TuneConstraint.parse("peak_memory<=300MB", source: "--constraint")
        let bytes = try Quantities.byteCount("300MB", source: "t")
        #expect(memory.figure == .peakMemory && memory.bound == bytes && !memory.strict)
        let p95 = try TuneConstraint.parse("stall_p95<250ms", source: "--constraint")
        #expect(p95.figure == .stallP95 && p95.bound == 250_000 && p95.strict)
        var sample = TuneSample()
        sample.stallP95 = 250_000
        #expect(!p95.admits(sample))
        sample.stallP95 = 249_999
        #expect(p95.admits(sample))
        for bad in ["peak_memory", "peak_memory<=", "speed<=3", "stalls<=-1", "stall_p95<=fast"] {
            #expect(throws: InputError.self) { try TuneConstraint.parse(bad, source: "--constraint") }
        }
    }

    /// The progress a terminal shows: runs done never past the runs expected, both ending at
    /// the runs simulated, for either method.
    @Test(arguments: [TuneMethod.exhaustive, .halving])
    func progressCountsUpToTheRunsSimulated(method: TuneMethod) throws {
        var grid = SweepGrid()
        grid.profiles = [SweepGrid.Value("low-end", source: "test")]
        grid.policies = ["lru", "fifo"].map { SweepGrid.Value($0, source: "test") }
        grid.windows = ["0", "20"].map { SweepGrid.Value($0, source: "test") }
        grid.behaviors = [SweepGrid.Value("browser", source: "test")]
        grid.seeds = (1...3).map { SweepGrid.Value(String($0), source: "test") }
        grid.session.duration = 5_000_000_000
        var reports: [(done: Int, expected: Int)] = []
        let outcome = try search(TuneSpace(plan: SweepPlan(grid))).run(method: method, jobs: 2) { reports.append(($0, $1)) }
        #expect(!reports.isEmpty && reports.allSatisfy { $0.done <= $0.expected })
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.done <= $1.done })
        #expect(reports.last?.done == outcome.runs && reports.last?.expected == outcome.runs)
    }
}

/// `bench tune --networks`: over a population each network's runs count by its share, so the
/// search ranks exactly as the main job's summary ranks the same runs.
@Suite struct TunePopulationTests {
    /// The phones' population and a small plan over it: low-end × its five networks × lru,
    /// fifo × windows 0, 20 × seeds 1, 2, sessions of `seconds`.
    static func phonesPlan(seconds: Int64) throws -> (NetworkPopulation, SweepPlan) {
        let population = try #require(try NetworkPopulation.builtIn(named: "phones", source: "test"))
        var grid = SweepGrid()
        grid.profiles = [SweepGrid.Value("low-end", source: "test")]
        grid.networks = population.members.map { SweepGrid.Value($0.reference, source: "test") }
        grid.policies = ["lru", "fifo"].map { SweepGrid.Value($0, source: "test") }
        grid.windows = ["0", "20"].map { SweepGrid.Value($0, source: "test") }
        grid.seeds = ["1", "2"].map { SweepGrid.Value($0, source: "test") }
        grid.session.duration = seconds * 1_000_000_000
        return (population, try SweepPlan(grid))
    }

    @Test func overAPopulationEachNetworkCountsByItsShareAsTheMainJobRanks() throws {
        let (population, plan) = try Self.phonesPlan(seconds: 10)
        let criteria = MatrixSummary.criteria(for: .lowEnd, weighted: true)
        let outcome = try TuneSearch(space: TuneSpace(plan: plan, population: population), criteria: criteria).run(method: .exhaustive, jobs: 2)
        #expect(outcome.runs == plan.configurations.count && outcome.runs == 5 * 2 * 2 * 2 * 2)

        let summary = MatrixSummary(profile: .lowEnd, results: try RunBatch.run(plan.configurations, jobs: 2), population: population)
        let (ranked, _) = criteria.ranking(outcome.candidates)
        #expect(ranked.map { [$0.policy, $0.window] } == summary.ranking.map { [$0.policy, $0.window] })
        #expect(ranked.map { $0.spread(.weightedStalls).mean } == summary.ranking.map { $0.spread(.weightedStalls).mean })
        // Not the plain sum: the networks' shares moved the stalls.
        #expect(ranked.contains { $0.spread(.weightedStalls).mean != $0.spread(.stalls).mean * Double(NetworkPopulation.wholeWeight) })
    }

    /// `bench tune --results FILE --networks`: the population's runs read back from a sweep give
    /// exactly the samples tune gets by simulating them, each network weighted by its share; a
    /// population with a network the file lacks is refused, naming it.
    @Test(.scratchFolder) func aPopulationsRunsReadBackScoreAsSimulated() throws {
        let (population, plan) = try Self.phonesPlan(seconds: 5)
        let criteria = MatrixSummary.criteria(for: .lowEnd, weighted: true)
        let simulated = try TuneSearch(space: TuneSpace(plan: plan, population: population), criteria: criteria).run(method: .exhaustive, jobs: 2)
        let path = try SharedFiles.scratchDirectory().appendingPathComponent("phones.csv").path
        _ = try SweepJob(plan: plan, destination: path).run(jobs: 2, resume: false)
        let file = try ResultsFile.read(path: path)
        let read = try TuneResults([file], profile: nil, network: nil, population: population)
        #expect(read.network == "phones" && read.runs == simulated.runs)
        #expect(read.candidates.map { [$0.policy, $0.window] } == simulated.candidates.map { [$0.policy, $0.window] })
        #expect(read.candidates.map(\.samples) == simulated.candidates.map(\.samples))
        // By hand: the first candidate's weighted stalls on seed 1 are each network's stalls
        // there (both sessions) times its share.
        let rows = try ReportRows([file]).rows.filter { $0.policy == read.candidates[0].policy && $0.window == read.candidates[0].window && $0.identity[ReportRows.seed] == "1" }
        let byHand = population.members.map { member in
            member.weight * rows.filter { $0.identity[ReportRows.network] == member.network.name }.map { $0.value("stalls") }.reduce(0, +)
        }.reduce(0, +)
        #expect(read.candidates[0].samples[0].weightedStalls == byHand)

        let other = NetworkPopulation(name: "wifi-and-3g", members: [(try NetworkProfile.named("wifi"), 0.5, .wifi, "wifi"),
                                                                     (try NetworkProfile.named("3g"), 0.5, .cellular, "3g")])
        #expect {
            try TuneResults([file], profile: nil, network: nil, population: other)
        } throws: { "\($0)".contains("expected runs on every network of wifi-and-3g, found none on \"3g\"") }
    }

    /// `bench tune --results` over a screened main job: the configurations screened out on the
    /// first seed are left out and counted, the others are tuned on every seed, and the
    /// recommendation is the main job's; a configuration missing a seed otherwise is refused.
    @Test(.scratchFolder) func aScreenedMainJobIsTunedOverWhatItRanOnEverySeed() throws {
        let (population, plan) = try Self.phonesPlan(seconds: 5)
        let criteria = MatrixSummary.criteria(for: .lowEnd, weighted: true)
        let results = try ScreenedSearch.run(plan, criteria: criteria, weights: population.weights, jobs: 2)
        let path = try SharedFiles.scratchDirectory().appendingPathComponent("main-job.csv").path
        try RunResult.csv(results).write(toFile: path, atomically: true, encoding: .utf8)
        let read = try TuneResults([try ResultsFile.read(path: path)], profile: nil, network: nil, population: population)
        let everySeed = Set(results.filter { $0.seed == 2 }.map { "\($0.policy) \($0.prefetchWindow)" })
        #expect(read.screenedOut > 0 && read.screenedOut + everySeed.count == 4)
        #expect(Set(read.candidates.map { "\($0.policy) \($0.window)" }) == everySeed)
        #expect(read.candidates.allSatisfy { $0.samples.count == 2 })
        let tuned = TuneReport(profile: .lowEnd, criteria: criteria, candidates: read.candidates, seeds: 2, origin: "test").recommended
        let answer = try #require(MatrixSummary(profile: .lowEnd, results: results, population: population).recommended)
        #expect(tuned.map { [$0.policy, String($0.memoryLimitBytes), $0.window] } == [answer.policy, String(answer.memoryLimitBytes), answer.window])

        // One run row of a fully run configuration gone: not a screened shape, refused.
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let seedColumn = RunResult.identityIndex("seed")
        let gone = try #require(lines.lastIndex { $0.split(separator: ",", omittingEmptySubsequences: false).dropFirst(seedColumn).first == "2" })
        try (lines[..<gone] + lines[(gone + 1)...]).joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        #expect {
            try TuneResults([try ResultsFile.read(path: path)], profile: nil, network: nil, population: population)
        } throws: { "\($0)".contains("expected a row for every workload and seed the other configurations have") }
    }

    @Test func severalNetworksWithoutAPopulationAreRefused() throws {
        var grid = SweepGrid()
        grid.profiles = [SweepGrid.Value("low-end", source: "test")]
        grid.networks = ["wifi", "lte"].map { SweepGrid.Value($0, source: "test") }
        #expect(throws: InputError.self) { try TuneSpace(plan: SweepPlan(grid)) }
        let other = try #require(try NetworkPopulation.builtIn(named: "tablets", source: "test"))
        grid.networks.append(SweepGrid.Value("3g", source: "test"))
        #expect {
            try TuneSpace(plan: SweepPlan(grid), population: other)
        } throws: { "\($0)".contains("expected the population's networks, found \"") }
    }
}
