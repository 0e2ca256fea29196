extension ReportCharts {
    /// Runs that share everything but policy, limits, window and seed: one set of window charts.
    struct Group {
        /// profile, network, trace, launches, scenario.
        let key: [String]
        let rows: [ReportRows.Row]
    }

    static let groupColumns = ["profile", "network", "trace", "launches", "scenario"].map(ReportRows.column)

    /// `rows` grouped by `groupColumns`, in the order each group first appears.
    static func groups(_ rows: [ReportRows.Row]) -> [Group] {
        let keyOf = { (row: ReportRows.Row) in groupColumns.map { row.identity[$0] } }
        return ReportRows.distinct(rows.map(keyOf)).map { key in Group(key: key, rows: rows.filter { keyOf($0) == key }) }
    }

    /// A group's heading: its trace and network, then its launches and scenario when they
    /// differ among `groups`.
    static func heading(_ group: Group, among groups: [Group]) -> String {
        let varying = [(3, "launches"), (4, "scenario")].filter { index, _ in Set(groups.map { $0.key[index] }).count > 1 }
        return (["\(group.key[2])", "network \(group.key[1])"] + varying.map { "\($1) \(group.key[$0])" }).joined(separator: " · ")
    }

    /// A figure of the window charts: its chart kind, title, y axis and how a row maps to y.
    struct WindowMetric: Sendable {
        let kind: String
        let title: String
        let yTitle: String
        let yRange: ClosedRange<Double>?
        let y: @Sendable (ReportRows.Row) -> Double
        let format: @Sendable (Double) -> String
    }

    static let hitRate = WindowMetric(kind: "hit-rate", title: "Hit rate", yTitle: "hit rate (%, memory + disk)", yRange: 0...100,
                                      y: { Double($0.value("hit_rate")) / 10_000 }, format: { FixedPoint.decimal($0, decimals: 1) + " %" })
    static let displayP95 = WindowMetric(kind: "display-p95", title: "Display latency p95", yTitle: "display latency p95 (ms)", yRange: nil,
                                         y: { Double($0.value("display_latency_ms_p95")) / 1000 }, format: { FixedPoint.decimal($0, decimals: 1) + " ms" })
    static let peakMemory = WindowMetric(kind: "peak-memory", title: "Peak memory", yTitle: "peak tracked memory (MiB)", yRange: nil,
                                         y: { Double($0.value("peak_memory_bytes")) / 1_048_576 }, format: { FixedPoint.decimal($0, decimals: 1) + " MiB" })

    /// The hit-rate, display-latency-p95 and peak-memory charts of one group against the
    /// window: a line per configuration named by what differs among them (the policy; the
    /// memory and disk limits only when they vary), each point the mean over the seeds with a
    /// min–max whisker. When the group tries several memory-cache limits, only the focus's is
    /// drawn, and the subtitle says so.
    mutating func windowCharts(_ group: Group, decision: ProfileDecision) -> [Chart] {
        let limits = ReportRows.distinct(group.rows.map(\.memoryLimit))
        let focusLimit = decision.focus.map { String($0.memoryLimitBytes) }
        let atFocus = limits.count > 1 && focusLimit.map(limits.contains) == true
        let rows = atFocus ? group.rows.filter { $0.memoryLimit == focusLimit } : group.rows
        let windows = ReportRows.distinct(rows.map(\.window))
        let (axis, xOf) = Self.windowAxis(windows)
        let configurations = ReportRows.distinct(rows.map { [$0.policy, $0.memoryLimit, $0.diskLimit] })
        let (limitsVary, disksVary) = (Set(configurations.map { $0[1] }).count > 1, Set(configurations.map { $0[2] }).count > 1)
        func name(_ configuration: [String]) -> String {
            ([configuration[0]] + (limitsVary ? [FixedPoint.mebibytes(Int64(configuration[1]) ?? 0)] : [])
                + (disksVary ? ["disk " + FixedPoint.mebibytes(Int64(configuration[2]) ?? 0)] : [])).joined(separator: " · ")
        }
        let seeds = Dictionary(grouping: rows) { [$0.policy, $0.memoryLimit, $0.diskLimit, $0.window] }.values.map(\.count).max() ?? 0
        let cache = limitsVary ? [] : ["memory cache \(FixedPoint.mebibytes(Int64(rows[0].memoryLimit) ?? 0))"
            + (atFocus ? " (\(decision.focusReason("size")))" : "")]
        let subtitle = (["network \(group.key[1])", "launches \(group.key[3])", "scenario \(group.key[4])"] + cache + [Self.seedsSubtitle(seeds)])
            .joined(separator: " · ")
        var charts: [Chart] = []
        for metric in [Self.hitRate, Self.displayP95, Self.peakMemory] {
            var chart = Chart(kind: metric.kind, title: "\(metric.title) · \(group.key[0]) · \(group.key[2])",
                              xTitle: Self.windowTitle(axis),
                              yTitle: metric.yTitle, xAxis: axis)
            chart.subtitle = subtitle
            chart.yRange = metric.yRange
            for configuration in configurations {
                let label = name(configuration)
                let mine = rows.filter { [$0.policy, $0.memoryLimit, $0.diskLimit] == configuration }
                let points = Self.windowOrder(windows).compactMap { window -> Chart.Point? in
                    let values = mine.filter { $0.window == window }.map(metric.y)
                    return values.isEmpty ? nil : Self.seedPoint(x: xOf[window]!, values: values, label: "\(label), window \(window)", format: metric.format)
                }
                chart.series.append(Chart.Series(name: label, style: style(label), points: points))
            }
            chart.noteCoincidentSeries()
            if metric.kind == Self.peakMemory.kind {
                Self.addLimits(to: &chart, profile: decision.profile, name: group.key[0], axis: .horizontal, jetsam: true)
            }
            charts.append(chart)
        }
        return charts
    }
}
