/// The charts of `bench report`, built from results rows (and a timeline): per profile the
/// memory/stall Pareto front; per group of runs that differ only in policy, limits and window,
/// hit rate, stall p95 and peak memory against the prefetch window, one line per policy.
///
/// The window axis: when every window of a chart is a plain item count (`0`, `20`), the axis
/// is numeric, so distances are true; when any is another form (`20+5`, `1.5screens`,
/// `device`, `velocity`, `adaptive:20`), every window is a category, evenly spaced, in the
/// order item counts, N+M, screens, device, velocity, adaptive (each by size), then anything
/// unrecognised in file order — those forms have no common numeric scale.
struct ReportCharts {
    let rows: ReportRows
    /// The style of each series name, by first appearance over all files, so a policy looks
    /// the same in every chart.
    var styles: [String: SeriesStyle] = [:]

    init(rows: ReportRows) {
        self.rows = rows
    }

    mutating func style(_ name: String) -> SeriesStyle {
        if let style = styles[name] { return style }
        let style = SeriesStyle.palette(styles.count)
        styles[name] = style
        return style
    }

    /// Runs that share everything but policy, limits, window and seed: one set of window charts.
    struct Group {
        /// profile, network, trace, launches, scenario.
        let key: [String]
        let rows: [ReportRows.Row]
    }

    static let groupColumns = ["profile", "network", "trace", "launches", "scenario"].map(ReportRows.column)

    static func groups(_ rows: [ReportRows.Row]) -> [Group] {
        let keyOf = { (row: ReportRows.Row) in groupColumns.map { row.identity[$0] } }
        return ReportRows.distinct(rows.map(keyOf)).map { key in Group(key: key, rows: rows.filter { keyOf($0) == key }) }
    }

    // MARK: Window charts

    /// The x axis for `windows` and each window's x value (see the type's description).
    static func windowAxis(_ windows: [String]) -> (axis: Chart.XAxis, x: [String: Double]) {
        if windows.allSatisfy({ Int($0) != nil }) {
            return (.numeric, Dictionary(uniqueKeysWithValues: windows.map { ($0, Double(Int($0)!)) }))
        }
        func key(_ window: String, _ position: Int) -> [Double] {
            guard let mode = try? WindowMode.parse(window, source: "") else { return [6, Double(position)] }
            switch mode {
            case let .items(w): return [w.behind == 0 ? 0 : 1, Double(w.ahead), Double(w.behind)]
            case let .screens(count): return [2, count]
            case .device: return [3]
            case .velocity: return [4]
            case let .adaptive(start): return [5, Double(start)]
            }
        }
        let ordered = windows.enumerated().sorted { a, b in
            let (x, y) = (key(a.element, a.offset), key(b.element, b.offset))
            return x.lexicographicallyPrecedes(y) || (x == y && a.offset < b.offset)
        }.map(\.element)
        return (.categorical(ordered), Dictionary(uniqueKeysWithValues: ordered.enumerated().map { ($0.element, Double($0.offset)) }))
    }

    /// A metric of the window charts: its chart kind, title, y axis and how a row maps to y.
    struct WindowMetric: Sendable {
        let kind: String
        let title: String
        let yTitle: String
        let yRange: ClosedRange<Double>?
        let y: @Sendable (ReportRows.Row) -> Double
        let note: @Sendable (Double) -> String
    }

    static let hitRate = WindowMetric(kind: "hit-rate", title: "Hit rate", yTitle: "hit rate (%, memory + disk)", yRange: 0...100,
                                      y: { Double($0.value("hit_rate")) / 10_000 }, note: { FixedPoint.decimal($0, decimals: 1) + " %" })
    static let stalls = WindowMetric(kind: "stalls", title: "Stalls", yTitle: "stalls (displays that waited)", yRange: nil,
                                     y: { Double($0.value("stalls")) }, note: { FixedPoint.decimal($0, decimals: 1) + " stalls" })
    static let displayP95 = WindowMetric(kind: "display-p95", title: "Display wait p95", yTitle: "p95 wait of every display (ms)", yRange: nil,
                                         y: { Double($0.value("display_latency_ms_p95")) / 1000 }, note: { FixedPoint.decimal($0, decimals: 1) + " ms" })
    static let peakMemory = WindowMetric(kind: "peak-memory", title: "Peak memory", yTitle: "peak tracked memory (MiB)", yRange: nil,
                                         y: { Double($0.value("peak_memory_bytes")) / 1_048_576 }, note: { FixedPoint.decimal($0, decimals: 1) + " MiB" })

    /// The stalls, display-wait p95, hit-rate and peak-memory charts of one group: one line per
    /// policy (and disk limit, when those differ), each point the mean over the seeds (its
    /// range in the point's note), all at one memory-cache size — `cache` (the profile's
    /// recommended size) when the group has it, otherwise the group's first — so that a chart
    /// never holds a line per seed or per size.
    mutating func windowCharts(_ group: Group, profile: DeviceProfile?, cache: Int64?) -> [Chart] {
        let limits = ReportRows.distinct(group.rows.map(\.memoryLimit))
        let limit = cache.map(String.init).flatMap { limits.contains($0) ? $0 : nil } ?? limits[0]
        let rows = group.rows.filter { $0.memoryLimit == limit }
        let (axis, xOf) = Self.windowAxis(ReportRows.distinct(rows.map(\.window)))
        let configurations = ReportRows.distinct(rows.map { [$0.policy, $0.diskLimit] })
        let disks = Set(configurations.map { $0[1] }).count
        func name(_ configuration: [String]) -> String {
            configuration[0] + (disks == 1 ? "" : " · disk \(FixedPoint.mebibytes(Int64(configuration[1]) ?? 0))")
        }
        let seeds = Set(rows.map { $0.identity[ReportRows.seed] }).count
        let size = FixedPoint.mebibytes(Int64(limit) ?? 0)
        let sizeText = limits.count == 1 ? "cache \(size)" : "cache \(size) (\(cache.map(String.init) == limit ? "recommended; " : "")\(limits.count) tried)"
        let session = (group.key[3] == "1" ? [] : ["\(group.key[3]) launches"]) + (group.key[4] == "cacheFirst" ? [] : [group.key[4]])
        let subtitle = ([group.key[1]] + session + [sizeText, "mean of \(seeds) seed\(seeds == 1 ? "" : "s")"]).joined(separator: " · ")
        var charts: [Chart] = []
        for metric in [Self.stalls, Self.displayP95, Self.hitRate, Self.peakMemory] {
            var chart = Chart(kind: metric.kind, title: "\(metric.title) · \(group.key[0]) · \(group.key[2])",
                              xTitle: axis == .numeric ? "prefetch window (items ahead)" : "prefetch window",
                              yTitle: metric.yTitle, xAxis: axis)
            chart.subtitle = subtitle
            chart.yRange = metric.yRange
            for configuration in configurations {
                let label = name(configuration)
                let mine = rows.filter { [$0.policy, $0.diskLimit] == configuration }
                let points = ReportRows.distinct(mine.map(\.window)).sorted { xOf[$0]! < xOf[$1]! }.map { window in
                    let ys = mine.filter { $0.window == window }.map(metric.y)
                    let mean = ys.reduce(0, +) / Double(ys.count)
                    let range = ys.count > 1 ? " (\(metric.note(ys.min()!))–\(metric.note(ys.max()!)))" : ""
                    return Chart.Point(x: xOf[window]!, y: mean, note: "\(label), window \(window): \(metric.note(mean))\(range)")
                }
                chart.series.append(Chart.Series(name: label, style: style(label), points: points))
            }
            chart.noteCoincidentSeries()
            if metric.kind == Self.peakMemory.kind { Self.addLimits(to: &chart, profile: profile, name: group.key[0], axis: .horizontal, jetsam: true) }
            charts.append(chart)
        }
        return charts
    }

    /// Draws the profile's memory-warning threshold (and its jetsam limit when `jetsam`) on a
    /// chart in MiB; for a profile that is not built in, says why they are missing.
    static func addLimits(to chart: inout Chart, profile: DeviceProfile?, name: String,
                          axis: Chart.ReferenceLine.Orientation, jetsam: Bool) {
        guard let profile else {
            let what = jetsam ? "memory-warning threshold and jetsam limit are" : "memory-warning threshold is"
            chart.notes.append("Profile \(InputError.quote(name)) is not built in: its \(what) unknown, not drawn.")
            return
        }
        chart.referenceLines.append(Chart.ReferenceLine(
            orientation: axis, value: Double(profile.memoryWarningBytes) / 1_048_576,
            label: "memory warning \(FixedPoint.mebibytes(profile.memoryWarningBytes))", colour: "#B35900", dash: "6 3"))
        if jetsam {
            chart.referenceLines.append(Chart.ReferenceLine(
                orientation: axis, value: Double(profile.jetsamLimitBytes) / 1_048_576,
                label: "jetsam limit \(FixedPoint.mebibytes(profile.jetsamLimitBytes))", colour: "#B00020", dash: "2 3"))
        }
    }

    // MARK: Cache size

    /// The decision's other axis: mean stalls a seed against the memory-cache size, at the
    /// recommended window, one line per policy (points in the note carry the seeds' range and
    /// peak memory); the recommendation marked. `nil` when only one size was tried or nothing
    /// is recommended.
    mutating func cacheSizes(profileName: String, profile: DeviceProfile?, rows: [ReportRows.Row]) -> Chart? {
        guard let profile else { return nil }
        let summary = MatrixSummary(profile: profile, runs: rows.map(\.summaryRun))
        guard let best = summary.recommended, Set(summary.ranking.map(\.memoryLimitBytes)).count > 1 else { return nil }
        var chart = Chart(kind: "cache-size", title: "Stalls vs cache size · \(profileName) · window \(best.window)",
                          xTitle: "memory-cache size (MiB)", yTitle: "stalls (mean a seed, over its runs)", xAxis: .numeric)
        chart.subtitle = "the recommended window; each point the mean over \(summary.seeds) seed\(summary.seeds == 1 ? "" : "s")"
        let atWindow = summary.ranking.filter { $0.window == best.window }
        for policy in ReportRows.distinct(atWindow.map(\.policy)) {
            let points = atWindow.filter { $0.policy == policy }.sorted { $0.memoryLimitBytes < $1.memoryLimitBytes }.map { candidate in
                let stalls = candidate.spread(.stalls)
                return Chart.Point(x: Double(candidate.memoryLimitBytes) / 1_048_576, y: stalls.mean,
                                   note: "\(policy) · \(FixedPoint.mebibytes(candidate.memoryLimitBytes)): \(TuneFigure.stalls.format(stalls.mean)) stalls (\(stalls.min)–\(stalls.max)), peak \(FixedPoint.mebibytes(Int64(candidate.spread(.peakMemory).mean.rounded())))\(summary.criteria.feasible(candidate) ? "" : ", over the limit")")
            }
            chart.series.append(Chart.Series(name: policy, style: style(policy), points: points))
        }
        let stalls = best.spread(.stalls).mean
        chart.series.append(Chart.Series(name: "recommended: \(best.policy), \(FixedPoint.mebibytes(best.memoryLimitBytes))",
                                         style: SeriesStyle(colour: "#E69F00", dash: "", marker: .star),
                                         points: [Chart.Point(x: Double(best.memoryLimitBytes) / 1_048_576, y: stalls, note: "recommended")], joined: false))
        chart.noteCoincidentSeries()
        return chart
    }

    // MARK: Pareto

    /// Peak memory against total stalls for every configuration of a profile (as
    /// `MatrixSummary` sums them), the front of configurations no other beats on both, and
    /// `MatrixSummary`'s recommendation.
    static func pareto(profileName: String, profile: DeviceProfile?, rows: [ReportRows.Row]) -> Chart {
        var chart = Chart(kind: "pareto", title: "Memory vs stalls · \(profileName)", xTitle: "peak tracked memory (MiB, mean of the seeds' worst run)",
                          yTitle: "stalls (mean a seed, over its runs)", xAxis: .numeric)
        chart.subtitle = "one point per policy × cache size × window; the front: no other is lower on both"
        let runs = rows.map(\.summaryRun)
        let entries: [TuneCandidate]
        var recommended: TuneCandidate?
        var within: (TuneCandidate) -> Bool = { _ in true }
        if let profile {
            let summary = MatrixSummary(profile: profile, runs: runs)
            entries = summary.ranking
            recommended = summary.recommended
            within = summary.criteria.feasible
        } else {
            entries = MatrixSummary.candidates(runs)
        }
        func peak(_ entry: TuneCandidate) -> Double { entry.spread(.peakMemory).mean }
        func stalls(_ entry: TuneCandidate) -> Double { entry.spread(.stalls).mean }
        func point(_ entry: TuneCandidate) -> Chart.Point {
            Chart.Point(x: peak(entry) / 1_048_576, y: stalls(entry),
                        note: "\(entry.policy) · \(FixedPoint.mebibytes(entry.memoryLimitBytes)) · window \(entry.window): "
                            + "\(TuneFigure.stalls.format(stalls(entry))) stalls, peak \(FixedPoint.mebibytes(Int64(peak(entry).rounded())))")
        }
        let inside = entries.filter(within), over = entries.filter { !within($0) }
        chart.series.append(Chart.Series(name: profile == nil ? "configurations" : "within the memory limit",
                                         style: SeriesStyle(colour: "#0072B2", dash: "", marker: .circle), points: inside.map(point), joined: false))
        if !over.isEmpty {
            chart.series.append(Chart.Series(name: "over the limit", style: SeriesStyle(colour: "#B00020", dash: "", marker: .cross),
                                             points: over.map(point), joined: false))
        }
        // The front: by peak memory (then stalls), each point with fewer stalls than all before it.
        var front: [TuneCandidate] = []
        for entry in entries.sorted(by: { (peak($0), stalls($0)) < (peak($1), stalls($1)) })
        where front.last.map({ stalls(entry) < stalls($0) }) ?? true {
            front.append(entry)
        }
        chart.series.append(Chart.Series(name: "Pareto front", style: SeriesStyle(colour: "#000000", dash: "5 3", marker: .diamond, hollow: true),
                                         points: front.map(point)))
        if let best = recommended {
            chart.series.append(Chart.Series(name: "recommended: \(best.policy), \(FixedPoint.mebibytes(best.memoryLimitBytes)), window \(best.window)",
                                             style: SeriesStyle(colour: "#E69F00", dash: "", marker: .star), points: [point(best)], joined: false))
        } else if profile != nil {
            chart.notes.append("No recommendation: every configuration went over the profile's memory limit.")
        }
        addLimits(to: &chart, profile: profile, name: profileName, axis: .vertical, jetsam: false)
        if profile == nil { chart.notes.append("Without the threshold no configuration is recommended.") }
        return chart
    }

    // MARK: Timelines

    /// Memory over time of one run: the three parts of tracked memory stacked (each second's
    /// peak), launches one after another, memory warnings and jetsam kills marked on top, and
    /// the profile's warning threshold.
    static func timeline(_ run: TimelineFile.Run) -> Chart {
        let id = run.identity
        let profileName = id[ReportRows.profile]
        let profile = DeviceProfile.builtIn.first { $0.name == profileName }
        var chart = Chart(kind: "timeline", title: "Memory over time · \(id[ReportRows.policy]) · window \(id[ReportRows.window]) · \(id[ReportRows.trace])",
                          xTitle: "simulated time (s, launches one after another)", yTitle: "tracked memory (MiB)", xAxis: .numeric)
        chart.subtitle = "\(profileName) · network \(id[ReportRows.network]) · memory cache \(FixedPoint.mebibytes(Int64(id[ReportRows.memoryLimit]) ?? 0))"
            + " · seed \(id[ReportRows.column("seed")]) · \(id[ReportRows.column("scenario")])"
        // Each launch starts where the previous one's last second ended.
        var offsets: [Int: Double] = [:]
        var next = 0.0
        for launch in ReportRows.distinct(run.seconds.map(\.launch)) {
            offsets[launch] = next
            let last = run.seconds.filter { $0.launch == launch }.map(\.second).max() ?? 0
            if launch > run.seconds[0].launch {
                chart.referenceLines.append(Chart.ReferenceLine(orientation: .vertical, value: next, label: "launch \(launch)", colour: "#555", dash: "1 3"))
            }
            next += Double(last + 1)
        }
        let parts: [(String, String, (TimelineSecond) -> Int64)] = [
            ("memory cache", "#0072B2", \.memoryCacheBytes), ("on-screen bitmaps", "#E69F00", \.bitmapBytes),
            ("in-flight downloads", "#F0E442", \.inflightBytes),
        ]
        var xs: [Double] = []
        for second in run.seconds {
            let start = offsets[second.launch]! + Double(second.second)
            xs += [start, start + 1]
        }
        var base = [Double](repeating: 0, count: xs.count)
        for (name, colour, bytes) in parts {
            let top = zip(base, run.seconds.flatMap { [bytes($0), bytes($0)] }).map { $0 + Double($1) / 1_048_576 }
            chart.areas.append(Chart.Area(name: name, colour: colour, xs: xs, lower: base, upper: top))
            base = top
        }
        func marks(_ count: (TimelineSecond) -> Int) -> [Chart.Point] {
            run.seconds.enumerated().filter { count($0.element) > 0 }.map { index, second in
                Chart.Point(x: xs[2 * index] + 0.5, y: base[2 * index],
                            note: "launch \(second.launch), second \(second.second): \(count(second)), peak \(FixedPoint.mebibytes(second.memoryCacheBytes + second.bitmapBytes + second.inflightBytes))")
            }
        }
        let warnings = marks(\.memoryWarnings), kills = marks(\.jetsamKills)
        chart.series.append(Chart.Series(name: "memory warning (\(run.seconds.reduce(0) { $0 + $1.memoryWarnings }))",
                                         style: SeriesStyle(colour: "#D55E00", dash: "", marker: .invertedTriangle), points: warnings, joined: false))
        chart.series.append(Chart.Series(name: "jetsam kill (\(run.seconds.reduce(0) { $0 + $1.jetsamKills }))",
                                         style: SeriesStyle(colour: "#000000", dash: "", marker: .cross), points: kills, joined: false))
        addLimits(to: &chart, profile: profile, name: profileName, axis: .horizontal, jetsam: false)
        return chart
    }
}
