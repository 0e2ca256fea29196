/// A figure column of the results CSV as `bench compare` sees it: how its cells are written,
/// which way is better, and the tolerance a change gets by default.
///
/// Directions: higher hit rates are better; more stalls, stall time, time to first image,
/// memory, warnings, kills, requests, bytes and wasted prefetches are worse. The columns that
/// describe how displays were served (`displays`, `memory_hits`, `disk_hits`, `inflight_hits`,
/// `misses`) and `evictions` are informational: a policy change moves them without being
/// better or worse (hit rates summarise the first ones), so `bench compare` leaves them out
/// unless `--metrics` names them, and then never fails on them. `stall_rate` and
/// `stalls_per_minute` restate `stalls` for people (per display, per minute of scrolling): they
/// have a direction, for `--metrics` and gate rules, but `bench compare` leaves them out by
/// default, so that one change in stalls is not reported three times.
public struct ResultMetric: Sendable, Equatable {
    /// How a column's cells are written.
    public enum Kind: Sendable, Equatable {
        /// A non-negative integer count.
        case count
        /// A non-negative integer number of bytes.
        case bytes
        /// A fraction in [0, 1] with 6 decimals.
        case rate
        /// Milliseconds with 3 decimals.
        case milliseconds
        /// Milliseconds per second with 3 decimals (a hitch time ratio).
        case millisecondsPerSecond
        /// Events per minute with 3 decimals (stalls a minute of scrolling).
        case perMinute
        /// A count weighted by shares, with 3 decimals (a population's weighted stalls).
        case weightedCount

        /// The decimals a cell may have; values are held as integers scaled by 10^decimals.
        public var decimals: Int {
            switch self {
            case .count, .bytes: 0
            case .rate: 6
            case .milliseconds, .millisecondsPerSecond, .perMinute, .weightedCount: 3
            }
        }

        /// The unit written after a value in reports, with its leading space ("" for none).
        var unit: String {
            switch self {
            case .count, .rate, .weightedCount: ""
            case .bytes: " B"
            case .milliseconds: " ms"
            case .millisecondsPerSecond: " ms/s"
            case .perMinute: " /min"
            }
        }
        /// One count in scaled values, the least the seeds' noise may be (`SeedNoise`): 1 for a
        /// count, 1,000 for a weighted one, 0 for the rest.
        var oneCount: Double {
            switch self {
            case .count: 1
            case .weightedCount: 1_000
            case .bytes, .rate, .milliseconds, .millisecondsPerSecond, .perMinute: 0
            }
        }
    }

    /// Which way a change goes.
    public enum Direction: Sendable, Equatable {
        case higherIsBetter
        case lowerIsBetter
        /// Neither better nor worse: reported, never a regression.
        case informational
    }

    /// The column name.
    public let name: String
    public let kind: Kind
    public let direction: Direction
    /// The tolerance `bench compare` uses when none is given (`nil` for informational ones:
    /// any change is reported as a change).
    public let defaultTolerance: Tolerance?

    /// Every figure column, in the results CSV's order (the columns after the identity).
    public static let all: [ResultMetric] = [
        ResultMetric("displays", .count, .informational),
        ResultMetric("memory_hits", .count, .informational),
        ResultMetric("disk_hits", .count, .informational),
        ResultMetric("inflight_hits", .count, .informational),
        ResultMetric("misses", .count, .informational),
        ResultMetric("hit_rate", .rate, .higherIsBetter, .absolute(5_000)),  // 0.005: half a point
        ResultMetric("memory_hit_rate", .rate, .higherIsBetter, .absolute(5_000)),
        ResultMetric("display_latency_ms_p50", .milliseconds, .lowerIsBetter, .percent(5)),
        ResultMetric("display_latency_ms_p95", .milliseconds, .lowerIsBetter, .percent(5)),
        ResultMetric("display_latency_ms_p99", .milliseconds, .lowerIsBetter, .percent(5)),
        ResultMetric("stalls", .count, .lowerIsBetter, .percent(5)),
        ResultMetric("stall_ms_p50", .milliseconds, .lowerIsBetter, .percent(5)),
        ResultMetric("stall_ms_p95", .milliseconds, .lowerIsBetter, .percent(5)),
        ResultMetric("stall_ms_p99", .milliseconds, .lowerIsBetter, .percent(5)),
        ResultMetric("first_image_ms", .milliseconds, .lowerIsBetter, .percent(5), mayBeEmpty: true),
        ResultMetric("api_requests", .count, .lowerIsBetter, .percent(5)),
        ResultMetric("image_requests", .count, .lowerIsBetter, .percent(5)),
        ResultMetric("cancelled_requests", .count, .lowerIsBetter, .percent(5)),
        ResultMetric("wasted_prefetches", .count, .lowerIsBetter, .percent(5)),
        ResultMetric("bytes_downloaded", .bytes, .lowerIsBetter, .percent(5)),
        ResultMetric("peak_memory_bytes", .bytes, .lowerIsBetter, .percent(2)),
        ResultMetric("mean_memory_bytes", .bytes, .lowerIsBetter, .percent(2)),
        ResultMetric("memory_warnings", .count, .lowerIsBetter, .absolute(0)),
        ResultMetric("jetsam_kills", .count, .lowerIsBetter, .absolute(0)),
        ResultMetric("evictions", .count, .informational),
        ResultMetric("reshown_viewed", .count, .lowerIsBetter, .absolute(0)),
        ResultMetric("frames", .count, .informational),
        ResultMetric("frames_late", .count, .lowerIsBetter, .percent(5)),
        ResultMetric("hitch_time_ms", .milliseconds, .lowerIsBetter, .percent(5)),
        ResultMetric("hitch_time_ratio_ms_per_s", .millisecondsPerSecond, .lowerIsBetter, .percent(5)),
        ResultMetric("longest_hitch_ms", .milliseconds, .lowerIsBetter, .percent(5)),
        ResultMetric("stall_rate", .rate, .lowerIsBetter, .absolute(5_000), restatesStalls: true),  // half a point
        ResultMetric("stalls_per_minute", .perMinute, .lowerIsBetter, .percent(5), restatesStalls: true),
    ]

    /// A population's stalls a seed, each network's weighted by its share, in thousandths: not a
    /// column (every row is one network's), the figure `bench compare` holds a population
    /// main job's answer to, as `bench run` ranks by it.
    public static let weightedStalls = ResultMetric("weighted_stalls", .weightedCount, .lowerIsBetter, .percent(5))

    /// The columns the fifth schema added, the last two (`RunResult.schema4Columns`): files
    /// written before read them as absent, like an empty `first_image_ms`.
    public static let addedInSchema5 = ["stall_rate", "stalls_per_minute"]

    /// The figure columns of the fourth schema (and the third): `all` without `addedInSchema5`.
    static let beforeSchema5 = all.filter { !addedInSchema5.contains($0.name) }

    /// The metrics `bench compare` compares when `--metrics` is not given: every one with a
    /// direction.
    public static var compared: [ResultMetric] { all.filter { $0.direction != .informational && !$0.restatesStalls } }

    /// The metric named `name`, or an `InputError` from `source` listing the valid names.
    public static func named(_ name: String, source: String) throws -> ResultMetric {
        if let metric = all.first(where: { $0.name == name }) { return metric }
        let what = RunResult.identityColumns.contains(name) ? "\(InputError.quote(name)) is an identity column, not a metric"
                                                            : "unknown metric \(InputError.quote(name))"
        throw InputError(source: source, "\(what); expected one of \(all.map(\.name).joined(separator: ", "))")
    }

    /// A comma-separated list of metric names, in the order given, each at most once.
    public static func list(_ text: String, source: String) throws -> [ResultMetric] {
        var metrics: [ResultMetric] = []
        for name in text.split(separator: ",", omittingEmptySubsequences: false) {
            let metric = try named(String(name), source: source)
            guard !metrics.contains(metric) else {
                throw InputError(source: source, "expected each metric once, found \(InputError.quote(metric.name)) twice")
            }
            metrics.append(metric)
        }
        return metrics
    }

    /// Whether a cell may be empty: `first_image_ms` of a run that never showed an image.
    public let mayBeEmpty: Bool
    /// Whether the column restates `stalls` (per display, per minute): compared only when named.
    public let restatesStalls: Bool

    /// The value of an empty cell (`mayBeEmpty`): below every real value, which are all ≥ 0.
    public static let absent: Int64 = -1

    init(_ name: String, _ kind: Kind, _ direction: Direction, _ defaultTolerance: Tolerance? = nil, mayBeEmpty: Bool = false,
         restatesStalls: Bool = false) {
        self.restatesStalls = restatesStalls
        self.name = name
        self.kind = kind
        self.direction = direction
        self.defaultTolerance = defaultTolerance
        self.mayBeEmpty = mayBeEmpty
    }

    /// Parses one cell: a non-negative number with at most `kind.decimals` decimals, as an
    /// integer scaled by 10^decimals, or `absent` for an empty cell where one may be empty.
    /// `nil` when the text is neither.
    func parse(_ text: Substring) -> Int64? {
        if text.isEmpty && mayBeEmpty { return Self.absent }
        guard let value = Self.parseScaled(text, decimals: kind.decimals) else { return nil }
        return kind == .rate && value > 1_000_000 ? nil : value
    }

    /// A scaled value written back with exactly `kind.decimals` decimals (the CSV's own form);
    /// `absent` as an empty cell.
    func format(_ scaled: Int64) -> String {
        scaled == Self.absent ? "" : FixedPoint.format(scaled: UInt64(scaled), decimals: kind.decimals)
    }

    /// A scaled value with its unit, for reports: `391.232 ms`, `428.200 MiB`, `0.989000`;
    /// `none` for `absent`. Bytes are shown in MiB with 3 decimals, as every report for people
    /// shows memory.
    func formatWithUnit(_ scaled: Int64) -> String {
        if scaled == Self.absent { return "none" }
        return kind == .bytes ? FixedPoint.ratio(scaled, 1 << 20, decimals: 3) + " MiB" : format(scaled) + kind.unit
    }

    /// A signed difference: `+0.002000`, `-12`, `0`.
    func formatDelta(_ delta: Int64) -> String {
        let magnitude = format(Int64(delta.magnitude))
        return delta > 0 ? "+" + magnitude : delta < 0 ? "-" + magnitude : magnitude
    }

    /// A signed difference with its unit, for reports: `+0.002000`, `-269.456 ms`, `+0.307 MiB`.
    func formatDeltaWithUnit(_ delta: Int64) -> String {
        let magnitude = formatWithUnit(Int64(delta.magnitude))
        return delta > 0 ? "+" + magnitude : delta < 0 ? "-" + magnitude : magnitude
    }

    /// What a cell must look like, for refusals.
    var expectedCell: String {
        switch kind {
        case .count: "a non-negative integer"
        case .bytes: "a non-negative integer number of bytes"
        case .rate: "a rate from 0 to 1 with at most 6 decimals"
        case .milliseconds: "a non-negative number of milliseconds with at most 3 decimals" + (mayBeEmpty ? " (or empty)" : "")
        case .millisecondsPerSecond: "a non-negative number of milliseconds per second with at most 3 decimals"
        case .perMinute: "a non-negative number a minute with at most 3 decimals"
        case .weightedCount: "a non-negative weighted count with at most 3 decimals"
        }
    }

    /// `digits[.digits]` with at most `decimals` decimals, scaled by 10^decimals; `nil` for
    /// anything else (signs, exponents, spaces, too many decimals, values past `Int64.max`).
    /// Reads the UTF-8 bytes once, without building strings. O(length).
    static func parseScaled(_ text: Substring, decimals: Int) -> Int64? {
        var value: Int64 = 0
        var wholeDigits = 0
        var fractionDigits: Int?  // set after the point
        for byte in text.utf8 {
            if byte == UInt8(ascii: ".") {
                guard fractionDigits == nil else { return nil }
                fractionDigits = 0
                continue
            }
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            if let count = fractionDigits {
                guard count < decimals else { return nil }
                fractionDigits = count + 1
            } else {
                wholeDigits += 1
            }
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            guard !o1, !o2 else { return nil }
            value = sum
        }
        guard wholeDigits > 0, fractionDigits != 0 else { return nil }
        for _ in (fractionDigits ?? 0)..<decimals {
            let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
            guard !overflow else { return nil }
            value = times10
        }
        return value
    }
}
