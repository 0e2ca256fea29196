import Testing
@testable import FeedBench

/// The three report forms: the terminal table (changed rows only, ≤ 100 columns), Markdown
/// for a pull-request comment, and CSV with every compared metric.
@Suite struct CompareReportTests {
    let comparison: ResultsComparison

    /// One worse, one better, one within tolerance, one row only in base, one only in new.
    init() throws {
        let text = ResultsFixtures.lowEndText
        var new = ResultsFixtures.editing(text, line: 4, column: "hit_rate", to: "0.955217")
        new = ResultsFixtures.editing(new, line: 6, column: "stalls", to: "1")
        new = ResultsFixtures.editing(new, line: 8, column: "bytes_downloaded", to: "31976013")
        new = ResultsFixtures.removing(line: 11, from: new)
        new += ResultsFixtures.editing(String(text.split(separator: "\n")[1]), line: 1, column: "prefetch_window", to: "99") + "\n"
        comparison = .files(base: try ResultsFixtures.lowEnd(), new: try ResultsFixtures.file(new), rules: .regressions())
    }

    @Test func theTableListsMovedRowsMostNotableFirstThenOneSidedRowsAndASummary() {
        let report = ComparisonReport.render(comparison, as: .table)
        let lines = report.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "base: \(ResultsFixtures.lowEndPath)" && lines[1] == "new:  new.csv")
        #expect(lines[2] == "every row: profile=low-end network=lte http=1.1 memory_limit_bytes=471859200")
        #expect(lines[3] == "  disk_limit_bytes=157286400 seed=1 launches=1 scenario=cacheFirst")
        #expect(Array(lines[5...]) == [
            "worse: policy=lru prefetch_window=5 trace=browser",
            "  hit_rate            0.964912 →   0.955217   -0.009695   -1.0 %  worse   (±0.005000)",
            "better: policy=lru prefetch_window=10 trace=browser",
            "  stalls                     4 →          1          -3  -75.0 %  better  (±5 %)",
            "within tolerance: policy=lru prefetch_window=20 trace=browser",
            "  bytes_downloaded  30.193 MiB → 30.495 MiB  +0.302 MiB   +1.0 %  within  (±5 %)",
            "only in base: policy=lru prefetch_window=30 trace=skimmer (line 11)",
            "only in new: policy=lru prefetch_window=99 trace=browser (line 49)",
            "47 rows compared: 1 worse, 1 better, 1 within tolerance, 44 unchanged; 1 only in base; 1 only in new",
            "regression: 1 row worse beyond tolerance",
            "",
        ])
    }

    @Test func identicalFilesSayNoChange() throws {
        let same = ResultsComparison.files(base: try ResultsFixtures.lowEnd(), new: try ResultsFixtures.lowEnd(), rules: .regressions())
        let report = ComparisonReport.render(same, as: .table)
        #expect(report.hasSuffix("\n48 rows compared: 0 worse, 0 better, 0 within tolerance, 48 unchanged\nno change: 48 rows, 24 metrics each\n"))
        #expect(ComparisonReport.render(same, as: .markdown).hasPrefix("### FeedBench results: no change: 48 rows, 24 metrics each\n"))
    }

    @Test func tableLinesFitOneHundredColumnsOnTheWholeMatrix() throws {
        let byPolicy = try ResultsComparison.within(try ResultsFixtures.lowEnd(), by: "policy", base: "lru",
                                                    rules: .regressions(metrics: ResultMetric.all))
        let report = ComparisonReport.render(byPolicy, as: .table)
        #expect(report.contains("\npolicy=lfu:\nworse: prefetch_window=5 trace=skimmer\n"))
        #expect(report.contains("\n12 rows compared: 5 worse, 0 better, 0 within tolerance, 7 unchanged\n\npolicy=fifo:\n"))
        #expect(report.split(separator: "\n").allSatisfy { $0.count <= 100 }, "\(report)")
    }

    @Test func markdownIsAHeadingTablesDetailsAndASummary() {
        let markdown = ComparisonReport.render(comparison, as: .markdown)
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "### FeedBench results: regression: 1 row worse beyond tolerance")
        #expect(lines[2] == "Base `\(ResultsFixtures.lowEndPath)`, new `new.csv`, 24 metrics compared.")
        #expect(lines.contains("| | row | metric | base | new | delta | change | tolerance |"))
        #expect(lines.contains("| **worse** | policy=lru prefetch_window=5 trace=browser | hit_rate | 0.964912 | 0.955217 | -0.009695 | -1.0 % | ±0.005000 |"))
        #expect(lines.contains("| better | policy=lru prefetch_window=10 trace=browser | stalls | 4 | 1 | -3 | -75.0 % | ±5 % |"))
        #expect(lines.contains("<details><summary>1 row within tolerance</summary>") && lines.contains("</details>"))
        #expect(lines.contains("Only in `base`: `policy=lru prefetch_window=30 trace=skimmer` (line 11)"))
        #expect(lines.last(where: { !$0.isEmpty }) == "**Summary:** 47 rows compared: 1 worse, 1 better, 1 within tolerance, 44 unchanged; 1 only in base; 1 only in new")
        // Every table line has the header's eight cells.
        #expect(lines.filter { $0.hasPrefix("|") }.allSatisfy { $0.count(where: { $0 == "|" }) == 9 })
    }

    @Test func markdownEscapesPipesInCells() {
        #expect(ComparisonReport.code("a|b`c") == "`a\\|b'c`")
    }

    @Test func csvHasOneLinePerComparedMetricAndOnePerOneSidedRow() throws {
        let csv = ComparisonReport.render(comparison, as: .csv)
        let table = try CSVTable(parsing: Array(csv.utf8), source: "report.csv")
        #expect(table.header.fields == RunResult.identityColumns + ["group", "metric", "base", "new", "delta", "change_percent", "tolerance", "verdict"])
        #expect(table.records.count == 47 * 24 + 2)
        let moved = table.records.map(\.fields).filter { $0.last != "unchanged" }
        #expect(moved.map { Array($0.suffix(8)) } == [
            ["hit_rate", "0.964912", "0.955217", "-0.009695", "-1.0", "0.005000", "worse"],
            ["stalls", "4", "1", "-3", "-75.0", "5%", "better"],
            ["bytes_downloaded", "31659419", "31976013", "+316594", "+1.0", "5%", "within_tolerance"],
            ["", "", "", "", "", "", "only_in_base"],
            ["", "", "", "", "", "", "only_in_new"],
        ].map { [""] + $0 })
    }

    @Test func aRelativeChangeFromZeroSaysSo() throws {
        let text = ResultsFixtures.lowEndText
        let new = ResultsFixtures.editing(text, line: 2, column: "hit_rate", to: "0.100000")
        let report = ComparisonReport.render(.files(base: try ResultsFixtures.lowEnd(), new: try ResultsFixtures.file(new), rules: .regressions()), as: .table)
        #expect(report.contains("from 0  better"))
    }
}
