/// The charts of `bench report`, built from results rows (and a timeline), per profile: the
/// stall heatmaps over window × memory cache (`ReportCharts+Heatmap`), stalls and peak memory
/// against the memory cache (`+CacheSize`), the memory/stall Pareto front (`+Pareto`), hit
/// rate, display latency and peak memory against the window for each group of runs
/// (`+Window`); memory over time of a timeline's runs (`+Timeline`). This file holds what
/// they share: a style per series name, the window axis, the profile's limits, and points
/// that aggregate seeds.
///
/// Seeds are never drawn as series of their own: a point is the mean over the seeds, with a
/// whisker from their minimum to their maximum.
///
/// The window axis: when every window of a chart is a plain item count (`0`, `20`), the axis
/// is numeric, so distances are true; when any is another form (`20+5`, `1.5screens`,
/// `device`, `velocity`, `adaptive:20`), every window is a category, evenly spaced, in the
/// order item counts, N+M, screens, device, velocity, adaptive (each by size), then anything
/// unrecognised in file order — those forms have no common numeric scale.
struct ReportCharts {
    /// The style of each series name, by first appearance over all files, so a policy looks
    /// the same in every chart.
    var styles: [String: SeriesStyle] = [:]

    mutating func style(_ name: String) -> SeriesStyle {
        if let style = styles[name] { return style }
        let style = SeriesStyle.palette(styles.count)
        styles[name] = style
        return style
    }

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

    /// The window axis's title: `prefetch window (items ahead)` when it is numeric.
    static func windowTitle(_ axis: Chart.XAxis) -> String {
        axis == .numeric ? "prefetch window (items ahead)" : "prefetch window"
    }

    /// `windows` in the window axis's order, left to right.
    static func windowOrder(_ windows: [String]) -> [String] {
        let x = windowAxis(windows).x
        return windows.sorted { x[$0]! < x[$1]! }
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

    /// A point at the mean of `values` (one per seed, at least one) with a whisker from their
    /// minimum to their maximum; its hover note is `label`, then the mean, range and seeds,
    /// each written by `format`.
    static func seedPoint(x: Double, values: [Double], label: String, format: (Double) -> String) -> Chart.Point {
        let mean = values.reduce(0, +) / Double(values.count)
        let (low, high) = (values.min()!, values.max()!)
        let range = values.count == 1 ? "" : ", \(format(low))–\(format(high))"
        return Chart.Point(x: x, y: mean, note: "\(label): \(format(mean)) (\(seedsMean(values.count))\(range))", range: low...high)
    }

    /// `mean of 3 seeds`, or `1 seed`.
    static func seedsMean(_ seeds: Int) -> String { seeds == 1 ? "1 seed" : "mean of \(seeds) seeds" }

    /// `mean of 3 seeds, bars min–max`, or `1 seed`, for subtitles.
    static func seedsSubtitle(_ seeds: Int) -> String { seedsMean(seeds) + (seeds == 1 ? "" : ", bars min–max") }
}
