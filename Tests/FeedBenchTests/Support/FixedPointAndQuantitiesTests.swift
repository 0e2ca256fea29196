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

@Suite struct QuantitiesTests {
    @Test func readsCountsAndByteUnits() throws {
        #expect(try Quantities.byteCount("4897", source: "-") == 4897)
        #expect(try Quantities.byteCount("20MB", source: "-") == 20_000_000)
        #expect(try Quantities.byteCount("64KiB", source: "-") == 65536)
        #expect(try Quantities.byteCount("1.5gb", source: "-") == 1_500_000_000)
        #expect(try Quantities.byteCounts("1,2MiB", source: "-") == [1, 2_097_152])
    }

    @Test func refusesZeroNegativeAndGarbage() {
        for bad in ["0", "-5", "", "MB", "abc", "1e30", "nan", "0.1B"] {
            #expect(throws: InputError.self, "\(bad)") { try Quantities.byteCount(bad, source: "--capacity") }
        }
    }
}
