import Testing
@testable import FeedBench

/// Reading results CSVs back: the committed files, quoted identities, and the refusals
/// (schema, repeated identity, malformed cell) with file, line and column.
@Suite struct CompareResultsFileTests {
    func refusal(_ text: String) -> String? {
        do { _ = try ResultsFixtures.file(text); return nil } catch { return "\(error)" }
    }

    @Test func readsEveryCommittedResultsFile() throws {
        // The main job's runs over the population, screened: 4,320 searched each.
        for (profile, rows) in [("low-end", 3420), ("mid", 3520), ("high-end", 3620), ("tablet", 3740)] {
            let file = try ResultsFile.read(path: SharedFiles.packageRoot.appendingPathComponent("results/\(profile).csv").path)
            #expect(file.rows.count == rows)
            #expect(file.rows.allSatisfy { $0.identity[0] == profile && $0.values.count == ResultMetric.all.count })
        }
        let first = try ResultsFixtures.lowEnd().rows[0]
        #expect(first.line == 2 && first.identity("policy") == "lru" && first.identity("trace") == "browser")
        #expect(first.values[ResultMetric.all.firstIndex { $0.name == "stalls" }!] == 114)
    }

    @Test func readsQuotedIdentityCellsAsBenchRunWritesThem() throws {
        var result = RunResult(profile: "mine", network: "lte", policy: "lru", memoryLimitBytes: 1, diskLimitBytes: 2,
                               prefetchWindow: "5", trace: "my, \"own\" trace.csv", seed: 1, launches: 1)
        result.displays = 3
        let file = try ResultsFixtures.file(RunResult.csv([result]).replacingOccurrences(of: "\n", with: "\r\n"))
        #expect(file.rows.count == 1 && file.rows[0].identity("trace") == "my, \"own\" trace.csv")
    }

    @Test func refusesAnotherSchemaNamingTheColumn() {
        let text = ResultsFixtures.lowEndText
        #expect(refusal(text.replacingOccurrences(of: "disk_hits", with: "diskhits"))
            == "new.csv:1: expected the results columns as bench run writes them; column 14 should be \"disk_hits\", found \"diskhits\"")
        #expect(refusal("profile,network\nlow-end,lte\n")?.hasPrefix("new.csv:1: expected the results columns as bench run writes them; found 2 columns, without \"policy\", ") == true)
        #expect(refusal(RunResult.csvHeader + ",extra\n")
            == "new.csv:1: expected the results columns as bench run writes them; found 45 columns, 44 expected, with \"extra\" after the last")
    }

    /// A file written before the `http` column (the third schema:
    /// `Tests/Fixtures/low-end-6-before-http.csv`, six rows of `low-end-48.csv` as they were
    /// written) reads with an empty HTTP version, and compares with a newer file on the other
    /// identity columns; two files that both say it never join runs of different HTTP versions.
    @Test func aFileWithoutTheHTTPColumnReadsAndJoinsOnTheRest() throws {
        let path = SharedFiles.packageRoot.appendingPathComponent("Tests/Fixtures/low-end-6-before-http.csv").path
        let old = try ResultsFile.read(path: path)
        #expect(!old.hasHTTPColumn && old.rows.count == 6 && old.rows.allSatisfy { $0.identity("http") == "" })
        let newer = try ResultsFixtures.lowEnd()
        #expect(newer.hasHTTPColumn && newer.rows.allSatisfy { $0.identity("http") == "1.1" })
        let joined = ResultsComparison.files(base: old, new: newer, rules: .exactMatch()).groups[0]
        #expect(joined.rows.count == 6 && joined.onlyInBase.isEmpty && joined.onlyInNew.count == 42)
        #expect(joined.rows.allSatisfy { $0.verdict == .unchanged })
        let http2 = try ResultsFixtures.file(ResultsFixtures.lowEndText.replacingOccurrences(of: ",1.1,", with: ",2,"))
        let apart = ResultsComparison.files(base: newer, new: http2, rules: .exactMatch()).groups[0]
        #expect(apart.rows.isEmpty && apart.onlyInBase.count == 48 && apart.onlyInNew.count == 48)
    }

    /// A file written before `stall_rate` and `stalls_per_minute` (the fourth schema:
    /// `Tests/Fixtures/low-end-48.csv` as it was written) reads with both absent, its other
    /// figures where they were; the same runs written now carry them, and compare unchanged on
    /// every other column.
    @Test func aFileOfTheFourthSchemaReadsTheColumnsItLacksAsAbsent() throws {
        let old = try ResultsFixtures.lowEnd()
        #expect(ResultsFixtures.lowEndText.hasPrefix(RunResult.schema4Columns.joined(separator: ",") + "\n"))
        let added = ResultMetric.addedInSchema5.map { name in ResultMetric.all.firstIndex { $0.name == name }! }
        #expect(added == [ResultMetric.all.count - 2, ResultMetric.all.count - 1], "the new columns come last")
        #expect(old.rows.allSatisfy { row in added.allSatisfy { row.values[$0] == ResultMetric.absent } })
        // Rewritten in the fifth schema, with the stall rate each row's stalls / displays.
        let stalls = ResultMetric.all.firstIndex { $0.name == "stalls" }!, displays = ResultMetric.all.firstIndex { $0.name == "displays" }!
        let lines = ResultsFixtures.lowEndText.split(separator: "\n").enumerated().map { index, line in
            index == 0 ? RunResult.csvHeader : line + "," + FixedPoint.ratio(old.rows[index - 1].values[stalls], old.rows[index - 1].values[displays], decimals: 6) + ",1.500"
        }
        let newer = try ResultsFixtures.file(lines.joined(separator: "\n") + "\n")
        #expect(newer.rows.contains { $0.values[added[0]] > 0 } && newer.rows.allSatisfy { $0.values[added[1]] == 1_500 })
        let others = ComparisonRules.regressions(metrics: ResultMetric.beforeSchema5)
        #expect(ResultsComparison.files(base: old, new: newer, rules: others).groups[0].rows.allSatisfy { $0.verdict == .unchanged })
        #expect(!ResultMetric.compared.contains { ResultMetric.addedInSchema5.contains($0.name) }, "bench compare leaves them out by default")
        #expect(refusal(lines[0] + "\n" + lines[1].replacingOccurrences(of: ",1.500", with: ",") + "\n")?.contains(":2: stalls_per_minute: expected a non-negative number a minute") == true,
                "a file of this schema must fill them")
    }

    @Test func refusesAFileOfTheFirstSchemaSayingWhy() {
        let header = RunResult.schema1Columns.joined(separator: ",")
        #expect(!header.contains("display_latency"))
        let message = refusal(header + "\n")
        #expect(message?.hasPrefix("new.csv:1: expected the results columns as bench run writes them; found the first results schema, whose stall figures are not comparable") == true)
        #expect(refusal(header + ",sweep_run,sweep_grid\n") == message)
    }

    @Test func refusesAFileOfTheSecondSchemaSayingWhy() {
        let header = RunResult.schema2Columns.joined(separator: ",")
        #expect(header.contains("display_latency") && !header.contains("frames") && !header.contains("hitch"))
        #expect(RunResult.schema2Columns == Array(RunResult.schema3Columns.prefix(RunResult.schema3Columns.count - 5)))
        let message = refusal(header + "\n")
        #expect(message?.hasPrefix("new.csv:1: expected the results columns as bench run writes them; found the second results schema") == true,
                "\(message ?? "accepted")")
        #expect(message?.contains("hitch_time_ms") == true, "it names the columns missing")
        #expect(refusal(header + ",sweep_run,sweep_grid\n") == message, "a sweep's file of the second schema too")
    }

    @Test func anEmptyFirstImageCellIsAbsentAndOnlyThere() throws {
        let result = RunResult(profile: "p", network: "n", policy: "lru", memoryLimitBytes: 1, diskLimitBytes: 1,
                               prefetchWindow: "0", trace: "t", seed: 1, launches: 1)
        #expect(result.firstImageMilliseconds == "")
        let file = try ResultsFixtures.file(RunResult.csv([result]))
        let column = ResultMetric.all.firstIndex { $0.name == "first_image_ms" }!
        #expect(file.rows[0].values[column] == ResultMetric.absent)
        let text = ResultsFixtures.lowEndText
        #expect(refusal(ResultsFixtures.editing(text, line: 3, column: "stall_ms_p95", to: "")) == "new.csv:3: stall_ms_p95: expected a non-negative number of milliseconds with at most 3 decimals, found \"\"")
    }

    @Test func refusesARepeatedIdentityWithBothLines() {
        let lines = ResultsFixtures.lowEndText.split(separator: "\n")
        let text = (lines + [lines[2]]).joined(separator: "\n")
        #expect(refusal(text)?.hasPrefix("new.csv:50: expected one row per identity (profile, network, http, policy, ") == true)
        #expect(refusal(text)?.hasSuffix("found the identity of line 3 again") == true)
    }

    @Test func refusesAMalformedCellWithLineAndColumn() {
        let text = ResultsFixtures.lowEndText
        #expect(refusal(ResultsFixtures.editing(text, line: 4, column: "hit_rate", to: "abc"))
            == "new.csv:4: hit_rate: expected a rate from 0 to 1 with at most 6 decimals, found \"abc\"")
        #expect(refusal(ResultsFixtures.editing(text, line: 7, column: "stalls", to: "3.5"))
            == "new.csv:7: stalls: expected a non-negative integer, found \"3.5\"")
        #expect(refusal(ResultsFixtures.editing(text, line: 9, column: "stall_ms_p95", to: ""))
            == "new.csv:9: stall_ms_p95: expected a non-negative number of milliseconds with at most 3 decimals, found \"\"")
        #expect(refusal(ResultsFixtures.editing(text, line: 2, column: "peak_memory_bytes", to: "-1"))?.hasPrefix("new.csv:2: peak_memory_bytes: ") == true)
    }

    @Test func acceptsAHeaderOnlyFile() throws {
        #expect(try ResultsFixtures.file(RunResult.csvHeader + "\n").rows.isEmpty)
    }
}
