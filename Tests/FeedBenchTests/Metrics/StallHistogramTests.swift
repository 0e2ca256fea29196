@testable import FeedBench
import Foundation
import Histogram
import Testing

/// The stall percentiles the results report are exactly HdrHistogram's own `valueAtPercentile`
/// (3 significant digits) over the same waits, on random wait sets of every shape.
@Suite struct StallHistogramTests {
    static let percentiles: [Double] = [0.1, 1, 25, 50, 90, 95, 99, 99.9, 99.99]

    /// A histogram of `count` stalls drawn by `seed`: log-uniform from 1 µs to an hour, or
    /// clustered around 250 ms, or a handful of repeated values; for seeds from 30 on, every
    /// other display is a memory hit (no wait), as display latencies have.
    func histogram(seed: UInt64, count: Int) -> StallHistogram {
        var generator = SeededGenerator(seed: seed)
        var stalls = StallHistogram()
        let shape = seed % 3
        for _ in 0..<count {
            let unit = Double(generator.next() >> 11) / Double(1 << 53)
            let nanoseconds: Int64 = switch shape {
            case 0: Int64(1_000 * pow(3_600_000_000, unit))
            case 1: Int64(200_000_000 + 100_000_000 * unit)
            default: Int64(generator.next() % 4) * 50_000_000 + 1_000
            }
            if seed >= 30 && generator.next() % 2 == 0 {
                stalls.recordNoWait()
            } else {
                stalls.record(nanoseconds: nanoseconds)
            }
        }
        return stalls
    }

    /// HdrHistogram itself, holding the same waits.
    func hdrHistogram(of stalls: StallHistogram) -> Histogram<UInt64> {
        var histogram = Histogram<UInt64>(highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: .three)
        for wait in stalls.waits {
            let recorded = histogram.record(UInt64(wait))
            #expect(recorded)
        }
        return histogram
    }

    @Test(arguments: 0..<60) func percentilesEqualHdrHistogramsValueAtPercentile(seed: Int) {
        let count = [1, 2, 3, 10, 115, 1_000, 20_000][seed % 7]
        let stalls = histogram(seed: UInt64(seed), count: count)
        let reference = hdrHistogram(of: stalls)
        #expect(stalls.count == count)
        let expected = Self.percentiles.map { reference.valueAtPercentile($0) }
        #expect(stalls.microseconds(atPercentiles: Self.percentiles) == expected, "seed \(seed), \(count) stalls")
        #expect(stalls.milliseconds(atPercentiles: [50, 95, 99])
                == [50.0, 95, 99].map { FixedPoint.ratio(Int64(reference.valueAtPercentile($0)), 1_000, decimals: 3) })
    }

    @Test func waitsBeyondAnHourCountAsAnHourAndAnyWaitAsAtLeastAMicrosecond() {
        var stalls = StallHistogram()
        stalls.record(nanoseconds: 5 * 3_600_000_000_000)
        stalls.record(nanoseconds: 10)
        stalls.recordNoWait()
        #expect(stalls.waits == [3_600_000_000, 1, 0])
        #expect(stalls.microseconds(atPercentiles: [50, 99]) == [hdrHistogram(of: stalls).valueAtPercentile(50), 3_600_000_000])
    }

    @Test func noStallReadsZero() {
        #expect(StallHistogram().milliseconds(atPercentiles: [50, 95, 99]) == ["0.000", "0.000", "0.000"])
    }

    @Test func aSingleStallIsEveryPercentile() {
        var stalls = StallHistogram()
        stalls.record(nanoseconds: 391_234_567)
        let cells = stalls.milliseconds(atPercentiles: [50, 95, 99])
        #expect(Set(cells).count == 1 && cells[0] == FixedPoint.ratio(Int64(hdrHistogram(of: stalls).valueAtPercentile(50)), 1_000, decimals: 3))
    }
}
