extension ReportCharts {
    /// The stall heatmaps of a profile, one per policy (in the order policies first appear):
    /// mean stalls a seed (`ProfileDecision.stallsFigure`, as `MatrixSummary` ranks them) over the
    /// prefetch window (columns, in the window axis's order) × memory-cache limit (rows,
    /// smallest at the bottom), all on one colour scale over the configurations within the
    /// limit, each configuration marked as `ProfileDecision.mark` says; and their shared key.
    static func stallHeatmaps(_ decision: ProfileDecision) -> (panels: [Heatmap], key: HeatmapKey) {
        heatmaps(decision, figure: decision.stallsFigure, kind: "stall-heatmap", keyTitle: "Mean \(decision.stallsName) a seed (colour)") { candidate in
            "\(decision.stalls(candidate)), \(decision.latencyAndPeak(candidate))"
        }
    }

    /// The hitch heatmaps of a profile, laid out as `stallHeatmaps`: the mean over the seeds of
    /// each seed's hitch time ratio (its worst workload's, ms per second of scrolling).
    /// The hitch time ratio every configuration had on every seed, when they all had the same
    /// (the main job's policies decode off the main thread: 0 everywhere): no map is drawn
    /// then, only this line.
    static func uniformHitches(_ decision: ProfileDecision) -> String? {
        let values = Set(decision.drawn.flatMap { candidate in candidate.samples.map(TuneFigure.hitchRatio.value) })
        guard values.count == 1, let value = values.first else { return nil }
        let shown = Double(value)
        return "Every configuration, on every seed: \(TuneFigure.hitchRatio.format(shown)) of hitches a second of scrolling "
            + "(\(FrameFigures.band(msPerSecond: shown / 1_000)) in Apple's bands: under 5 ms/s good, under 10 a warning, 10 or more critical)."
    }

    static func hitchHeatmaps(_ decision: ProfileDecision) -> (panels: [Heatmap], key: HeatmapKey) {
        heatmaps(decision, figure: .hitchRatio, kind: "hitch-heatmap", keyTitle: "Mean hitch time ratio, ms per second of scrolling (colour)") { candidate in
            let ratio = candidate.spread(.hitchRatio)
            return "hitch time ratio \(TuneFigure.hitchRatio.format(ratio.mean)) (\(FrameFigures.band(msPerSecond: ratio.mean / 1_000))), "
                + "\(TuneFigure.hitchRatio.format(Double(ratio.min)))–\(TuneFigure.hitchRatio.format(Double(ratio.max))) over the seeds"
        }
    }

    /// One heatmap per policy of `figure`'s mean, each cell's hover note from `describe`.
    static func heatmaps(_ decision: ProfileDecision, figure: TuneFigure, kind: String, keyTitle: String,
                         describe: (TuneCandidate) -> String) -> (panels: [Heatmap], key: HeatmapKey) {
        let candidates = decision.drawn.sorted { $0.number < $1.number }
        let windows = windowOrder(ReportRows.distinct(candidates.map(\.window)))
        let limits = Set(candidates.map(\.memoryLimitBytes)).sorted()
        let marks = candidates.map(decision.mark)
        // Colours and the key in the figure's own unit (ms/s, not thousandths).
        let shown = { (candidate: TuneCandidate) in candidate.spread(figure).mean / figure.storedPerShown }
        let scale = HeatScale(covering: zip(candidates, marks).filter { $0.1 != .excluded }.map { shown($0.0) })
        let meanings: [Heatmap.Mark: String] = [
            .chosen: "recommended",
            .tied: "within the seeds' noise of the fewest stalls",
            .excluded: decision.library == nil ? "over the memory limit on a seed" : "over the memory limit or the hitch bound on a seed",
        ]
        let panels = ReportRows.distinct(candidates.map(\.policy)).map { policy in
            var heatmap = Heatmap(kind: kind, title: policy, xTitle: "prefetch window", yTitle: "memory cache",
                                  columns: windows, rows: limits.map(FixedPoint.mebibytes), scale: scale)
            for (candidate, mark) in zip(candidates, marks) where candidate.policy == policy {
                let value = shown(candidate)
                let cache = FixedPoint.mebibytes(candidate.memoryLimitBytes)
                let note = "\(policy) · \(cache) · window \(candidate.window): \(describe(candidate))"
                    + (mark.map { " — " + meanings[$0]! } ?? "")
                heatmap.cells.append(Heatmap.Cell(column: windows.firstIndex(of: candidate.window)!, row: limits.firstIndex(of: candidate.memoryLimitBytes)!,
                                                  value: value, text: figure.number(candidate.spread(figure).mean), note: note, mark: mark))
            }
            return heatmap
        }
        let key = HeatmapKey(kind: kind + "-key", title: keyTitle, scale: scale,
                             marks: Heatmap.Mark.allCases.filter(marks.contains).map { HeatmapKey.Mark(mark: $0, meaning: meanings[$0]!) })
        return (panels, key)
    }
}
