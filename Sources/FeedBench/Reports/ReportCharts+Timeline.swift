extension ReportCharts {
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
