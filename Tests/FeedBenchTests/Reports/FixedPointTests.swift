import Testing
@testable import FeedBench

@Suite struct FixedPointTests {
    @Test func roundsHalfUpExactly() {
        #expect(FixedPoint.ratio(1, 3, decimals: 6) == "0.333333")
        #expect(FixedPoint.ratio(2, 3, decimals: 6) == "0.666667")
        #expect(FixedPoint.ratio(1, 8, decimals: 2) == "0.13")
        #expect(FixedPoint.ratio(5, 5, decimals: 6) == "1.000000")
        #expect(FixedPoint.ratio(0, 0, decimals: 3) == "0.000")
        #expect(FixedPoint.ratio(4_280_799_744, 4_368_040_448, decimals: 6) == "0.980027")
        #expect(FixedPoint.ratio(Int64.max, Int64.max, decimals: 6) == "1.000000")
    }
}
