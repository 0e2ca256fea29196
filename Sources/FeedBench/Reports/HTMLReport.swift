/// `bench report`'s page: one self-contained HTML file (inline CSS and SVG, a few lines of
/// inline script to sort the table; nothing fetched, opens offline) that shows, per profile,
/// the decision a team has to make: `MatrixSummary`'s recommendation in words, the stall
/// heatmaps over window × memory cache for each policy with the recommendation and its ties
/// marked, stalls and peak memory against the memory cache at the recommended window, the
/// memory/stall Pareto front, over a population what the answer gives up on each network
/// (`PopulationSummary`) with each network's stalls against the window, then hit rate, display latency and peak memory against the
/// window for each group of runs at the recommended memory cache (`ReportCharts`); memory
/// over time for each run of a timeline; and a sortable table of every run. A sweep's mean,
/// min and max rows are left out (`ReportRows`): seeds are aggregated by the charts.
/// Deterministic: the same inputs give the same bytes (no clock, no dictionary order).
public enum HTMLReport {
    /// The page for `results` (each run once across them) and an optional timeline of their runs.
    public static func render(results: [ResultsFile], timeline: TimelineFile? = nil) throws -> String {
        let rows = try ReportRows(results)
        var charts = ReportCharts()
        var page = MarkupWriter()
        page.line("<!DOCTYPE html>")
        page.line("<html lang=\"en\">")
        page.line("<head>")
        page.line("<meta charset=\"utf-8\">")
        page.line("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
        page.line("<title>FeedBench report</title>")
        page.line("<style>\(style)</style>")
        page.line("</head>")
        page.line("<body>")
        page.line("<h1>FeedBench report</h1>")
        let inputs = rows.files.map { file in
            code(file.path) + " (\(runs(file.runs))" + (file.aggregates == 0 ? ")"
                : "; its \(file.aggregates) mean, min and max rows are left out: they summarise those runs)")
        } + (timeline.map { ["timeline " + code($0.path)] } ?? [])
        page.line("<p class=\"inputs\">From \(inputs.joined(separator: ", ")).</p>")
        page.line("<p class=\"help\">Hover a point or a cell for its figures. Seeds are never drawn apart: a point is the mean over "
                  + "the seeds, its bar their minimum to maximum. Stall and memory axes start at 0. Memory is tracked memory (memory cache "
                  + "+ on-screen bitmaps + in-flight downloads), in MiB. Display latency is every display's wait, 0 for an image already "
                  + "in memory. Prefetch windows that are plain item counts sit on a numeric axis; when a chart has other forms (N+M, "
                  + "Xscreens, device, velocity, adaptive:N) every window is a category, in the order item counts, N+M, screens, device, "
                  + "velocity, adaptive.</p>")

        for (name, profileRows) in rows.byProfile {
            let decision = ProfileDecision(name: name, rows: profileRows)
            page.line("<section class=\"profile\">")
            page.line("<h2>\(SVGText.escape(name))\(decision.profile.map { " — " + SVGText.escape($0.model) } ?? " — not a built-in profile")</h2>")
            page.line("<p class=\"recommendation\">\(SVGText.escape(recommendation(decision)))</p>")
            page.line("<p class=\"help\">\(SVGText.escape(rule(decision)))</p>")
            if let profile = decision.profile, case let settings = LibrarySettings.summary(of: decision.recommended, on: profile), !settings.isEmpty {
                page.line("<pre class=\"settings\">\(SVGText.escape(settings))</pre>")
            }

            heatmapSection("Stalls by prefetch window and memory cache", ReportCharts.stallHeatmaps(decision), into: &page,
                           help: "One map per policy, all on the same colours: each cell is the mean \(decision.stallsName) a seed (hover for "
                               + "the range, display latency and peak memory). The recommended configuration has a thick outline and a star; those "
                               + "within the seeds' noise of it a dashed outline; those over the memory limit are hatched grey." + decision.drawnWidthNote)
            if let uniform = ReportCharts.uniformHitches(decision) {
                page.line("<h3>Hitches</h3>")
                page.line("<p class=\"help\">\(SVGText.escape(uniform))</p>")
            } else {
                heatmapSection("Hitches by prefetch window and memory cache", ReportCharts.hitchHeatmaps(decision), into: &page,
                               help: "The same maps for scroll smoothness: each cell is the mean over the seeds of the hitch time "
                                   + "ratio, milliseconds of hitches per second of scrolling (the worst workload's). Apple calls under 5 ms/s good, "
                                   + "under 10 a warning, 10 or more critical.")
            }

            page.line("<h3>Memory and stalls</h3>")
            page.line("<div class=\"charts\">")
            for chart in charts.cacheSizeCharts(decision) + [ReportCharts.pareto(decision)] { page.append(SVGChart.render(chart)) }
            page.line("</div>")
            if let networks = decision.networks { networkSection(networks, decision: decision, charts: &charts, into: &page) }
            let groups = ReportCharts.groups(profileRows)
            for group in groups {
                page.line("<h3>\(SVGText.escape(ReportCharts.heading(group, among: groups)))</h3>")
                page.line("<div class=\"charts\">")
                for chart in charts.windowCharts(group, decision: decision) { page.append(SVGChart.render(chart)) }
                page.line("</div>")
            }
            page.line("</section>")
        }

        if let timeline {
            page.line("<section class=\"timelines\">")
            page.line("<h2>Memory over time</h2>")
            page.line("<p class=\"help\">Each second shows the three parts of tracked memory at that second's peak, stacked; "
                      + "markers sit on the seconds with a memory warning or a jetsam kill.</p>")
            page.line("<div class=\"charts\">")
            for run in timeline.runs { page.append(SVGChart.render(ReportCharts.timeline(run))) }
            page.line("</div>")
            page.line("</section>")
        }

        page.line("<section class=\"rows\">")
        page.line("<h2>Every run</h2>")
        page.line("<p class=\"help\">One row per run (a sweep's mean, min and max rows left out). Display latency percentiles are over "
                  + "every display (0 for a memory hit); stall percentiles over the stalled displays only. Click a column title to sort "
                  + "by it; click again to reverse.</p>")
        table(rows.rows, into: &page)
        page.line("</section>")
        page.line("<script>\(sortScript)</script>")
        page.line("</body>")
        page.line("</html>")
        return page.text
    }

    /// A heading, its help and one figure of heatmaps with their key.
    static func heatmapSection(_ title: String, _ heatmaps: (panels: [Heatmap], key: HeatmapKey), into page: inout MarkupWriter, help: String) {
        page.line("<h3>\(title)</h3>")
        page.line("<p class=\"help\">\(help)</p>")
        page.line("<div class=\"charts\">")
        for panel in heatmaps.panels { page.append(SVGHeatmap.render(panel)) }
        page.append(SVGHeatmap.render(heatmaps.key))
        page.line("</div>")
    }

    /// Over a population: what the one setting gives up on each network (the regret table
    /// `bench run` prints), each path class's own setting and whether switching pays, and each
    /// network's stalls against the window at the recommended policy and size.
    static func networkSection(_ networks: PopulationSummary, decision: ProfileDecision, charts: inout ReportCharts,
                               into page: inout MarkupWriter) {
        page.line("<h3>By network</h3>")
        page.line("<p class=\"help\">Each network of the population \(SVGText.escape(networks.overall.population!.name)) with its share and "
                  + "the path class an app can tell it by (NWPathMonitor): the recommendation's stalls a seed there, the network's own best "
                  + "configuration (ranked on that network alone, within the same memory limit) and its stalls, and what the one setting "
                  + "gives up there. The recommendation is ranked by the weighted sum, so a network with a small share can give up much.</p>")
        let header = ["network", "share", "path", "stalls there", "its own best", "its stalls", "gives up"]
        let numbers: Set = [1, 3, 5, 6]
        func cells(_ row: [String], tag: String) -> String {
            row.enumerated().map { index, text in
                "<\(tag)\(tag == "th" ? " scope=\"col\"" : "")\(numbers.contains(index) ? " class=\"number\"" : "")>\(SVGText.escape(text))</\(tag)>"
            }.joined()
        }
        page.line("<div class=\"table-wrap narrow\"><table class=\"networks\">")
        page.line("<thead><tr>" + cells(header, tag: "th") + "</tr></thead>")
        page.line("<tbody>")
        for row in networks.networkRows() { page.line("<tr>" + cells(row, tag: "td") + "</tr>") }
        page.line("</tbody></table></div>")
        let paths = networks.pathLines()
        if !paths.isEmpty {
            page.line("<p class=\"paths\">" + paths.map { line in SVGText.escape(String(line.drop { $0 == " " })) }.joined(separator: "<br>") + "</p>")
        }
        if let chart = charts.networkWindowChart(decision) {
            page.line("<div class=\"charts\">")
            page.append(SVGChart.render(chart))
            page.line("</div>")
        }
    }

    static func runs(_ count: Int) -> String { count == 1 ? "1 run" : "\(count) runs" }

    static func code(_ content: String) -> String { "<code>\(SVGText.escape(content))</code>" }

    /// The decision in words: the recommended policy, memory cache and window, its mean stalls
    /// with their range over the seeds, display-latency p95 and peak memory, and how many
    /// configurations tied with it within the seeds' noise.
    static func recommendation(_ decision: ProfileDecision) -> String {
        guard let profile = decision.profile else {
            return "Not a built-in profile: its memory limit is unknown, so no configuration is recommended."
        }
        guard let best = decision.recommended else {
            return "No recommendation: every configuration went over the profile's memory limit (\(FixedPoint.mebibytes(profile.memoryWarningBytes)))"
                + (decision.library == nil ? "." : " or the hitch bound.")
        }
        let ties = decision.equivalentCount - 1
        return "Recommended: \(best.setting(cellPixels: decision.summary?.widthsCell)) — "
            + "\(decision.stalls(best)), \(decision.latencyAndPeak(best)); \(decision.waits(best)). "
            + (ties == 0 ? "No other configuration is within the seeds' noise of its stalls."
                : "\(ties) other configuration\(ties == 1 ? " ties" : "s tie") with it within the seeds' noise (dashed in the maps); "
                    + "of those \(ties + 1) it has the smallest memory cache, then the fewest bytes downloaded.")
    }

    /// How the recommendation is chosen and what a seed's figures add up.
    static func rule(_ decision: ProfileDecision) -> String {
        let adding = decision.stallsFigure == .weightedStalls ? "each network's weighted by its share" : "summed"
        let counted = "A seed's stalls are those of \(decision.workloads), \(adding); figures are \(decision.seeds == 1 ? "of 1 seed" : "means over \(decision.seedsText)")."
        guard let profile = decision.profile else { return "Configurations are ranked by mean stalls alone. " + counted }
        let hitches = decision.library == nil ? "" : ", hitches at most \(TuneFigure.hitchRatio.format(Double(ImageLibrary.maxHitchRatio))) of scrolling"
        return "The rule bench run prints: the fewest mean \(decision.stallsName) among the configurations whose peak tracked memory stayed at or below "
            + "the memory-warning threshold (\(FixedPoint.mebibytes(profile.memoryWarningBytes)))\(hitches) with no jetsam kill on every seed; of those "
            + "within the seeds' noise of the fewest, the smallest memory cache, then the fewest bytes downloaded. " + counted
    }

    /// A table column: its title, whether it sorts as a number, and a row's cell (shown text
    /// and, for numbers, the exact value it sorts by).
    struct Column: Sendable {
        let title: String
        let numeric: Bool
        let cell: @Sendable (ReportRows.Row) -> (text: String, value: Int64)
    }

    static func identity(_ title: String, _ name: String) -> Column {
        let index = ReportRows.column(name)
        return Column(title: title, numeric: false) { ($0.identity[index], 0) }
    }

    static func figure(_ title: String, _ name: String, _ format: @escaping @Sendable (Int64) -> String) -> Column {
        Column(title: title, numeric: true) { row in (format(row.value(name)), row.value(name)) }
    }

    static let count: @Sendable (Int64) -> String = { String($0) }
    static let percent = unlessAbsent { FixedPoint.ratio($0, 10_000, decimals: 1) + " %" }
    static let milliseconds = unlessAbsent { FixedPoint.ratio($0, 1000, decimals: 1) + " ms" }
    static let mebibytes: @Sendable (Int64) -> String = { FixedPoint.mebibytes($0) }
    /// Stalls a minute of scrolling, one decimal.
    static let perMinute = unlessAbsent { FixedPoint.ratio($0, 1000, decimals: 1) }

    /// `format`, with an empty cell (`ResultMetric.absent`: no image shown, or a column the
    /// file was written before) as `—`.
    static func unlessAbsent(_ format: @escaping @Sendable (Int64) -> String) -> @Sendable (Int64) -> String {
        { $0 == ResultMetric.absent ? "—" : format($0) }
    }

    static let columns: [Column] = [
        identity("profile", "profile"), identity("network", "network"), identity("policy", "policy"),
        Column(title: "mem limit", numeric: true) { row in (FixedPoint.mebibytes(Int64(row.memoryLimit) ?? 0), Int64(row.memoryLimit) ?? 0) },
        identity("window", "prefetch_window"), identity("trace", "trace"), identity("seed", "seed"),
        identity("launches", "launches"), identity("scenario", "scenario"),
        figure("hit rate", "hit_rate", percent), figure("memory hits", "memory_hit_rate", percent),
        figure("display p50", "display_latency_ms_p50", milliseconds), figure("display p95", "display_latency_ms_p95", milliseconds),
        figure("display p99", "display_latency_ms_p99", milliseconds),
        figure("stalls", "stalls", count), figure("waited", "stall_rate", percent), figure("stalls/min", "stalls_per_minute", perMinute),
        figure("stall p50", "stall_ms_p50", milliseconds),
        figure("stall p95", "stall_ms_p95", milliseconds), figure("stall p99", "stall_ms_p99", milliseconds),
        figure("first image", "first_image_ms", milliseconds), figure("API calls", "api_requests", count),
        figure("image requests", "image_requests", count), figure("downloaded", "bytes_downloaded", mebibytes),
        figure("peak memory", "peak_memory_bytes", mebibytes), figure("mean memory", "mean_memory_bytes", mebibytes),
        figure("warnings", "memory_warnings", count), figure("kills", "jetsam_kills", count),
        figure("evictions", "evictions", count),
    ]

    static func table(_ rows: [ReportRows.Row], into page: inout MarkupWriter) {
        page.line("<div class=\"table-wrap\"><table class=\"sortable\">")
        page.line("<thead><tr>" + columns.map { column in
            "<th scope=\"col\"\(column.numeric ? " data-type=\"number\" class=\"number\"" : "")>\(SVGText.escape(column.title))</th>"
        }.joined() + "</tr></thead>")
        page.line("<tbody>")
        for row in rows {
            page.line("<tr>" + columns.map { column in
                let (text, value) = column.cell(row)
                return column.numeric ? "<td class=\"number\" data-v=\"\(value)\">\(SVGText.escape(text))</td>" : "<td>\(SVGText.escape(text))</td>"
            }.joined() + "</tr>")
        }
        page.line("</tbody></table></div>")
    }

    static let style = """
    body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:#1a1a1a;background:#fff;\
    max-width:1240px;margin:0 auto;padding:16px 20px 40px}
    h1{font-size:26px;margin:8px 0}h2{font-size:21px;margin:28px 0 6px;border-bottom:1px solid #ccc;padding-bottom:4px}\
    h3{font-size:16px;margin:18px 0 6px}
    p{max-width:1100px;line-height:1.45;font-size:14px}.help{color:#444}.recommendation{font-weight:600}.paths{font-size:13px}
    pre.settings{font-size:12px;background:#f6f6f6;padding:8px;overflow-x:auto;max-width:1100px}
    code{font-size:13px;background:#f3f3f3;padding:1px 4px;border-radius:3px}
    .charts{display:flex;flex-wrap:wrap;align-items:flex-start;gap:12px 16px}
    svg.chart{background:#fff;border:1px solid #ddd;border-radius:4px;font-family:inherit;max-width:100%;height:auto}
    svg.chart .chart-title{font-size:15px;font-weight:600;fill:#1a1a1a}svg.chart .chart-subtitle{font-size:12px;fill:#555}
    svg.chart .tick,svg.chart .legend-label{font-size:12px;fill:#222}svg.chart .axis-title{font-size:13px;fill:#1a1a1a}
    svg.chart .reference-label{font-size:12px;font-weight:600}svg.chart .chart-note{font-size:12px;fill:#8a1c00}
    svg.chart .grid line{stroke:#e6e6e6}svg.chart .axis line{stroke:#333}
    svg.chart .point:hover{stroke-width:3}svg.chart .cell-value{font-size:12px}
    @media (max-width:640px){body{padding:8px 10px 30px}h1{font-size:22px}h2{font-size:19px}}
    .table-wrap{overflow-x:auto;border:1px solid #ddd}.narrow{display:inline-block;max-width:100%}
    table{border-collapse:collapse;font-size:12px;white-space:nowrap}
    th,td{padding:3px 8px;border-bottom:1px solid #eee;text-align:left}td.number,th.number{text-align:right}
    th{position:sticky;top:0;background:#f3f3f3;cursor:pointer;user-select:none}
    th[aria-sort=ascending]::after{content:" ▲"}th[aria-sort=descending]::after{content:" ▼"}
    tbody tr:nth-child(even){background:#fafafa}
    """

    /// Sorts the table by a clicked column: numbers by their exact value, text by its order;
    /// stable, so equal cells keep their previous order.
    static let sortScript = """
    document.querySelectorAll("table.sortable th").forEach(function (th, column) {
      th.addEventListener("click", function () {
        var table = th.closest("table"), body = table.tBodies[0];
        var ascending = th.getAttribute("aria-sort") !== "ascending";
        table.querySelectorAll("th").forEach(function (other) { other.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        var numeric = th.dataset.type === "number";
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = a.cells[column], y = b.cells[column];
          var order = numeric ? Number(x.dataset.v) - Number(y.dataset.v) : x.textContent.localeCompare(y.textContent);
          return ascending ? order : -order;
        });
        rows.forEach(function (row) { body.appendChild(row); });
      });
    });
    """
}
