import Testing
@testable import FeedBench

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
