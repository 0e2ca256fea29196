/// `bench report`'s page: one self-contained HTML file (inline CSS and SVG, a few lines of
/// inline script to sort the table; nothing fetched, opens offline) with, per profile, the
/// recommendation (`MatrixSummary`), stalls against cache size at the recommended window and
/// the memory/stall Pareto front, then stalls, display-wait p95, hit rate and peak memory
/// against the prefetch window for each trace, seeds averaged (`ReportCharts`),
/// memory over time for each run of a timeline, and a sortable table of every row.
/// Deterministic: the same inputs give the same bytes (no clock, no dictionary order).
public enum HTMLReport {
    /// The page for `results` (each run once across them) and an optional timeline of their runs.
    public static func render(results: [ResultsFile], timeline: TimelineFile? = nil) throws -> String {
        let rows = try ReportRows(results)
        var charts = ReportCharts(rows: rows)
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
        let inputs = results.map { "\(code($0.path)) (\(runs($0.rows.filter { !$0.isAggregate }.count)))" } + (timeline.map { ["timeline " + code($0.path)] } ?? [])
        page.line("<p class=\"inputs\">From \(inputs.joined(separator: ", ")).</p>")
        page.line("<p class=\"help\">Hover a point for its figures. Prefetch windows that are plain item counts sit on a numeric axis; "
                  + "when a chart has other forms (N+M, Xscreens, device, velocity, adaptive:N) every window is a category, in the order "
                  + "item counts, N+M, screens, device, velocity, adaptive. Memory is tracked memory (memory cache + on-screen bitmaps + "
                  + "in-flight downloads), in MiB.</p>")

        for (name, profileRows) in rows.byProfile {
            let profile = DeviceProfile.builtIn.first { $0.name == name }
            page.line("<section class=\"profile\">")
            page.line("<h2>\(SVGText.escape(name))\(profile.map { " — " + SVGText.escape($0.model) } ?? " — not a built-in profile")</h2>")
            page.line("<p class=\"recommendation\">\(SVGText.escape(recommendation(profile: profile, rows: profileRows)))</p>")
            page.line("<div class=\"charts\">")
            if let sizes = charts.cacheSizes(profileName: name, profile: profile, rows: profileRows) { page.append(SVGChart.render(sizes)) }
            page.append(SVGChart.render(ReportCharts.pareto(profileName: name, profile: profile, rows: profileRows)))
            page.line("</div>")
            let cache = profile.flatMap { MatrixSummary(profile: $0, runs: profileRows.map(\.summaryRun)).recommended?.memoryLimitBytes }
            for group in ReportCharts.groups(profileRows) {
                page.line("<h3>\(SVGText.escape(group.key[2])) · network \(SVGText.escape(group.key[1]))</h3>")
                page.line("<div class=\"charts\">")
                for chart in charts.windowCharts(group, profile: profile, cache: cache) { page.append(SVGChart.render(chart)) }
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
        page.line("<p class=\"help\">Click a column title to sort by it; click again to reverse.</p>")
        table(rows.rows, into: &page)
        page.line("</section>")
        page.line("<script>\(sortScript)</script>")
        page.line("</body>")
        page.line("</html>")
        return page.text
    }

    static func runs(_ count: Int) -> String { count == 1 ? "1 run" : "\(count) runs" }

    static func code(_ content: String) -> String { "<code>\(SVGText.escape(content))</code>" }

    /// `MatrixSummary`'s recommendation for a profile, in words.
    static func recommendation(profile: DeviceProfile?, rows: [ReportRows.Row]) -> String {
        guard let profile else {
            return "Not a built-in profile: its memory limit is unknown, so no configuration is recommended."
        }
        let summary = MatrixSummary(profile: profile, runs: rows.map(\.summaryRun))
        guard let best = summary.recommended else {
            return "No recommendation: every configuration went over the profile's memory limit (\(FixedPoint.mebibytes(profile.memoryWarningBytes)))."
        }
        let stalls = best.spread(.stalls)
        return "Recommended (fewest stalls within the memory-warning threshold, \(FixedPoint.mebibytes(profile.memoryWarningBytes)), "
            + "and no jetsam kill; of those within the seeds' noise, the smallest cache): \(best.policy), memory cache "
            + "\(FixedPoint.mebibytes(best.memoryLimitBytes)), prefetch window \(best.window) — \(TuneFigure.stalls.format(stalls.mean)) stalls "
            + "a seed (\(stalls.min)–\(stalls.max) over \(summary.seeds) seed\(summary.seeds == 1 ? "" : "s")), display wait p95 "
            + "\(TuneFigure.displayP95.format(best.spread(.displayP95).mean)), peak memory \(FixedPoint.mebibytes(Int64(best.spread(.peakMemory).mean.rounded())))."
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
    static let percent: @Sendable (Int64) -> String = { FixedPoint.ratio($0, 10_000, decimals: 1) + " %" }
    static let milliseconds: @Sendable (Int64) -> String = { FixedPoint.ratio($0, 1000, decimals: 1) + " ms" }
    static let mebibytes: @Sendable (Int64) -> String = { FixedPoint.mebibytes($0) }

    static let columns: [Column] = [
        identity("profile", "profile"), identity("network", "network"), identity("policy", "policy"),
        Column(title: "mem limit", numeric: true) { row in (FixedPoint.mebibytes(Int64(row.memoryLimit) ?? 0), Int64(row.memoryLimit) ?? 0) },
        identity("window", "prefetch_window"), identity("trace", "trace"), identity("seed", "seed"),
        identity("launches", "launches"), identity("scenario", "scenario"),
        figure("hit rate", "hit_rate", percent), figure("memory hits", "memory_hit_rate", percent),
        figure("stalls", "stalls", count), figure("p50 stall", "stall_ms_p50", milliseconds),
        figure("p95 stall", "stall_ms_p95", milliseconds), figure("p99 stall", "stall_ms_p99", milliseconds),
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
    p{max-width:1100px;line-height:1.45;font-size:14px}.help{color:#444}.recommendation{font-weight:600}
    code{font-size:13px;background:#f3f3f3;padding:1px 4px;border-radius:3px}
    .charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,600px),600px));gap:12px 16px}
    svg.chart{background:#fff;border:1px solid #ddd;border-radius:4px;font-family:inherit;max-width:100%;height:auto}
    svg.chart .chart-title{font-size:15px;font-weight:600;fill:#1a1a1a}svg.chart .chart-subtitle{font-size:12px;fill:#555}
    svg.chart .tick,svg.chart .legend-label{font-size:12px;fill:#222}svg.chart .axis-title{font-size:13px;fill:#1a1a1a}
    svg.chart .reference-label{font-size:12px;font-weight:600}svg.chart .chart-note{font-size:12px;fill:#8a1c00}
    svg.chart .grid line{stroke:#e6e6e6}svg.chart .axis line{stroke:#333}
    svg.chart .point:hover{stroke-width:3}
    .table-wrap{overflow-x:auto;border:1px solid #ddd}
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
