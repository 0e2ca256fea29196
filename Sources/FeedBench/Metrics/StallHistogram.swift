import Histogram

/// Waits in microseconds with the percentiles the results report (p50, p95, p99), at
/// HdrHistogram's resolution (3 significant digits). A run keeps two: its stalls (how long each
/// display that had to wait waited; at least 1 µs each) and its display latencies (every
/// display's wait, 0 for an image already in memory).
///
/// The waits themselves are kept (4 bytes each), not HdrHistogram's ~23,000 counts: a run
/// records a few hundred waits, and a sweep keeps every run's result until it is written, so
/// the counts were 370 KB a result (330 MB for the main job's 864 runs) and zeroing them a
/// tenth of a short run. The percentiles are exactly HdrHistogram's `valueAtPercentile` on the
/// same waits (`StallHistogramTests` holds them to it).
public struct StallHistogram: Sendable {
    /// Every wait recorded, in microseconds (0 to `longest`), in the order recorded until
    /// `sortWaits()` puts them in ascending order.
    private(set) var waits: [UInt32] = []
    /// Whether `waits` is in ascending order (the percentiles then need no sort).
    private var waitsAscend = true

    /// The longest wait recorded as itself, in microseconds (an hour); longer ones count as this.
    static let longest: UInt32 = 3_600_000_000

    /// The resolution the percentiles are reported at: which waits HdrHistogram would count
    /// together (its equivalent ranges), for a histogram of up to `longest` µs, 3 digits.
    static let resolution = Histogram<UInt64>(highestTrackableValue: UInt64(longest), numberOfSignificantValueDigits: .three)

    public init() {}

    /// The number of waits recorded.
    public var count: Int { waits.count }

    /// Records one stall of `nanoseconds`: a wait, at least 1 µs however short. O(1) amortized.
    public mutating func record(nanoseconds: Int64) {
        append(UInt32(max(1, min(nanoseconds / 1_000, Int64(Self.longest)))))
    }

    /// Records a display whose image was on screen on the frame its cell appeared: no wait. O(1)
    /// amortized.
    public mutating func recordNoWait() {
        append(0)
    }

    /// Puts the waits in ascending order, once, so that every copy reads its percentiles without
    /// sorting them (a run's rows are read several times: the CSV, the summary, the runs that
    /// share it). O(n log n).
    public mutating func sortWaits() {
        guard !waitsAscend else { return }
        waits.sort()
        waitsAscend = true
    }

    private mutating func append(_ wait: UInt32) {
        if let last = waits.last, wait < last { waitsAscend = false }
        waits.append(wait)
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
    /// as it computes it: the wait of rank ⌈p⁻ × count / 100⌉ in ascending order (p⁻: p one ulp
    /// down; at least rank 1), reported as the highest value HdrHistogram counts with it, clamped
    /// to the smallest and largest wait recorded. O(n log n) for all of them (one sort of the n
    /// waits).
    func microseconds(atPercentiles percentiles: [Double]) -> [UInt64] {
        precondition(percentiles.allSatisfy { $0 > 0 && $0 < 100 } && percentiles == percentiles.sorted(),
                     "StallHistogram: percentiles must be ascending, each strictly between 0 and 100")
        guard !waits.isEmpty else { return percentiles.map { _ in 0 } }
        let sorted = waitsAscend ? waits : waits.sorted()
        let (low, high) = (UInt64(sorted[0]), UInt64(sorted[sorted.count - 1]))
        let total = Double(sorted.count)
        return percentiles.map { p in
            let rank = min(sorted.count, max(1, Int((p.nextDown * total / 100).rounded(.up))))
            return max(min(Self.resolution.highestEquivalentForValue(UInt64(sorted[rank - 1])), high), low)
        }
    }
}
