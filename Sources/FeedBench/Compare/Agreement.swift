/// How the simulation of a configuration agrees with a live run of the same configuration
/// against `bench serve` (`bench agree`): the figures the network decides, side by side, each
/// with the band it must stay within — requests and bytes 2 %, stalls 15 %, stall p95 25 %,
/// relative to the simulated value — and a few figures shown without a band, to tell which part
/// of the model is off when a band is missed.
public struct Agreement: Sendable {
    /// One figure of both runs.
    public struct Line: Sendable, Equatable {
        public var metric: ResultMetric
        /// The band, or `nil` for a figure shown only to explain the others.
        public var band: Tolerance?
        /// Scaled like the metric's cells (`ResultMetric.absent` for an empty one).
        public var simulated: Int64
        public var live: Int64

        /// Whether the live figure is within the band around the simulated one (true without a band).
        public var within: Bool { band.map { $0.allows(base: simulated, new: live) } ?? true }
    }

    /// The banded figures and their bands.
    public static let bands: [(metric: String, band: Tolerance)] = [
        ("api_requests", .percent(2)), ("image_requests", .percent(2)), ("bytes_downloaded", .percent(2)),
        ("stalls", .percent(15)), ("stall_ms_p95", .percent(25)),
    ]

    /// The figures shown beside them without a band.
    public static let explaining = ["cancelled_requests", "display_latency_ms_p95", "first_image_ms", "hit_rate"]

    public let lines: [Line]

    /// Compares `live` with `simulated`, both results of the same configuration.
    /// Complexity: O(number of metrics).
    public init(simulated: RunResult, live: RunResult) {
        self.init(simulated: simulated, liveValues: live.metricValues)
    }

    /// Compares the live run's figures, `liveValues` (a `RunResult`'s `metricValues`, as another
    /// process measured them), with `simulated`. Complexity: O(number of metrics).
    public init(simulated: RunResult, liveValues: [Int64]) {
        let simulatedValues = simulated.metricValues
        func line(_ name: String, _ band: Tolerance?) -> Line {
            let index = ResultMetric.all.firstIndex { $0.name == name }!
            return Line(metric: ResultMetric.all[index], band: band, simulated: simulatedValues[index], live: liveValues[index])
        }
        lines = Self.bands.map { line($0.metric, $0.band) } + Self.explaining.map { line($0, nil) }
    }

    /// Whether every banded figure is within its band.
    public var agrees: Bool { lines.allSatisfy(\.within) }

    /// The live figure's difference from the simulated one, as a signed percentage of it with one
    /// decimal (`+3.2 %`, `−<0.1 %` under a tenth), `0` when they are equal, `new` from a simulated 0, empty for an empty cell.
    public static func difference(_ line: Line) -> String {
        if line.simulated == ResultMetric.absent || line.live == ResultMetric.absent { return "" }
        if line.simulated == line.live { return "0" }
        if line.simulated == 0 { return "new" }
        let tenths = (line.live - line.simulated) * 1_000 / line.simulated
        let sign = line.live > line.simulated ? "+" : "−"
        return tenths == 0 ? sign + "<0.1 %" : sign + FixedPoint.format(scaled: tenths.magnitude, decimals: 1) + " %"
    }

    /// The side-by-side table, one line per figure: metric, simulated, live, difference, band and
    /// whether it is within.
    public var table: String {
        let rows = [["metric", "simulated", "live", "difference", "band", ""]] + lines.map { line in
            [line.metric.name, Self.cell(line.metric, line.simulated), Self.cell(line.metric, line.live), Self.difference(line),
             line.band.map { $0.description(for: line.metric) } ?? "", line.band == nil ? "" : line.within ? "ok" : "OUTSIDE"]
        }
        return TextTable.render(rows, leftAligned: [0]).joined(separator: "\n") + "\n"
    }

    /// What to say under the table when the live run handled frames late (`WallClock.framesLate`):
    /// the machine, not the network, then set part of its timing (docs/live-runs.md, "bench agree", has the
    /// runs that showed it). `nil` with none.
    public static func busyMachineNote(framesLate: Int) -> String? {
        guard framesLate > 0 else { return nil }
        return "the live run handled \(framesLate) frame\(framesLate == 1 ? "" : "s") late: this machine was busy, so part of its timing is the machine's, not the network's"
    }

    static func cell(_ metric: ResultMetric, _ value: Int64) -> String {
        value == ResultMetric.absent ? "" : metric.format(value)
    }

    /// The columns of `bench agree --out`: the configuration's identity, then one row per figure.
    public static let csvColumns = RunResult.identityColumns + ["metric", "simulated", "live", "band", "within"]

    /// `csvColumns` rows of this agreement, for the configuration whose simulated result is `simulated`.
    public func csvRows(identity simulated: RunResult) -> [String] {
        lines.map { line in
            (simulated.identityCells + [line.metric.name, Self.cell(line.metric, line.simulated), Self.cell(line.metric, line.live),
                                        line.band.map { $0.setting(for: line.metric) } ?? "", line.band == nil ? "" : line.within ? "yes" : "no"])
                .joined(separator: ",")
        }
    }
}
