extension ReportCharts {
    /// Peak memory against mean stalls for every configuration of a profile (as
    /// `MatrixSummary` counts them), those over the memory limit as crosses, the front of
    /// configurations no other beats on both, and the recommendation. Memory from 0, the
    /// warning threshold drawn.
    static func pareto(_ decision: ProfileDecision) -> Chart {
        var chart = Chart(kind: "pareto", title: "Memory vs stalls · \(decision.name)", xTitle: "peak tracked memory (MiB, worst run)",
                          yTitle: "stalls a seed (\(decision.stallsSummed))", xAxis: .numeric)
        chart.subtitle = "one point per policy × memory cache × window · \(seedsMean(decision.seeds)) · the front: no other is lower on both"
        let entries = decision.ranking
        func peak(_ entry: TuneCandidate) -> Double { entry.spread(.peakMemory).mean }
        let figure = decision.stallsFigure
        func stalls(_ entry: TuneCandidate) -> Double { entry.spread(figure).mean / figure.storedPerShown }
        func point(_ entry: TuneCandidate) -> Chart.Point {
            Chart.Point(x: peak(entry) / 1_048_576, y: stalls(entry),
                        note: "\(entry.policy) · \(FixedPoint.mebibytes(entry.memoryLimitBytes)) · window \(entry.window): "
                            + "\(TuneFigure.stalls.format(stalls(entry))) stalls, peak \(FixedPoint.mebibytes(Int64(peak(entry).rounded())))")
        }
        let inside = entries.filter(decision.criteria.feasible), over = entries.filter { !decision.criteria.feasible($0) }
        chart.series.append(Chart.Series(name: decision.profile == nil ? "configurations" : "within the memory limit",
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
        if let best = decision.recommended {
            chart.series.append(Chart.Series(name: "recommended: \(best.policy), \(FixedPoint.mebibytes(best.memoryLimitBytes)), window \(best.window)",
                                             style: recommendedStyle, points: [point(best)], joined: false))
        } else if decision.profile != nil {
            chart.notes.append("No recommendation: every configuration went over the profile's memory limit.")
        }
        addLimits(to: &chart, profile: decision.profile, name: decision.name, axis: .vertical, jetsam: false)
        if decision.profile == nil { chart.notes.append("Without the threshold no configuration is recommended.") }
        return chart
    }
}
