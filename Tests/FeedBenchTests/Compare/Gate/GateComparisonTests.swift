import Foundation
import Testing
@testable import FeedBench

/// `bench compare`'s gate: configurations (a row's identity less its seed) compared on their
/// means over the seeds, a change counted only beyond its tolerance and the seeds' noise, the
/// gated checks the ranking's, and each profile's answer before and after.
@Suite struct GateComparisonTests {
    /// The committed low-end standard matrix: 288 configurations × seeds 1, 2, 3.
    static let lowEndText: String = try! String(contentsOfFile: SharedFiles.packageRoot.appendingPathComponent("Tests/Fixtures/low-end-lte.csv").path,
                                                encoding: .utf8)

    static func file(_ text: String, _ name: String) throws -> ResultsFile {
        try ResultsFile(CSVTable(parsing: Array(text.utf8), source: name))
    }

    /// `text` with `column` of every row `matching` changed by `change` (its old value → new).
    static func editing(_ text: String, column: String, where matching: ([String]) -> Bool, _ change: (Int64) -> Int64) -> String {
        let header = text.prefix { $0 != "\n" }.split(separator: ",").map(String.init)
        let index = header.firstIndex(of: column)!
        return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { number, line in
            guard number > 0, !line.isEmpty else { return String(line) }
            var cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard matching(cells) else { return String(line) }
            cells[index] = String(change(Int64(cells[index])!))
            return cells.joined(separator: ",")
        }.joined(separator: "\n")
    }

    static func cell(_ cells: [String], _ column: String) -> String { cells[RunResult.identityIndex(column)] }

    /// lru at the smallest cache, window 20, browser: one configuration.
    static func oneConfiguration(_ cells: [String]) -> Bool {
        cell(cells, "policy") == "lru" && cell(cells, "memory_limit_bytes") == "14745600" && cell(cells, "prefetch_window") == "20"
            && cell(cells, "trace") == "browser"
    }

    @Test func theSameFilePassesWithEveryConfigurationUnchanged() throws {
        let base = try Self.file(Self.lowEndText, "base.csv")
        let comparison = try GateComparison.files(base: base, new: base, rules: GateRules())
        #expect(comparison.pairs.count == 288 && comparison.seeds == ["1", "2", "3"] && !comparison.fails)
        #expect(comparison.pairs.allSatisfy { $0.gatedVerdict == .unchanged && $0.changes.allSatisfy { $0.verdict == .unchanged } })
        #expect(comparison.answers.count == 1 && comparison.answers[0].verdict == .unchanged && !comparison.answers[0].changed)
        #expect(comparison.conditions.isEmpty)
    }

    /// One configuration's stalls up by a third on every seed: beyond the 5 % tolerance and the
    /// seeds' noise, a regression the gate names; the same moved within the seeds' range is not.
    @Test func aGatedMetricWorseBeyondToleranceAndNoiseFailsAndWithinTheSeedsRangeNever() throws {
        let base = try Self.file(Self.lowEndText, "base.csv")
        let worse = try Self.file(Self.editing(Self.lowEndText, column: "stalls", where: Self.oneConfiguration) { $0 + $0 / 3 + 5 }, "new.csv")
        let failing = try GateComparison.files(base: base, new: worse, rules: GateRules())
        let moved = failing.pairs.filter { $0.gatedVerdict == .worse }
        #expect(moved.count == 1 && failing.fails)
        let stalls = try #require(moved.first?.changes.first { $0.metric.name == "stalls" })
        #expect(stalls.gated && stalls.verdict == .worse && (stalls.relative ?? 0) > 0.3)
        // Each seed's stalls swapped for another seed's of the same configuration: the mean moves
        // within the seeds' spread.
        let rows = Self.lowEndText.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let column = RunResult.columns.firstIndex(of: "stalls")!
        let values = rows.filter(Self.oneConfiguration).map { Int64($0[column])! }
        let (low, high) = (values.min()!, values.max()!)
        #expect(low < high, "the configuration's seeds differ: \(values)")
        let shuffled = try Self.file(Self.editing(Self.lowEndText, column: "stalls", where: Self.oneConfiguration) { $0 == low ? high : $0 }, "new.csv")
        let within = try GateComparison.files(base: base, new: shuffled, rules: GateRules())
        #expect(!within.fails, "\(within.pairs.filter { $0.gatedVerdict == .worse }.count) worse")
        let change = try #require(within.pairs.flatMap(\.changes).first { $0.metric.name == "stalls" && $0.verdict != .unchanged })
        #expect(change.verdict == .withinNoise)
    }

    /// An ungated metric is reported and never fails unless `--gate` names it.
    @Test func anUngatedMetricFailsOnlyWhenNamed() throws {
        let base = try Self.file(Self.lowEndText, "base.csv")
        let more = try Self.file(Self.editing(Self.lowEndText, column: "bytes_downloaded", where: Self.oneConfiguration) { $0 * 2 }, "new.csv")
        let reported = try GateComparison.files(base: base, new: more, rules: GateRules())
        #expect(!reported.fails)
        #expect(reported.pairs.flatMap(\.changes).contains { $0.metric.name == "bytes_downloaded" && $0.verdict == .worse && !$0.gated })
        let gated = try GateComparison.files(base: base, new: more, rules: GateRules(gate: try GateRules.parseGate("bytes_downloaded", source: "--gate")))
        #expect(gated.fails)
    }

    /// Every configuration made worse (a third more stalls on every seed): the recommendation's
    /// own stalls are worse, a regression of the answer, which fails `--gate-answer` too; one
    /// configuration far from the answer made worse fails the gate but not `--gate-answer`.
    @Test func aRegressionOfTheRecommendationFailsGateAnswer() throws {
        let base = try Self.file(Self.lowEndText, "base.csv")
        let everywhere = try Self.file(Self.editing(Self.lowEndText, column: "stalls", where: { _ in true }) { $0 + $0 / 3 + 5 }, "new.csv")
        let answerOnly = try GateComparison.files(base: base, new: everywhere, rules: GateRules(answerOnly: true))
        let answer = try #require(answerOnly.answers.first)
        #expect(answer.verdict == .worse && answerOnly.fails, "\(GateReport.answerLine(answer))")
        #expect(GateReport.conclusion(answerOnly).hasPrefix("gate: FAIL — the answer got worse (low-end)"))
        let elsewhere = try Self.file(Self.editing(Self.lowEndText, column: "stalls", where: Self.oneConfiguration) { $0 * 3 + 100 }, "new.csv")
        #expect(try GateComparison.files(base: base, new: elsewhere, rules: GateRules()).fails)
        let notTheAnswer = try GateComparison.files(base: base, new: elsewhere, rules: GateRules(answerOnly: true))
        #expect(!notTheAnswer.fails && notTheAnswer.answers.first?.verdict == .unchanged)
    }

    /// A column with one value in each file but another in each (here `http`) is what changed:
    /// the configurations are joined on the rest, and the report says so.
    @Test func aColumnChangedInEveryRowIsNamedAndLeftOutOfTheJoin() throws {
        let base = try Self.file(Self.lowEndText, "base.csv")
        let http11 = try Self.file(Self.lowEndText.replacingOccurrences(of: "\nlow-end,lte,2,", with: "\nlow-end,lte,1.1,"), "new.csv")
        let comparison = try GateComparison.files(base: base, new: http11, rules: GateRules())
        #expect(comparison.conditions.map(\.column) == ["http"] && comparison.conditions[0].base == "2" && comparison.conditions[0].new == "1.1")
        #expect(comparison.pairs.count == 288 && !comparison.fails)
        #expect(GateReport.render(comparison, as: .table).contains("\nchanged in every row: http 2 → 1.1\n"))
    }

    /// A file written before the `http` column (every row's `http` empty) pairs with a newer one
    /// of the same runs: the column is what changed, `(none)` → 1.1, and nothing else moved.
    @Test func aFileWithoutTheHTTPColumnPairsWithANewerOne() throws {
        let old = try ResultsFile.read(path: SharedFiles.packageRoot.appendingPathComponent("Tests/Fixtures/low-end-6-before-http.csv").path)
        let comparison = try GateComparison.files(base: old, new: try ResultsFixtures.lowEnd(), rules: GateRules())
        #expect(comparison.conditions.map(\.column) == ["http"] && comparison.conditions[0].base == "" && comparison.conditions[0].new == "1.1")
        #expect(comparison.pairs.count == 6 && comparison.onlyInNew.count == 42 && !comparison.fails)
        #expect(comparison.pairs.allSatisfy { $0.changes.allSatisfy { $0.verdict == .unchanged } })
        #expect(GateReport.render(comparison, as: .table).contains("\nchanged in every row: http (none) → 1.1\n"))
    }

    /// Two screened main jobs ran every seed for different configurations: a pair with fewer
    /// seeds on a side is compared on the seeds both ran, so the same runs compare unchanged.
    @Test func fewerSeedsOnASideCompareOnTheSeedsBothRan() throws {
        let base = try Self.file(Self.lowEndText, "base.csv")
        let fewer = try Self.file(Self.withSeeds(Self.lowEndText) { $0 != "3" }, "new.csv")
        let comparison = try GateComparison.files(base: base, new: fewer, rules: GateRules())
        #expect(comparison.onCommonSeeds == comparison.pairs.count && !comparison.fails)
        #expect(comparison.pairs.allSatisfy { $0.changes.allSatisfy { $0.verdict == .unchanged } })
        let back = try GateComparison.files(base: fewer, new: base, rules: GateRules())
        #expect(back.onCommonSeeds == back.pairs.count && back.pairs.allSatisfy { $0.changes.allSatisfy { $0.verdict == .unchanged } })
    }

    /// A main job over a population answers by its weighted stalls, as `bench run` ranks: the
    /// answer's first figure is theirs (in thousandths), not the networks' plain sum.
    @Test func aPopulationsAnswerIsHeldToItsWeightedStalls() throws {
        let path = SharedFiles.packageRoot.appendingPathComponent("results/low-end.csv").path
        let file = try ResultsFile.read(path: path)
        let comparison = try GateComparison.files(base: file, new: file, rules: GateRules())
        let answer = try #require(comparison.answers.first)
        let stalls = try #require(answer.changes.first)
        #expect(stalls.metric == .weightedStalls && stalls.verdict == .unchanged)
        let summary = MatrixSummary(profile: .lowEnd, runs: try ReportRows([file]).rows.map(\.summaryRun),
                                    population: try NetworkPopulation.builtIn(named: "phones", source: "test"))
        let best = try #require(summary.recommended)
        #expect(answer.before?.policy == best.policy && answer.before?.window == best.window && answer.before?.imageWidth == 750)
        #expect(abs((stalls.base?.mean ?? 0) * 1_000 - best.spread(.weightedStalls).mean) < 500 * 3, "thousandths, rounded per seed")
        #expect(GateReport.render(comparison, as: .table).contains("\n    weighted_stalls 39.7 (35.8–43.3) → 39.7 (35.8–43.3), 0.0 %, unchanged (±5 %)\n"))
    }

    @Test func runsOfOtherSeedsAreRefusedSayingWhich() throws {
        let base = try Self.file(Self.withSeeds(Self.lowEndText) { $0 != "3" }, "base.csv")
        let other = try Self.file(Self.withSeeds(Self.lowEndText) { $0 == "3" }, "new.csv")
        #expect {
            _ = try GateComparison.files(base: base, new: other, rules: GateRules())
        } throws: { error in
            "\(error)".hasPrefix("new.csv:2: expected a seed of base.csv:2 (1, 2) for the same configuration, found 3")
        }
    }

    /// `text` with only the runs whose seed `keeps` (and the header).
    static func withSeeds(_ text: String, _ keeps: (Substring) -> Bool) -> String {
        let seed = RunResult.identityIndex("seed")
        return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().filter { index, line in
            let cells = line.split(separator: ",", omittingEmptySubsequences: false)
            return index == 0 || cells.count <= seed || keeps(cells[seed])
        }.map(\.element).joined(separator: "\n")
    }

    @Test func theGateListIsCheckedAndMemoryLimitIsOneOfIt() throws {
        #expect(try GateRules.parseGate("stalls,memory_limit", source: "--gate") == [.metric(ResultMetric.all.first { $0.name == "stalls" }!), .memoryLimit])
        for (text, message) in [("stall", "unknown"), ("displays", "informational"), ("stalls,stalls", "twice")] {
            #expect {
                _ = try GateRules.parseGate(text, source: "--gate")
            } throws: { error in
                let said = "\(error)"
                return said.hasPrefix("--gate: expected ") && (message == "twice" ? said.contains("twice") : said.contains("found \"\(text)\""))
            }
        }
    }

    /// GitHub's workflow commands: `::error title=…::message`, `%`, line ends escaped, and in a
    /// property `:` and `,` too.
    @Test func annotationsAreGitHubsWorkflowCommands() {
        #expect(GateReport.command("error", title: "bench compare: worse", message: "stalls 10 % up\nagain")
            == "::error title=bench compare%3A worse::stalls 10 %25 up%0Aagain")
        #expect(GateReport.command("notice", title: "a, b", message: "c: d") == "::notice title=a%2C b::c: d")
    }

    /// A report line folded to 100 columns keeps its words in order, indents what follows by 4
    /// more than its first line, and only a word wider than the line ever passes the width: over
    /// 200 seeds of random words and indents.
    @Test func aLongLineFoldsAtSpacesKeepingItsWords() {
        for seed in 0..<200 as Range<UInt64> {
            var random = SeededGenerator(seed: seed)
            let indent = String(repeating: " ", count: Int(random.next() % 6))
            let words = (0..<Int(random.next() % 40)).map { _ in String(repeating: "w", count: 1 + Int(random.next() % (random.next() % 8 == 0 ? 120 : 15))) }
            let line = indent + words.joined(separator: " ")
            let folded = GateReport.fold(line)
            #expect(folded.flatMap { $0.split(separator: " ").map(String.init) } == words, "seed \(seed)")
            #expect(folded.first.map { $0.hasPrefix(indent) } == true, "seed \(seed)")
            for next in folded.dropFirst() {
                #expect(next.hasPrefix(indent + "    ") && !next.hasPrefix(indent + "     "), "seed \(seed)")
            }
            #expect(folded.allSatisfy { $0.count <= 100 || !$0.trimmingCharacters(in: .whitespaces).contains(" ") }, "seed \(seed)")
            #expect(line.count > 100 || folded == [line], "seed \(seed)")
        }
    }
}
