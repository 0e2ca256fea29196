extension ReportCharts {
    /// The stall heatmaps of a profile, one per policy (in the order policies first appear):
    /// mean stalls a seed (each seed's runs summed, as `MatrixSummary` counts them) over the
    /// prefetch window (columns, in the window axis's order) × memory-cache limit (rows,
    /// smallest at the bottom), all on one colour scale over the configurations within the
    /// limit, each configuration marked as `ProfileDecision.mark` says; and their shared key.
    static func stallHeatmaps(_ decision: ProfileDecision) -> (panels: [Heatmap], key: HeatmapKey) {
        let candidates = decision.ranking.sorted { $0.number < $1.number }
        let windows = windowOrder(ReportRows.distinct(candidates.map(\.window)))
        let limits = Set(candidates.map(\.memoryLimitBytes)).sorted()
        let marks = candidates.map(decision.mark)
        let scale = HeatScale(covering: zip(candidates, marks).filter { $0.1 != .excluded }.map { $0.0.spread(.stalls).mean })
        let meanings: [Heatmap.Mark: String] = [
            .chosen: "recommended",
            .tied: "within the seeds' noise of the fewest stalls",
            .excluded: "over the memory limit on a seed",
        ]
        let panels = ReportRows.distinct(candidates.map(\.policy)).map { policy in
            var heatmap = Heatmap(kind: "stall-heatmap", title: policy, xTitle: "prefetch window", yTitle: "memory cache",
                                  columns: windows, rows: limits.map(FixedPoint.mebibytes), scale: scale)
            for (candidate, mark) in zip(candidates, marks) where candidate.policy == policy {
                let stalls = candidate.spread(.stalls).mean
                let cache = FixedPoint.mebibytes(candidate.memoryLimitBytes)
                let note = "\(policy) · \(cache) · window \(candidate.window): \(decision.stalls(candidate)), \(decision.latencyAndPeak(candidate))"
                    + (mark.map { " — " + meanings[$0]! } ?? "")
                heatmap.cells.append(Heatmap.Cell(column: windows.firstIndex(of: candidate.window)!, row: limits.firstIndex(of: candidate.memoryLimitBytes)!,
                                                  value: stalls, text: TuneFigure.stalls.format(stalls), note: note, mark: mark))
            }
            return heatmap
        }
        let key = HeatmapKey(kind: "stall-heatmap-key", title: "Mean stalls a seed (colour)", scale: scale,
                             marks: Heatmap.Mark.allCases.filter(marks.contains).map { HeatmapKey.Mark(mark: $0, meaning: meanings[$0]!) })
        return (panels, key)
    }
}
