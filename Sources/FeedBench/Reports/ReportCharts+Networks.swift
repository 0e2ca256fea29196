extension ReportCharts {
    /// Over a population: each network's stalls a seed against the prefetch window, at the
    /// focus's policy and memory cache, a line per network in the population's order — where the
    /// one setting's window serves a network and where that network would rather have another.
    /// Each point is the network's own ranking's candidate (`PopulationSummary.NetworkLine`), its
    /// seeds' stalls; one that ran fewer seeds than the most any ran was screened out after its
    /// first seed, and its note says so. `nil` unless the decision is over a population of
    /// several networks with a focus. O(networks × candidates).
    mutating func networkWindowChart(_ decision: ProfileDecision) -> Chart? {
        guard let networks = decision.networks, let focus = decision.focus else { return nil }
        let lines = networks.networks.map { line in
            (line, line.summary.ranking.filter {
                $0.policy == focus.policy && $0.memoryLimitBytes == focus.memoryLimitBytes && $0.imageWidth == focus.imageWidth
            })
        }
        let windows = ReportRows.distinct(lines.flatMap { $0.1.map(\.window) })
        let (axis, xOf) = Self.windowAxis(windows)
        var chart = Chart(kind: "stalls-by-network", title: "Stalls on each network · \(decision.name)",
                          xTitle: Self.windowTitle(axis), yTitle: "stalls a seed on the network", xAxis: axis)
        let seedsMost = lines.flatMap { $0.1.map(\.samples.count) }.max() ?? 0
        let format = { (value: Double) in FixedPoint.decimal(value, decimals: 1) }
        var screenedOut = false
        for (line, candidates) in lines {
            let name = "\(line.member.network.name) (\(MatrixSummary.percent(line.member.share)))"
            let points = Self.windowOrder(windows).compactMap { window -> Chart.Point? in
                guard let candidate = candidates.first(where: { $0.window == window }) else { return nil }
                let screened = candidate.samples.count < seedsMost
                screenedOut = screenedOut || screened
                return Self.seedPoint(x: xOf[window]!, values: candidate.samples.map { Double($0.stalls) },
                                      label: "\(name), window \(window)\(screened ? " — screened out after seed 1" : "")", format: format)
            }
            chart.series.append(Chart.Series(name: name, style: style(name), points: points))
        }
        chart.subtitle = ["\(focus.policy), memory cache \(FixedPoint.cacheLimit(focus.memoryLimitBytes)) (\(decision.focusReason("policy and size")))",
                          "recommended window \(focus.window)", Self.seedsSubtitle(seedsMost)]
            .joined(separator: " · ") + (screenedOut ? "; points the screened search ran on seed 1 only say so on hover" : "")
        chart.noteCoincidentSeries()
        return chart
    }
}
