extension ReportCharts {
    /// A figure drawn against the memory cache: its chart kind, title, y axis and how a seed's
    /// sample maps to y.
    struct CacheSizeMetric: Sendable {
        let kind: String
        let title: String
        let yTitle: String
        let y: @Sendable (TuneSample) -> Double
        let format: @Sendable (Double) -> String
    }

    /// The stalls `decision` ranks by (`ProfileDecision.stallsFigure`), in stalls.
    static func stallsByCache(_ decision: ProfileDecision) -> CacheSizeMetric {
        let figure = decision.stallsFigure
        return CacheSizeMetric(kind: "stalls-by-cache", title: "Stalls against memory cache",
                               yTitle: "stalls a seed (\(decision.stallsSummed))", y: { Double(figure.value($0)) / figure.storedPerShown },
                               format: { figure.format($0 * figure.storedPerShown) })
    }
    static let peakMemoryByCache = CacheSizeMetric(kind: "peak-memory-by-cache", title: "Peak memory against memory cache",
                                                   yTitle: "peak tracked memory (MiB)", y: { Double($0.peakMemory) / 1_048_576 },
                                                   format: { FixedPoint.decimal($0, decimals: 1) + " MiB" })

    /// Stalls and peak memory against the memory-cache limit at the focus's window, one line
    /// per policy, each point the mean over the seeds with a min–max whisker; the stalls chart
    /// stars the recommendation, the memory chart draws the profile's limits. None when the
    /// profile's runs try a single memory-cache limit.
    mutating func cacheSizeCharts(_ decision: ProfileDecision) -> [Chart] {
        let drawn = decision.drawn
        guard let focus = decision.focus, Set(drawn.map(\.memoryLimitBytes)).count > 1 else { return [] }
        let candidates = drawn.filter { $0.window == focus.window }.sorted { $0.number < $1.number }
        let policies = ReportRows.distinct(candidates.map(\.policy))
        var charts: [Chart] = []
        let stallsByCache = Self.stallsByCache(decision)
        for metric in [stallsByCache, Self.peakMemoryByCache] {
            var chart = Chart(kind: metric.kind, title: "\(metric.title) · \(decision.name)", xTitle: "memory cache (MiB)",
                              yTitle: metric.yTitle, xAxis: .numeric)
            chart.subtitle = "prefetch window \(focus.window) (\(decision.focusReason("window"))) · \(Self.seedsSubtitle(decision.seeds))"
            func point(_ candidate: TuneCandidate) -> Chart.Point {
                Self.seedPoint(x: Double(candidate.memoryLimitBytes) / 1_048_576, values: candidate.samples.map(metric.y),
                               label: "\(candidate.policy) · \(FixedPoint.mebibytes(candidate.memoryLimitBytes))", format: metric.format)
            }
            for policy in policies {
                let points = candidates.filter { $0.policy == policy }.sorted { $0.memoryLimitBytes < $1.memoryLimitBytes }.map(point)
                chart.series.append(Chart.Series(name: policy, style: style(policy), points: points))
            }
            chart.noteCoincidentSeries()
            if metric.kind == stallsByCache.kind, let best = decision.recommended {
                var star = point(best)
                star.range = nil
                chart.series.append(Chart.Series(name: "recommended", style: Self.recommendedStyle, points: [star], joined: false))
            }
            if metric.kind == Self.peakMemoryByCache.kind {
                Self.addLimits(to: &chart, profile: decision.profile, name: decision.name, axis: .horizontal, jetsam: true)
            }
            charts.append(chart)
        }
        return charts
    }

    /// The recommendation's marker wherever a chart stars it.
    static let recommendedStyle = SeriesStyle(colour: "#000000", dash: "", marker: .star)
}
