import Testing
@testable import FeedBench

@Suite struct MemoryMeterTests {
    @Test func meanIsWeightedByHowLongEachLevelLasted() {
        var meter = MemoryMeter(startingAt: 0)
        meter.record(100, at: 0)
        meter.record(300, at: 10)   // 100 for 10 ns
        meter.record(0, at: 40)     // 300 for 30 ns
        #expect(meter.peak == 300)
        #expect(meter.mean(upTo: 50) == (100 * 10 + 300 * 30) / 50)
    }

    @Test func stallPercentilesAreInMillisecondsWithThreeDecimals() {
        var stalls = StallHistogram()
        #expect(stalls.milliseconds(atPercentile: 50) == "0.000")
        for ms in 1...100 { stalls.record(nanoseconds: Int64(ms) * 1_000_000) }
        #expect(stalls.count == 100)
        #expect(stalls.milliseconds(atPercentile: 50) == "50.015" || stalls.milliseconds(atPercentile: 50) == "50.000")
        #expect(Double(stalls.milliseconds(atPercentile: 99))! >= 99)
    }
}
