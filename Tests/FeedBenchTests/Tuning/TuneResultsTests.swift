@testable import FeedBench
import Foundation
import TestSupport
import Testing

/// `bench tune --results`: a sweep's rows read back give exactly the samples, front and
/// recommendation the search gets by simulating the same grid; aggregate rows are checked, not
/// counted; files that cannot be scored fairly are refused with the line that shows why.
@Suite(.scratchFolder) struct TuneResultsTests {
    /// low-end × lru, fifo × windows 0, 20 × browser, skimmer × seeds 1–3, 5-second sessions:
    /// 24 runs, 4 candidates, each followed by its mean, min and max rows per workload.
    static let smallSweep: String = {
        var grid = SweepGrid()
        grid.profiles = [SweepGrid.Value("low-end", source: "test")]
        grid.policies = ["lru", "fifo"].map { SweepGrid.Value($0, source: "test") }
        grid.windows = ["0", "20"].map { SweepGrid.Value($0, source: "test") }
        grid.behaviors = ["browser", "skimmer"].map { SweepGrid.Value($0, source: "test") }
        grid.seeds = ["1", "2", "3"].map { SweepGrid.Value($0, source: "test") }
        grid.session.duration = 5_000_000_000
        let path = try! SharedFiles.scratchDirectory().appendingPathComponent("small.csv").path
        _ = try! SweepJob(plan: SweepPlan(grid), destination: path).run(jobs: 2, resume: false)
        return try! String(contentsOfFile: path, encoding: .utf8)
    }()

    func results(_ texts: [String], profile: String? = nil, network: String? = nil) throws -> TuneResults {
        let files = try texts.enumerated().map { number, text in
            try ResultsFile(CSVTable(parsing: Array(text.utf8), source: "f\(number + 1).csv"))
        }
        return try TuneResults(files, profile: profile, network: network)
    }

    /// The refusal `body` throws.
    func refusal(_ body: () throws -> Void) -> InputError? {
        do {
            try body()
            return nil
        } catch {
            return error as? InputError
        }
    }

    /// The small sweep's lines with `edit` applied (line 1 is the header).
    func edited(_ edit: (inout [String]) -> Void) -> String {
        var lines = Self.smallSweep.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        edit(&lines)
        return lines.joined(separator: "\n")
    }

    @Test func aSweepReadBackRecommendsExactlyWhatTheSearchFindsBySimulating() throws {
        let space = TuneSearchTests.standardSpace
        let path = try SharedFiles.scratchDirectory().appendingPathComponent("standard.csv").path
        _ = try SweepJob(plan: space.plan, destination: path).run(jobs: 2, resume: false)
        let read = try TuneResults([ResultsFile.read(path: path)], profile: nil, network: nil)
        let simulated = TuneSearchTests.exhaustive
        #expect(read.profile == "low-end" && read.network == "lte")
        #expect(read.seeds == ["1", "2", "3", "4", "5"] && read.workloads == ["browser", "skimmer"])
        #expect(read.runs == simulated.runs)
        #expect(read.candidates.map(\.policy) == simulated.candidates.map(\.policy))
        #expect(read.candidates.map(\.memoryLimitBytes) == simulated.candidates.map(\.memoryLimitBytes))
        #expect(read.candidates.map(\.window) == simulated.candidates.map(\.window))
        #expect(read.candidates.map(\.strategy) == simulated.candidates.map(\.strategy))
        #expect(read.candidates.map(\.samples) == simulated.candidates.map(\.samples))
        for objective in [TuneFigure.stalls, .requests] {
            let criteria = TuneSearchTests.criteria(objective)
            let fromFile = TuneReport(profile: .lowEnd, criteria: criteria, candidates: read.candidates, seeds: 5, origin: "read")
            let bySearch = TuneReport(profile: .lowEnd, search: TuneSearch(space: space, criteria: criteria), outcome: simulated)
            #expect(fromFile.recommended != nil)
            #expect(fromFile.recommended?.number == bySearch.recommended?.number)
            #expect(fromFile.csv == bySearch.csv)
        }
    }

    @Test func aggregateRowsAreCheckedNotCounted() throws {
        let read = try results([Self.smallSweep])
        #expect(read.candidates.count == 4 && read.seeds == ["1", "2", "3"] && read.runs == 24)
        #expect(read.candidates.allSatisfy { $0.samples.count == 3 })
        // Line 5 is the first configuration's mean row; its stalls cell changed by one.
        let stallsColumn = RunResult.columns.firstIndex(of: "stalls")!
        let tampered = edited { lines in
            var cells = lines[4].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            #expect(cells[RunResult.identityIndex("seed")] == "mean")
            cells[stallsColumn] = String(Int(cells[stallsColumn])! + 1)
            lines[4] = cells.joined(separator: ",")
        }
        let error = refusal { _ = try results([tampered]) }
        #expect(error?.source == "f1.csv" && error?.line == 5 && error?.field == "stalls")
        #expect(error?.message.contains("the mean of this configuration's 3 seed rows") == true)
    }

    @Test func aConfigurationWithAggregateRowsOnlyIsRefused() throws {
        // Lines 2–4 are the first configuration's seed rows, 5–7 its aggregates.
        let error = refusal { _ = try results([edited { $0.removeSubrange(1...3) }]) }
        #expect(error?.line == 2 && error?.field == "seed")
        #expect(error?.message.hasPrefix("expected the seed rows this mean row summarises") == true)
    }

    @Test func aMissingSeedRowIsRefusedNamingWhatIsMissing() throws {
        // Line 3 is lru, window 0, browser, seed 2; its aggregates go too.
        let error = refusal { _ = try results([edited { $0.removeSubrange(1...6) }]) }
        #expect(error?.message.contains("has none for browser seed 1") == true, "\(String(describing: error))")
        let seedTwo = refusal { _ = try results([edited { $0.removeSubrange(4...6); $0.remove(at: 2) }]) }
        #expect(seedTwo?.message.contains("lru, memory limit 471859200, window 0, cacheFirst has none for browser seed 2") == true,
                "\(String(describing: seedTwo))")
    }

    @Test func theProfileAndNetworkArePickedWhenTheFilesHoldSeveral() throws {
        // The same rows again as another profile (aggregates dropped): two profiles.
        let header = Self.smallSweep.prefix { $0 != "\n" }
        let renamed = Self.smallSweep.split(separator: "\n").dropFirst()
            .filter { !$0.contains(",mean,") && !$0.contains(",min,") && !$0.contains(",max,") }
            .map { $0.replacingOccurrences(of: "low-end,", with: "mid,") }
        let other = ([String(header)] + renamed).joined(separator: "\n") + "\n"
        let error = refusal { _ = try results([Self.smallSweep, other]) }
        #expect(error?.source == "--profile")
        #expect(error?.message == "expected the profile to tune for: the results hold several (\"low-end\", \"mid\")")
        let mid = try results([Self.smallSweep, other], profile: "mid")
        let lowEnd = try results([Self.smallSweep, other], profile: "low-end")
        #expect(mid.profile == "mid" && mid.runs == 24)
        #expect(mid.candidates.map(\.samples) == lowEnd.candidates.map(\.samples))
        let unknown = refusal { _ = try results([Self.smallSweep], profile: "tablet") }
        #expect(unknown?.message == "expected a profile the results hold (\"low-end\"), found \"tablet\"")
        let network = refusal { _ = try results([Self.smallSweep], network: "3g") }
        #expect(network?.source == "--network")
    }

    @Test func aRunInTwoFilesIsRefused() throws {
        let error = refusal { _ = try results([Self.smallSweep, Self.smallSweep]) }
        #expect(error?.source == "f2.csv" && error?.line == 2)
        #expect(error?.message == "expected each run once across the results files, found the identity of f1.csv:2 again")
    }

    @Test func rowsWithAnotherDiskLimitAreRefused() throws {
        let diskColumn = RunResult.columns.firstIndex(of: "disk_limit_bytes")!
        let error = refusal {
            _ = try results([edited { lines in
                for line in 1..<lines.count where !lines[line].isEmpty {
                    var cells = lines[line].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                    if cells[RunResult.identityIndex("policy")] == "fifo" { cells[diskColumn] = "1" }
                    lines[line] = cells.joined(separator: ",")
                }
            }])
        }
        #expect(error?.field == "disk_limit_bytes")
        #expect(error?.message.hasPrefix("expected one disk limit across the rows tuned (157286400, as on f1.csv:2)") == true)
    }

    @Test func aFileWithoutRunsIsRefused() throws {
        let header = String(Self.smallSweep.prefix { $0 != "\n" }) + "\n"
        let error = refusal { _ = try results([header]) }
        #expect(error?.source == "f1.csv" && error?.message == "expected run rows (one per run and seed) to tune over, found none")
    }
}

/// On the standard matrix on one network (the low-end phone's on lte, every seed of every
/// configuration: `Tests/Fixtures/low-end-lte.csv`), tune over the results file recommends exactly
/// what the main job's summary recommends: one ranking rule, two tools.
@Suite struct TuneAgreesWithTheMainJobTests {
    @Test func tuneOverTheStandardMatrixRecommendsWhatBenchRunDoes() throws {
        let profile = DeviceProfile.lowEnd
        let file = try ResultsFile.read(path: SharedFiles.packageRoot.appendingPathComponent("Tests/Fixtures/low-end-lte.csv").path)
        let runs = try ReportRows([file]).rows.map(\.summaryRun)
        let main = try #require(MatrixSummary(profile: profile, runs: runs).recommended)
        let read = try TuneResults([file], profile: nil, network: nil)
        let report = TuneReport(profile: profile, criteria: TuneCriteria(objective: .stalls, constraints: [
            TuneConstraint(figure: .peakMemory, atMost: profile.memoryWarningBytes), TuneConstraint(figure: .kills, atMost: 0),
        ]), candidates: read.candidates, seeds: read.seeds.count, origin: "read")
        let tuned = try #require(report.recommended)
        #expect([tuned.policy, String(tuned.memoryLimitBytes), tuned.window] == [main.policy, String(main.memoryLimitBytes), main.window])
    }
}
