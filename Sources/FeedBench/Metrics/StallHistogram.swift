import Histogram

/// Waits in microseconds with the percentiles the results report (p50, p95, p99), backed by
/// HdrHistogram (3 significant digits). A run keeps two: its stalls (how long each display that
/// had to wait waited; at least 1 µs each) and its display latencies (every display's wait,
/// 0 for an image already in memory).
public struct StallHistogram: Sendable {
    var histogram = Histogram<UInt64>(highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: .three)

    public init() {}

    /// The number of waits recorded.
    public var count: Int { Int(histogram.totalCount) }

    /// Records one stall of `nanoseconds`: a wait, at least 1 µs however short.
    public mutating func record(nanoseconds: Int64) {
        let micros = UInt64(max(1, min(nanoseconds / 1_000, 3_600_000_000)))
        _ = histogram.record(micros)
    }

    /// Records a display whose image was on screen on the frame its cell appeared: no wait.
    public mutating func recordNoWait() {
        _ = histogram.record(0)
    }

    /// The percentile in milliseconds with 3 decimals, `0.000` when nothing was recorded.
    public func milliseconds(atPercentile p: Double) -> String {
        milliseconds(atPercentiles: [p])[0]
    }

    /// Several percentiles (ascending, each in 0 < p < 100) in milliseconds with 3 decimals,
    /// `0.000` when nothing was recorded.
    public func milliseconds(atPercentiles percentiles: [Double]) -> [String] {
        guard count > 0 else { return percentiles.map { _ in "0.000" } }
        return microseconds(atPercentiles: percentiles).map { FixedPoint.ratio(Int64($0), 1_000, decimals: 3) }
    }

    /// HdrHistogram's `valueAtPercentile` for each of `percentiles` (ascending, 0 < p < 100),
    /// computed as it does — the first value level at which the running count reaches
    /// ⌈p⁻ × total / 100⌉ (p⁻: p one ulp down), that level's highest equivalent value, clamped
    /// to the recorded min and max — but in one pass over the recorded levels only, in code
    /// specialised for this histogram: the library's generic version walks every one of the
    /// ~23,000 counts through witness calls, 0.2 ms per percentile, which made the results rows
    /// the main cost of a sweep's writing thread. O(levels) for all of them.
    func microseconds(atPercentiles percentiles: [Double]) -> [UInt64] {
        precondition(percentiles.allSatisfy { $0 > 0 && $0 < 100 } && percentiles == percentiles.sorted(),
                     "StallHistogram: percentiles must be ascending, each strictly between 0 and 100")
        let total = Double(histogram.totalCount)
        let targets = percentiles.map { max(1, UInt64(($0.nextDown * total / 100).rounded(.up))) }
        var values: [UInt64] = []
        values.reserveCapacity(targets.count)
        let (low, high) = (histogram.min, histogram.maxRecorded)
        for level in histogram.recordedValues() {
            while values.count < targets.count, level.totalCountToThisValue >= targets[values.count] {
                values.append(max(min(level.value, high), low))
            }
            if values.count == targets.count { break }
        }
        return values
    }
}
