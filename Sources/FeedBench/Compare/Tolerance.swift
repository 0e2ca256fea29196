/// How far a metric may move between two results before the change counts: an absolute amount
/// in the metric's own unit (`hit_rate=0.005`), or a percentage of the base value
/// (`stall_ms_p95=5%`; from a base of 0, any change exceeds it). Changes within it are
/// reported as "within tolerance" whichever way they go.
public enum Tolerance: Sendable, Equatable {
    /// The largest allowed |new − base|, scaled like the metric's cells (10^decimals).
    case absolute(Int64)
    /// The largest allowed |new − base| / base, in thousandths of a percent.
    case relative(millipercent: Int64)

    /// No change at all is allowed.
    public static let exact = Tolerance.absolute(0)

    /// `percent` % of the base value.
    public static func percent(_ percent: Int64) -> Tolerance { .relative(millipercent: percent * 1_000) }

    /// Whether a move from `base` to `new` (both scaled, non-negative) stays within.
    public func allows(base: Int64, new: Int64) -> Bool {
        let change = (new - base).magnitude
        switch self {
        case .absolute(let limit):
            return change <= UInt64(limit)
        case .relative(let millipercent):
            // change / base ≤ millipercent / 100,000, cross-multiplied in 128 bits.
            let lhs = change.multipliedFullWidth(by: 100_000)
            let rhs = UInt64(millipercent).multipliedFullWidth(by: UInt64(base))
            return (lhs.high, lhs.low) <= (rhs.high, rhs.low)
        }
    }

    /// For reports: `exact`, `±0.005000`, `±12.000 ms`, `±5 %`, `±0.5 %`.
    public func description(for metric: ResultMetric) -> String {
        switch self {
        case .absolute(0): "exact"
        case .absolute(let limit): "±" + metric.formatWithUnit(limit)
        case .relative(let millipercent): "±\(Self.percentText(millipercent)) %"
        }
    }

    /// As `--tolerance` takes it after `METRIC=`: `0.005000`, `0`, `5%`, `0.5%`.
    public func setting(for metric: ResultMetric) -> String {
        switch self {
        case .absolute(let limit): metric.format(limit)
        case .relative(let millipercent): Self.percentText(millipercent) + "%"
        }
    }

    /// Thousandths of a percent as a percentage without trailing zeros: `5`, `0.5`, `2.125`.
    static func percentText(_ millipercent: Int64) -> String {
        var text = FixedPoint.format(scaled: UInt64(millipercent), decimals: 3)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// Parses `--tolerance`'s `METRIC=ABS` or `METRIC=PCT%`: an absolute value with no more
    /// decimals than the metric's cells, or a percentage with at most 3 decimals.
    public static func parseSetting(_ text: String, source: String) throws -> (ResultMetric, Tolerance) {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw InputError(source: source, "expected METRIC=VALUE or METRIC=PERCENT% (e.g. hit_rate=0.005, stall_ms_p95=5%), found \(InputError.quote(text))")
        }
        let metric = try ResultMetric.named(String(parts[0]), source: source)
        let value = parts[1]
        if value.hasSuffix("%"), let millipercent = ResultMetric.parseScaled(value.dropLast(), decimals: 3) {
            return (metric, .relative(millipercent: millipercent))
        }
        if let absolute = ResultMetric.parseScaled(value, decimals: metric.kind.decimals) {
            return (metric, .absolute(absolute))
        }
        let absolute = metric.kind.decimals == 0 ? "a non-negative integer" : "a non-negative number with at most \(metric.kind.decimals) decimals"
        throw InputError(source: source, field: metric.name,
                         "expected \(absolute) (in the column's unit) or a percentage like 5% or 0.5%, found \(InputError.quote(String(value)))")
    }
}
