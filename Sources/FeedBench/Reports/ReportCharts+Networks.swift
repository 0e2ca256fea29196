extension ReportCharts {
    /// Over a population: each network's stalls a seed (its runs' stalls summed, seed by seed)
    /// against the prefetch window, at the focus's policy and memory cache, a line per network
    /// in the population's order — where the one setting's window serves a network and where
    /// that network would rather have another. `nil` unless the decision is over a population
    /// of several networks with a focus. A point that ran fewer seeds than the most any ran was
    /// screened out after its first seed, and its note says so. O(rows).
    mutating func networkWindowChart(_ decision: ProfileDecision, rows: [ReportRows.Row]) -> Chart? {
        guard let population = decision.networks?.overall.population, let focus = decision.focus else { return nil }
        let limit = String(focus.memoryLimitBytes)
        let mine = rows.filter { $0.policy == focus.policy && $0.memoryLimit == limit }
        let windows = ReportRows.distinct(mine.map(\.window))
        let (axis, xOf) = Self.windowAxis(windows)
        var chart = Chart(kind: "stalls-by-network", title: "Stalls on each network · \(decision.name)",
                          xTitle: axis == .numeric ? "prefetch window (items ahead)" : "prefetch window",
                          yTitle: "stalls a seed on the network", xAxis: axis)
        var seedsMost = 0
        var series: [(name: String, points: [(window: String, values: [Double])])] = []
        for member in population.members {
            let here = mine.filter { $0.identity[ReportRows.network] == member.network.name }
            let points = Self.windowOrder(windows).compactMap { window -> (String, [Double])? in
                let runs = here.filter { $0.window == window }
                let seeds = ReportRows.distinct(runs.map { $0.identity[ReportRows.seed] })
                guard !seeds.isEmpty else { return nil }
                let values = seeds.map { seed in Double(runs.filter { $0.identity[ReportRows.seed] == seed }.map { $0.value("stalls") }.reduce(0, +)) }
                seedsMost = max(seedsMost, values.count)
                return (window, values)
            }
            series.append(("\(member.network.name) (\(MatrixSummary.percent(member.share)))", points))
        }
        let format = { (value: Double) in FixedPoint.decimal(value, decimals: 1) }
        var screenedOut = false
        for line in series {
            let points = line.points.map { point in
                let screened = point.values.count < seedsMost ? " — screened out after seed 1" : ""
                screenedOut = screenedOut || !screened.isEmpty
                return Self.seedPoint(x: xOf[point.window]!, values: point.values, label: "\(line.name), window \(point.window)\(screened)", format: format)
            }
            chart.series.append(Chart.Series(name: line.name, style: style(line.name), points: points))
        }
        chart.subtitle = ["\(focus.policy), memory cache \(FixedPoint.cacheLimit(focus.memoryLimitBytes)) (\(decision.focusReason("policy and size")))",
                          "recommended window \(focus.window)", Self.seedsSubtitle(seedsMost)]
            .joined(separator: " · ") + (screenedOut ? "; points the screened search ran on seed 1 only say so on hover" : "")
        chart.noteCoincidentSeries()
        return chart
    }
}
