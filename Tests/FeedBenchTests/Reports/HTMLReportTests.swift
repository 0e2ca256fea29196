@testable import FeedBench
import Foundation
import TestSupport
import Testing

/// `bench report`'s page read back as markup, on the committed standard matrix: per profile
/// the charts that show the decision (a stall heatmap per policy with the recommendation
/// where `MatrixSummary` puts it, stalls and memory against the cache size, the Pareto front,
/// the window charts per group), seeds aggregated and never drawn as series, memory and stall
/// axes from 0, legends that name only what differs, the recommendation in words, and every
/// run in the table; a sweep's aggregate rows change nothing drawn.
@Suite(.scratchFolder) struct HTMLReportTests {
    static let lowEnd = SharedFiles.packageRoot.appendingPathComponent("Tests/Fixtures/low-end-lte.csv").path
    static let lowEndText = try! String(contentsOfFile: lowEnd, encoding: .utf8)
    static let policies = ["lru", "lfu", "fifo", "ttl:max-age=300"]
    static let windows = ["0", "5", "10", "20", "30", "50"]

    static func html(_ paths: [String] = [lowEnd], timeline: String? = nil) throws -> String {
        let results = try paths.map { try ResultsFile.read(path: $0) }
        let timelineFile = try timeline.map { try TimelineFile.read(path: $0, matching: results) }
        return try HTMLReport.render(results: results, timeline: timelineFile)
    }

    static func page(_ paths: [String] = [lowEnd]) throws -> MarkupElement { try MarkupElement.parse(html(paths)) }

    static func charts(_ page: MarkupElement, _ kind: String) -> [MarkupElement] {
        page.all("svg", class: "chart").filter { $0.attributes["data-chart"] == kind }
    }

    static func series(_ chart: MarkupElement) -> [(name: String, points: Int, whiskers: Int)] {
        chart.all("g", class: "series").map {
            ($0.attributes["data-series"] ?? "", $0.all("path", class: "point").count, $0.all("path", class: "whisker").count)
        }
    }

    static func axisTitles(_ chart: MarkupElement) -> [String] { chart.all("text", class: "axis-title").map(\.allText) }

    /// The tick labels of a chart's `x` or `y` axis, lowest value first.
    static func ticks(_ chart: MarkupElement, _ axis: String) -> [String] {
        chart.all("g", class: "axis").filter { $0.attributes["class"] == "axis \(axis)" }.flatMap { $0.all("text", class: "tick") }.map(\.allText)
    }

    static func notes(_ chart: MarkupElement) -> [String] { chart.all("text", class: "chart-note").map(\.allText) }

    /// The ranking `bench run` prints for the rows of `text` (a low-end results file).
    static func summary(_ text: String = lowEndText) throws -> MatrixSummary {
        let file = try ResultsFile(CSVTable(parsing: Array(text.utf8), source: "summary"))
        return MatrixSummary(profile: .lowEnd, runs: try ReportRows([file]).rows.map(\.summaryRun))
    }

    /// `lowEndText` with the peak memory of the 450 MiB runs at windows 20, 30 and 50 raised
    /// above low-end's memory-warning threshold.
    static let overLimitText: String = {
        let peak = RunResult.columns.firstIndex(of: "peak_memory_bytes")!
        return lowEndText.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let (memory, window) = (RunResult.identityIndex("memory_limit_bytes"), RunResult.identityIndex("prefetch_window"))
            guard cells.count > peak, cells[memory] == "471859200", ["20", "30", "50"].contains(cells[window]) else { return String(line) }
            cells[peak] = "1100000000"
            return cells.joined(separator: ",")
        }.joined(separator: "\n")
    }()

    @Test func eachProfileShowsTheDecisionThenOneSetOfWindowChartsPerGroup() throws {
        let page = try Self.page()
        #expect(page.all("pre", class: "settings").isEmpty, "plain policies have no library settings")
        let sections = page.all("section", class: "profile")
        #expect(sections.count == 1)
        let kinds = sections[0].all("svg", class: "chart").map { $0.attributes["data-chart"] ?? "" }
        let windowCharts = ["hit-rate", "display-p95", "peak-memory"]
        #expect(kinds == Array(repeating: "stall-heatmap", count: 4) + ["stall-heatmap-key", "stalls-by-cache", "peak-memory-by-cache", "pareto"]
            + windowCharts + windowCharts, "one set of window charts per trace (browser, skimmer), none per seed; no hitch maps of zeros")
        #expect(sections[0].all("h3").map(\.allText) == ["Stalls by prefetch window and memory cache", "Hitches",
                                                        "Memory and stalls", "browser · network lte", "skimmer · network lte"])
        #expect(sections[0].all("p", class: "help").contains { $0.allText.hasPrefix("Every configuration, on every seed: 0.0 ms/s of hitches a second of scrolling (good") })
        #expect(try Self.html().contains("<p class=\"inputs\">From <code>\(Self.lowEnd)</code> (864 runs).</p>"))
    }

    @Test func theHeatmapsHaveACellPerPolicySizeAndWindowMarkedWhereMatrixSummaryRanksThem() throws {
        let page = try Self.page()
        let summary = try Self.summary()
        let panels = Self.charts(page, "stall-heatmap")
        #expect(panels.map { $0.all("text", class: "chart-title").first?.allText ?? "" } == Self.policies)
        let sizes = Set(summary.ranking.map(\.memoryLimitBytes)).sorted().map(FixedPoint.mebibytes)
        #expect(sizes.count == 6)
        var chosen: [(policy: String, x: String, y: String)] = [], tied: Set<[String]> = []
        for (policy, panel) in zip(Self.policies, panels) {
            let cells = panel.all("g", class: "cell")
            #expect(cells.count == 6 * 6)
            #expect(Set(cells.map { [$0.attributes["data-x"]!, $0.attributes["data-y"]!] }) == Set(Self.windows.flatMap { w in sizes.map { [w, $0] } }))
            #expect(panel.all("text", class: "tick").map(\.allText) == sizes + Self.windows, "sizes bottom to top, windows left to right")
            for cell in cells {
                let (x, y) = (cell.attributes["data-x"]!, cell.attributes["data-y"]!)
                let candidate = try #require(summary.ranking.first { $0.policy == policy && $0.window == x && FixedPoint.mebibytes($0.memoryLimitBytes) == y })
                #expect(cell.all("text", class: "cell-value").first?.allText == TuneFigure.stalls.format(candidate.spread(.stalls).mean))
                switch cell.attributes["data-mark"] {
                case "chosen": chosen.append((policy, x, y))
                case "tied": tied.insert([policy, x, y])
                case nil: break
                case let other: Issue.record("unexpected mark \(String(describing: other))")
                }
            }
        }
        let best = try #require(summary.recommended)
        #expect(chosen.count == 1, "exactly one recommended cell")
        #expect(chosen.first.map { [$0.policy, $0.x, $0.y] } == [best.policy, best.window, FixedPoint.mebibytes(best.memoryLimitBytes)])
        #expect(tied == Set(summary.ranking[1..<summary.equivalentCount].map { [$0.policy, $0.window, FixedPoint.mebibytes($0.memoryLimitBytes)] }))
        let key = try #require(Self.charts(page, "stall-heatmap-key").first)
        #expect(key.all("g", class: "key-mark").map { $0.attributes["data-mark"] ?? "" } == ["chosen", "tied"], "nothing is over the limit")
    }

    /// A main job over a population: the maps, the stalls chart and the front draw the weighted
    /// stalls the recommendation is ranked and quoted by, not the networks' plain sum.
    @Test func overAPopulationTheChartsDrawTheWeightedStalls() throws {
        let path = SharedFiles.packageRoot.appendingPathComponent("results/low-end.csv").path
        let page = try Self.page([path])
        let runs = try ReportRows([ResultsFile.read(path: path)]).rows.map(\.summaryRun)
        let summary = MatrixSummary(profile: .lowEnd, runs: runs, population: try NetworkPopulation.builtIn(named: "phones", source: "test"))
        let best = try #require(summary.recommended)
        let shown = TuneFigure.weightedStalls.number(best.spread(.weightedStalls).mean)
        let chosen = try #require(Self.charts(page, "stall-heatmap").flatMap { $0.all("g", class: "cell") }.first { $0.attributes["data-mark"] == "chosen" })
        #expect(shown == "39.7" && chosen.all("text").map(\.allText) == [shown], "\(chosen.all("text").map(\.allText))")
        #expect(Self.charts(page, "stall-heatmap-key")[0].allText.contains("Mean weighted stalls a seed (colour)"))
        for kind in ["stalls-by-cache", "pareto"] {
            #expect(Self.charts(page, kind)[0].allText.contains("stalls a seed (networks weighted by share)"), "\(kind)")
        }
        #expect(page.all("p", class: "help").contains { $0.allText.contains("The rule bench run prints: the fewest mean weighted stalls among") })
    }

    /// Over a population the page says what the one setting gives up on each network, as
    /// `bench run` prints it, and draws each network's stalls against the window at the
    /// recommended policy and size, a line per network whose point at the recommended window is
    /// the recommendation's stalls there; a main job on one network has neither.
    @Test func overAPopulationEachNetworkShowsWhatTheOneSettingGivesUp() throws {
        let path = SharedFiles.packageRoot.appendingPathComponent("results/low-end.csv").path
        let page = try Self.page([path])
        let runs = try ReportRows([ResultsFile.read(path: path)]).rows.map(\.summaryRun)
        let phones = try #require(try NetworkPopulation.builtIn(named: "phones", source: "test"))
        let answer = PopulationSummary(profile: .lowEnd, runs: runs, population: phones)
        let table = try #require(page.all("table", class: "networks").first)
        let cells = table.all("tr").dropFirst().map { $0.all("td").map(\.allText) }
        #expect(cells == answer.networkRows())
        #expect(cells.map { $0[0] } == ["wifi", "verizon-lte", "tmobile-lte", "att-lte-driving", "tmobile-umts-driving"])
        #expect(page.all("p", class: "paths").first?.allText.hasPrefix("By path (NWPathMonitor)") == true)
        let chart = try #require(Self.charts(page, "stalls-by-network").first)
        #expect(Self.series(chart).map(\.name) == answer.networks.map { "\($0.member.network.name) (\(MatrixSummary.percent($0.member.share)))" })
        let best = try #require(answer.overall.recommended)
        for (series, line) in zip(chart.all("g", class: "series"), answer.networks) {
            let here = try #require(line.recommendationHere)
            let note = "\(line.member.network.name) (\(MatrixSummary.percent(line.member.share))), window \(best.window): "
                + FixedPoint.decimal(here.spread(TuneFigure.stalls).mean, decimals: 1)
            let notes = series.all("path", class: "point").compactMap { $0.all("title").first?.allText }
            #expect(notes.contains { $0.hasPrefix(note + " (mean of 3 seeds") }, "\(note) in \(notes)")
        }
        let oneNetwork = try Self.page()
        #expect(oneNetwork.all("table", class: "networks").isEmpty && Self.charts(oneNetwork, "stalls-by-network").isEmpty)
    }

    @Test func configurationsOverTheMemoryLimitAreHatchedAndNeverRecommended() throws {
        let page = try Self.page([SharedFiles.write(Self.overLimitText)])
        let summary = try Self.summary(Self.overLimitText)
        let cells = Self.charts(page, "stall-heatmap").flatMap { $0.all("g", class: "cell") }
        let excluded = cells.filter { $0.attributes["data-mark"] == "excluded" }
        #expect(excluded.count == 4 * 3)
        #expect(excluded.allSatisfy { $0.attributes["data-y"] == "450.0 MiB" && ["20", "30", "50"].contains($0.attributes["data-x"]!) })
        #expect(excluded.allSatisfy { !$0.all("line", class: "hatch").isEmpty })
        let best = try #require(summary.recommended)
        let chosen = cells.filter { $0.attributes["data-mark"] == "chosen" }
        #expect(chosen.map { [$0.attributes["data-x"]!, $0.attributes["data-y"]!] } == [[best.window, FixedPoint.mebibytes(best.memoryLimitBytes)]])
        #expect(Self.charts(page, "stall-heatmap-key")[0].all("g", class: "key-mark").map { $0.attributes["data-mark"] ?? "" }
            == ["chosen", "tied", "excluded"])
        let pareto = Self.series(Self.charts(page, "pareto")[0])
        #expect(pareto.first { $0.name == "over the limit" }?.points == 4 * 3)
    }

    @Test func seedsAreAggregatedIntoWhiskersNeverDrawnAsSeries() throws {
        let page = try Self.page()
        let recommended = try #require(Self.summary().recommended)
        let subtitle = "memory cache \(FixedPoint.mebibytes(recommended.memoryLimitBytes)) (the recommended size)"
        for chart in page.all("svg", class: "chart") {
            let names = Self.series(chart).map(\.name)
            #expect(!names.contains { $0.contains("seed") }, "\(names)")
            let legend = chart.all("text", class: "legend-label").map(\.allText)
            #expect(Set(legend).count == legend.count, "each legend entry once: \(legend)")
        }
        for kind in ["hit-rate", "display-p95", "peak-memory"] {
            for chart in Self.charts(page, kind) {
                let series = Self.series(chart)
                #expect(series.map(\.name) == Self.policies, "named by policy alone: the limits are the same for all")
                #expect(series.allSatisfy { $0.points == 6 && $0.whiskers == 6 })
                #expect(chart.all("text", class: "chart-subtitle").first?.allText.contains(subtitle) == true, "\(subtitle)")
                #expect(chart.all("text", class: "chart-subtitle").first?.allText.hasSuffix("mean of 3 seeds, bars min–max") == true)
                #expect(Self.axisTitles(chart).last == "prefetch window (items ahead)")
            }
        }
        // A point is the mean of its seeds; its note gives their range.
        let hitRate = RunResult.columns.firstIndex(of: "hit_rate")!
        let rows: [[String]] = Self.lowEndText.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let (policy, memory, window, trace) = (RunResult.identityIndex("policy"), RunResult.identityIndex("memory_limit_bytes"),
                                              RunResult.identityIndex("prefetch_window"), RunResult.identityIndex("trace"))
        let lruAtFive = rows.filter { $0[policy] == "lru" && $0[memory] == "14745600" && $0[window] == "5" && $0[trace] == "browser" }
        let seeds: [Double] = lruAtFive.map { row in Double(Int64(row[hitRate].replacingOccurrences(of: ".", with: ""))!) / 10_000 }
        #expect(seeds.count == 3)
        let point = try #require(Self.charts(page, "hit-rate")[0].all("g", class: "series")[0].all("path", class: "point")[1].all("title").first)
        let format = { (value: Double) in FixedPoint.decimal(value, decimals: 1) + " %" }
        #expect(point.allText == "lru, window 5: \(format(seeds.reduce(0, +) / 3)) (mean of 3 seeds, \(format(seeds.min()!))–\(format(seeds.max()!)))")

        let summary = try Self.summary()
        let best = try #require(summary.recommended)
        for kind in ["stalls-by-cache", "peak-memory-by-cache"] {
            let chart = try #require(Self.charts(page, kind).first)
            let series = Self.series(chart)
            #expect(series.filter { Self.policies.contains($0.name) }.allSatisfy { $0.points == 6 && $0.whiskers == 6 })
            #expect(series.map(\.name) == Self.policies + (kind == "stalls-by-cache" ? ["recommended"] : []))
            #expect(Self.axisTitles(chart).last == "memory cache (MiB)")
            #expect(chart.all("text", class: "chart-subtitle").first?.allText.hasPrefix("prefetch window \(best.window) (the recommended window)") == true)
        }
        let stalls = best.spread(.stalls)
        let star = try #require(Self.charts(page, "stalls-by-cache")[0].all("g", class: "series").last?.all("title").first)
        #expect(star.allText == "\(best.policy) · \(FixedPoint.mebibytes(best.memoryLimitBytes)): \(TuneFigure.stalls.format(stalls.mean)) "
            + "(mean of 3 seeds, \(stalls.min)–\(stalls.max))")
    }

    @Test func memoryAndStallAxesStartAtZero() throws {
        let page = try Self.page()
        var checked = 0
        for chart in page.all("svg", class: "chart") where !Self.ticks(chart, "y").isEmpty {
            let titles = Self.axisTitles(chart)
            if let yTitle = titles.first, yTitle.contains("MiB") || yTitle.contains("stalls") {
                #expect(Self.ticks(chart, "y").first == "0", "\(chart.attributes["data-chart"]!): \(yTitle)")
                checked += 1
            }
            if let xTitle = titles.last, xTitle.contains("MiB") {
                #expect(Self.ticks(chart, "x").first == "0", "\(chart.attributes["data-chart"]!): \(xTitle)")
                checked += 1
            }
        }
        #expect(checked == 2 + 2 + 2 + 2, "stalls and peak memory by cache (x and y), the Pareto chart (x and y), peak memory by window (y)")
    }

    @Test func limitsFarAboveThePeaksAreNotedInsteadOfFlatteningTheChart() throws {
        let chart = Self.charts(try Self.page(), "peak-memory")[0]
        let profile = DeviceProfile.lowEnd
        #expect(chart.all("g", class: "reference").isEmpty)
        #expect(Array(Self.notes(chart).suffix(2)) == [
            "memory warning \(FixedPoint.mebibytes(profile.memoryWarningBytes)): off the axis, every point is below it.",
            "jetsam limit \(FixedPoint.mebibytes(profile.jetsamLimitBytes)): off the axis, every point is below it.",
        ])
        #expect(Double(Self.ticks(chart, "y").last!)! < 100, "the peaks (56–63 MiB) fill the plot")
    }

    @Test func theRecommendationStatesPolicyCacheWindowStallsLatencyAndTies() throws {
        let page = try Self.page()
        let summary = try Self.summary()
        let best = try #require(summary.recommended)
        let stalls = best.spread(.stalls)
        let text = try #require(page.all("p", class: "recommendation").first?.allText)
        let ties = summary.equivalentCount - 1
        #expect(ties > 1)
        #expect(text == "Recommended: \(best.policy), memory cache \(FixedPoint.mebibytes(best.memoryLimitBytes)), prefetch window \(best.window) — "
            + "\(TuneFigure.stalls.format(stalls.mean)) stalls a seed (\(stalls.min)–\(stalls.max) over 3 seeds), display-latency p95 "
            + "\(TuneFigure.displayP95.format(best.spread(.displayP95).mean)), peak memory \(FixedPoint.mebibytes(Int64(best.spread(.peakMemory).mean.rounded()))); "
            + "\(summary.sessionLines(best).joined(separator: "; ")). "
            + "\(ties) other configurations tie with it within the seeds' noise (dashed in the maps); of those \(ties + 1) it has the smallest "
            + "memory cache, then the fewest bytes downloaded.")
    }

    /// low-end × lru, fifo × 60 and 120 MB × windows 0, 20 × browser, skimmer × seeds 1–3, 5 s:
    /// 48 runs, each configuration's seed rows followed by its mean, min and max rows.
    static let sweep: String = {
        var grid = SweepGrid()
        grid.profiles = [SweepGrid.Value("low-end", source: "test")]
        grid.policies = ["lru", "fifo"].map { SweepGrid.Value($0, source: "test") }
        grid.memoryLimits = ["60MB", "120MB"].map { SweepGrid.Value($0, source: "test") }
        grid.windows = ["0", "20"].map { SweepGrid.Value($0, source: "test") }
        grid.behaviors = ["browser", "skimmer"].map { SweepGrid.Value($0, source: "test") }
        grid.seeds = ["1", "2", "3"].map { SweepGrid.Value($0, source: "test") }
        grid.session.duration = 5_000_000_000
        let path = try! SharedFiles.scratchDirectory().appendingPathComponent("sweep.csv").path
        _ = try! SweepJob(plan: SweepPlan(grid), destination: path).run(jobs: 2, resume: false)
        return try! String(contentsOfFile: path, encoding: .utf8)
    }()

    /// Where the configurations hitch differently — Kingfisher decoding full-size images at
    /// their first draw, on the main thread, or in the background — a hitch map per preset is
    /// drawn, each cell the mean ratio over the seeds.
    @Test func hitchMapsAreDrawnWhereTheConfigurationsDiffer() throws {
        var grid = SweepGrid()
        grid.profiles = [SweepGrid.Value("low-end", source: "test")]
        grid.presets = ["kingfisher", "kingfisher:background-decode"].map { SweepGrid.Value($0, source: "test") }
        grid.windows = ["0", "20"].map { SweepGrid.Value($0, source: "test") }
        grid.behaviors = [SweepGrid.Value("browser", source: "test")]
        grid.seeds = ["1", "2"].map { SweepGrid.Value($0, source: "test") }
        grid.session.duration = 5_000_000_000
        let path = try SharedFiles.scratchDirectory().appendingPathComponent("hitches.csv").path
        _ = try SweepJob(plan: SweepPlan(grid), destination: path).run(jobs: 2, resume: false)
        let page = try Self.page([path])
        let panels = Self.charts(page, "hitch-heatmap")
        #expect(panels.map { $0.all("text", class: "chart-title").first?.allText ?? "" }
            == ["kingfisher(lru:max-age=300:refresh=1)", "kingfisher:background-decode(lru:max-age=300:refresh=1)"])
        let values = panels.map { $0.all("text", class: "cell-value").map(\.allText) }
        // Numbers only: the key names the unit (a unit in every cell overflowed it).
        #expect(values.count == 2 && values[0].count == 2 && values[0].allSatisfy { $0 != "0.0" && !$0.contains("ms") } && values[1] == ["0.0", "0.0"], "\(values)")
        #expect(!page.all("h3").contains { $0.allText == "Hitches" })
        // Kingfisher's runs are a library's: ranked within its hitch bound, as bench run
        // --library ranks them, and the settings to apply follow the recommendation.
        let recommendation = try #require(page.all("p", class: "recommendation").first?.allText)
        #expect(recommendation.hasPrefix("Recommended: kingfisher:background-decode("), "\(recommendation)")
        let settings = try #require(page.all("pre", class: "settings").first?.allText)
        #expect(settings.hasPrefix("Settings to apply — Kingfisher 8.11") && settings.contains("[.backgroundDecode]"), "\(settings)")
        #expect(page.all("p", class: "help").contains { $0.allText.contains("hitches at most 5.0 ms/s of scrolling") })
    }

    /// Every `<svg>…</svg>` of a page, in order.
    static func svgs(_ html: String) -> [String] {
        html.components(separatedBy: "<svg ").dropFirst().map { $0.components(separatedBy: "</svg>")[0] }
    }

    @Test func aSweepsAggregateRowsChangeNothingDrawn() throws {
        let withAggregates = try SharedFiles.write(Self.sweep, name: "sweep.csv")
        let runsOnly = try SharedFiles.write(Self.sweep.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.contains(",mean,") && !$0.contains(",min,") && !$0.contains(",max,") }.joined(separator: "\n"), name: "sweep.csv")
        #expect(Self.sweep.components(separatedBy: ",mean,").count - 1 == 16)
        let (a, b) = (try Self.html([withAggregates]), try Self.html([runsOnly]))
        #expect(Self.svgs(a).count == 2 + 1 + 2 + 1 + 2 * 3, "2 stall heatmaps with their key (no hitches: one line), 2 cache-size charts, the Pareto front, 3 per trace")
        #expect(Self.svgs(a) == Self.svgs(b))
        let page = try MarkupElement.parse(a)
        #expect(a.contains("<p class=\"inputs\">From <code>\(withAggregates)</code> (48 runs; its 48 mean, min and max rows are left out: "
            + "they summarise those runs).</p>"))
        #expect(b.contains("<p class=\"inputs\">From <code>\(runsOnly)</code> (48 runs).</p>"))
        #expect(page.all("table", class: "sortable")[0].all("tbody")[0].all("tr").count == 48)
        #expect(Self.charts(page, "stall-heatmap").flatMap { $0.all("g", class: "cell") }.count == 2 * 2 * 2)
        #expect(page.all("p", class: "recommendation").first?.allText.contains("over 3 seeds") == true)
    }

    @Test func tableHasEveryRunWithDisplayAndStallPercentiles() throws {
        let firstImage = RunResult.columns.firstIndex(of: "first_image_ms")!
        var lines = Self.lowEndText.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        lines[1][firstImage] = ""
        let page = try Self.page([SharedFiles.write(lines.map { $0.joined(separator: ",") }.joined(separator: "\n") + "\n")])
        let table = try #require(page.all("table", class: "sortable").first)
        #expect(table.all("tr").count == 1 + 864)
        let headers = table.all("th").map(\.allText)
        let percentiles = ["display p50", "display p95", "display p99", "stalls", "waited", "stalls/min", "stall p50", "stall p95", "stall p99", "first image"]
        let start = try #require(headers.firstIndex(of: "display p50"))
        #expect(Array(headers[start..<start + percentiles.count]) == percentiles)
        #expect(table.all("th").filter { percentiles.contains($0.allText) }.allSatisfy { $0.attributes["data-type"] == "number" })
        let firstRow = table.all("tbody")[0].all("tr")[0].all("td")
        #expect(firstRow.count == headers.count)
        let absent = firstRow[headers.firstIndex(of: "first image")!]
        #expect(absent.allText == "—" && absent.attributes["data-v"] == "-1", "an empty first_image_ms is no time, sorted first")
        for written in ["waited", "stalls/min"] {
            #expect(firstRow[headers.firstIndex(of: written)!].allText == "—", "a file of the fourth schema has no \(written)")
        }
        // The first run's p95 as the results file has it, shown to a tenth of a millisecond.
        let p95 = try #require(Double(lines[1][RunResult.columns.firstIndex(of: "display_latency_ms_p95")!]))
        #expect(firstRow[headers.firstIndex(of: "display p95")!].allText == String(format: "%.1f ms", p95))
        #expect(page.all("script").count == 1)
        #expect(!page.all("script")[0].text.contains("http"))
    }

    @Test func theSameInputsGiveTheSameBytes() throws {
        let results = [try ResultsFile.read(path: Self.lowEnd)]
        #expect(try HTMLReport.render(results: results) == HTMLReport.render(results: results))
    }

    @Test func aProfileThatIsNotBuiltInIsDrawnWithoutLimitsOrMarksAndSaysSo() throws {
        let page = try Self.page([SharedFiles.write(Self.lowEndText.replacingOccurrences(of: "\nlow-end,", with: "\nmy-phone,"))])
        #expect(page.all("p", class: "recommendation").first?.allText == "Not a built-in profile: its memory limit is unknown, so no configuration is recommended.")
        let chart = Self.charts(page, "peak-memory")[0]
        #expect(chart.all("g", class: "reference").isEmpty)
        #expect(Self.notes(chart).last == "Profile \"my-phone\" is not built in: its memory-warning threshold and jetsam limit are unknown, not drawn.")
        #expect(chart.all("text", class: "chart-subtitle").first?.allText.contains("(the size with the fewest stalls; nothing is recommended)") == true)
        #expect(Self.charts(page, "stall-heatmap").flatMap { $0.all("g", class: "cell") }.allSatisfy { $0.attributes["data-mark"] == nil })
        #expect(Self.charts(page, "stall-heatmap-key")[0].all("g", class: "key-mark").isEmpty)
        #expect(!Self.series(Self.charts(page, "pareto")[0]).contains { $0.name.hasPrefix("recommended") })
        #expect(!Self.series(Self.charts(page, "stalls-by-cache")[0]).contains { $0.name.hasPrefix("recommended") })
    }

    @Test func runsRepeatedAcrossFilesAreRefused() throws {
        #expect(throws: InputError(source: Self.lowEnd, line: 2,
                                   "expected each run once across the results files, found the identity of \(Self.lowEnd):2 again")) {
            try HTMLReport.render(results: [ResultsFile.read(path: Self.lowEnd), ResultsFile.read(path: Self.lowEnd)])
        }
    }
}
