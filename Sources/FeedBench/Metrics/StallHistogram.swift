import Histogram

/// Time-to-image of the displays that had to wait, in microseconds, with the percentiles the
/// results report (p50, p95, p99). Backed by HdrHistogram (3 significant digits).
public struct StallHistogram: Sendable {
    var histogram = Histogram<UInt64>(highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: .three)

    public init() {}

    /// The number of stalls recorded.
    public var count: Int { Int(histogram.totalCount) }

    /// Records one stall of `nanoseconds`.
    public mutating func record(nanoseconds: Int64) {
        let micros = UInt64(max(1, min(nanoseconds / 1_000, 3_600_000_000)))
        _ = histogram.record(micros)
    }

    /// The percentile in milliseconds with 3 decimals, `0.000` when nothing stalled.
    public func milliseconds(atPercentile p: Double) -> String {
        guard count > 0 else { return "0.000" }
        return FixedPoint.ratio(Int64(histogram.valueAtPercentile(p)), 1_000, decimals: 3)
    }
}
