import FeedBench
import Foundation
import TestScratch
import Testing

/// `bench report`'s page read back as markup: the charts a person expects, with the series,
/// points, axis titles, limits and recommendation that the results say they should have.
@Suite(.scratchFolder) struct HTMLReportTests {
    static let lowEnd = SharedFiles.packageRoot.appendingPathComponent("results/low-end.csv").path

    static func page(_ paths: [String] = [lowEnd], timeline: String? = nil) throws -> MarkupElement {
        let results = try paths.map { try ResultsFile.read(path: $0) }
        let timelineFile = try timeline.map { try TimelineFile.read(path: $0, matching: results) }
        return try MarkupElement.parse(HTMLReport.render(results: results, timeline: timelineFile))
    }

    static func charts(_ page: MarkupElement, _ kind: String) -> [MarkupElement] {
        page.all("svg", class: "chart").filter { $0.attributes["data-chart"] == kind }
    }

    static func series(_ chart: MarkupElement) -> [(name: String, points: Int)] {
        chart.all("g", class: "series").map { ($0.attributes["data-series"] ?? "", $0.all("path", class: "point").count) }
    }

    static func axisTitles(_ chart: MarkupElement) -> [String] { chart.all("text", class: "axis-title").map(\.allText) }

    /// 864 runs (6 cache sizes × 3 seeds of every configuration) still give one chart per trace
    /// and figure, one line per policy: seeds are averaged and the lines drawn at the recommended
    /// cache size, which the subtitle names — never a line per seed or per size.
    @Test func windowChartsHaveOneSeriesPerPolicyAndOnePointPerWindow() throws {
        let page = try Self.page()
        for kind in ["stalls", "display-p95", "hit-rate", "peak-memory"] {
            let charts = Self.charts(page, kind)
            #expect(charts.count == 2, "\(kind): one chart per trace (browser, skimmer)")
            for chart in charts {
                let series = Self.series(chart)
                #expect(series.map(\.name) == ["lru", "lfu", "fifo", "ttl:max-age=300"])
                #expect(series.allSatisfy { $0.points == 6 }, "windows 0, 5, 10, 20, 30, 50")
                #expect(Self.axisTitles(chart).last == "prefetch window (items ahead)")
                #expect(chart.all("path", class: "line").count == 4)
                #expect(chart.all("text", class: "chart-subtitle").first?.allText == "lte · cache 14.1 MiB (recommended; 6 tried) · mean of 3 seeds")
            }
        }
        // The y axis's title, then the x axis's.
        #expect(Self.axisTitles(Self.charts(page, "hit-rate")[0]) == ["hit rate (%, memory + disk)", "prefetch window (items ahead)"])
        #expect(Self.axisTitles(Self.charts(page, "display-p95")[0]).first == "p95 wait of every display (ms)")
        #expect(Self.axisTitles(Self.charts(page, "peak-memory")[0]).first == "peak tracked memory (MiB)")
    }

    /// The size decision: stalls against cache size at the recommended window, a line per policy
    /// with a point per size, and the recommendation starred where MatrixSummary puts it.
    @Test func stallsAgainstCacheSizeMarkTheRecommendation() throws {
        let chart = try #require(Self.charts(try Self.page(), "cache-size").first)
        let series = Self.series(chart)
        #expect(Set(series.dropLast().map(\.name)) == ["lru", "lfu", "fifo", "ttl:max-age=300"])
        #expect(series.dropLast().allSatisfy { $0.points == 6 })
        #expect(series.last.map { ($0.name, $0.points) } ?? ("", 0) == ("recommended: fifo, 14.1 MiB", 1))
        #expect(chart.all("text", class: "chart-title").first?.allText == "Stalls vs cache size · low-end · window 5")
    }

    /// A sweep's mean, min and max rows summarise seed rows already there: the report leaves
    /// them out (it used to count them as runs and add them into the recommendation).
    @Test func aSweepsAggregateRowsAreNotRuns() throws {
        let lines = try String(contentsOfFile: SharedFiles.packageRoot.appendingPathComponent("Tests/Fixtures/low-end-48.csv").path, encoding: .utf8)
            .split(separator: "\n").map(String.init)
        var sweep = [lines[0] + ",sweep_run,sweep_grid"]
        for (index, line) in lines.dropFirst().enumerated() { sweep.append(line + ",\(index + 1)/48,0123456789abcdef") }
        for seed in ["mean", "min", "max"] {
            var cells = lines[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            cells[RunResult.identityColumns.firstIndex(of: "seed")!] = seed
            sweep.append(cells.joined(separator: ",") + ",,0123456789abcdef")
        }
        let file = try ResultsFile(CSVTable(parsing: Array((sweep.joined(separator: "\n") + "\n").utf8), source: "sweep.csv"))
        #expect(file.rows.count == 51)
        let page = try MarkupElement.parse(HTMLReport.render(results: [file]))
        #expect(page.all("table", class: "sortable").first?.all("tr").count == 1 + 48)
        #expect(page.all("p").contains { $0.allText.contains("(48 runs)") })
    }

    @Test func peakMemoryShowsTheProfilesLimits() throws {
        let chart = Self.charts(try Self.page(), "peak-memory")[0]
        let limits = chart.all("g", class: "reference").map { $0.attributes["data-reference"] ?? "" }
        let profile = DeviceProfile.lowEnd
        #expect(limits == ["memory warning \(FixedPoint.mebibytes(profile.memoryWarningBytes))",
                           "jetsam limit \(FixedPoint.mebibytes(profile.jetsamLimitBytes))"])
    }

    @Test func paretoMarksMatrixSummarysRecommendation() throws {
        let page = try Self.page()
        let pareto = Self.charts(page, "pareto")
        #expect(pareto.count == 1)
        let series = Self.series(pareto[0])
        let rows = try ResultsFile.read(path: Self.lowEnd).rows
        let configurations = Set(rows.map { [$0.identity[2], $0.identity[3], $0.identity[5]] }).count
        #expect(series.filter { ["within the memory limit", "over the limit"].contains($0.name) }.reduce(0) { $0 + $1.points } == configurations)
        let recommended = try #require(series.first { $0.name.hasPrefix("recommended: ") })
        #expect(recommended.points == 1)
        // The same rule as bench run's summary: the committed baseline's recommendation.
        #expect(recommended.name == "recommended: fifo, 14.1 MiB, window 5")
        let front = try #require(series.first { $0.name == "Pareto front" })
        #expect(front.points >= 1 && front.points <= configurations)
        #expect(page.all("p", class: "recommendation").first?.allText.contains("fifo, memory cache 14.1 MiB, prefetch window 5") == true)
    }

    @Test func tableHasEveryRowAndSortsNumbersByValue() throws {
        let page = try Self.page()
        let table = try #require(page.all("table", class: "sortable").first)
        #expect(table.all("tr").count == 1 + 864)
        let headers = table.all("th")
        #expect(headers.contains { $0.allText == "peak memory" && $0.attributes["data-type"] == "number" })
        let firstRow = table.all("tbody")[0].all("tr")[0].all("td")
        #expect(firstRow.count == headers.count)
        #expect(page.all("script").count == 1)
        #expect(!page.all("script")[0].text.contains("http"))
    }

    @Test func theSameInputsGiveTheSameBytes() throws {
        let results = [try ResultsFile.read(path: Self.lowEnd)]
        #expect(try HTMLReport.render(results: results) == HTMLReport.render(results: results))
    }

    @Test func aProfileThatIsNotBuiltInIsDrawnWithoutLimitsAndSaysSo() throws {
        let text = try String(contentsOfFile: Self.lowEnd, encoding: .utf8).replacingOccurrences(of: "\nlow-end,", with: "\nmy-phone,")
        let page = try Self.page([SharedFiles.write(text)])
        let chart = Self.charts(page, "peak-memory")[0]
        #expect(chart.all("g", class: "reference").isEmpty)
        // Without a recommendation the lines are drawn at the first cache size (1/32), where fifo
        // and ttl coincide: said too.
        #expect(chart.all("text", class: "chart-note").map(\.allText)
            == ["Same values at every point, so their lines coincide: fifo, ttl:max-age=300.",
                "Profile \"my-phone\" is not built in: its memory-warning threshold and jetsam limit are unknown, not drawn."])
        #expect(!Self.series(Self.charts(page, "pareto")[0]).contains { $0.name.hasPrefix("recommended") })
    }

    @Test func runsRepeatedAcrossFilesAreRefused() throws {
        #expect(throws: InputError(source: Self.lowEnd, line: 2,
                                   "expected each run once across the results files, found the identity of \(Self.lowEnd):2 again")) {
            try HTMLReport.render(results: [ResultsFile.read(path: Self.lowEnd), ResultsFile.read(path: Self.lowEnd)])
        }
    }
}
