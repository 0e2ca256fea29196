import Testing
@testable import FeedBench

/// The figures a results row restates for people: the share of displays that waited and the
/// stalls a minute of scrolling, worked out from the row's own counts.
@Suite struct RunResultTests {
    func result(displays: Int, stalls: Int, scrolling: Int64) -> RunResult {
        var result = RunResult(profile: "p", network: "n", policy: "lru", memoryLimitBytes: 1, diskLimitBytes: 1,
                               prefetchWindow: "0", trace: "t", seed: 1, launches: 1)
        result.displays = displays
        for _ in 0..<stalls { result.stalls.record(nanoseconds: 5_000_000) }
        result.frames.scrollingTime = scrolling
        return result
    }

    @Test func theStallRateIsStallsOverDisplays() {
        #expect(result(displays: 8, stalls: 1, scrolling: 1).stallRate == "0.125000")
        #expect(result(displays: 3, stalls: 2, scrolling: 1).stallRate == "0.666667", "rounded half up at the sixth decimal")
        #expect(result(displays: 0, stalls: 0, scrolling: 0).stallRate == "0.000000", "no display: none waited")
    }

    @Test func stallsPerMinuteCountOverTheTimeTheFeedScrolled() {
        #expect(result(displays: 100, stalls: 3, scrolling: 30_000_000_000).stallsPerMinute == "6.000", "3 in half a minute")
        #expect(result(displays: 100, stalls: 1, scrolling: 7_000_000_000).stallsPerMinute == "8.571")
        #expect(result(displays: 0, stalls: 0, scrolling: 0).stallsPerMinute == "0.000", "a feed that never scrolled")
    }

    @Test func theyAreTheLastTwoColumnsAndReadBackAsWritten() throws {
        #expect(RunResult.columns.suffix(2) == ["stall_rate", "stalls_per_minute"])
        let row = result(displays: 8, stalls: 1, scrolling: 30_000_000_000)
        #expect(row.csvRow.hasSuffix(",0.125000,2.000"))
        #expect(row.metricValues.suffix(2) == [125_000, 2_000])
    }
}
