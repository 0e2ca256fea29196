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

    /// `bench cachesim --mrc --capacity 9223372036854775807` trapped adding 1 to it (issue 32):
    /// a count past `maximum` is refused where it is read.
    @Test func refusesACountPastItsMaximum() throws {
        #expect(try Quantities.byteCounts("1000,1000TB", source: "-", maximum: 1_000_000_000_000_000) == [1000, 1_000_000_000_000_000])
        #expect(throws: InputError(source: "--capacity", "expected a positive count or size up to 1000, found \"1001\"")) {
            try Quantities.byteCounts("5,1001", source: "--capacity", maximum: 1000)
        }
    }

    /// A refusal is one line: control characters in its source (a path) are escaped.
    @Test func aRefusalEscapesControlCharactersInItsSource() {
        #expect(InputError(source: "a\nb\u{7F}.csv", line: 2, field: "f\tg", "expected x").description == "a\\x0Ab\\x7F.csv:2: f\\x09g: expected x")
    }

    @Test func refusesZeroNegativeAndGarbage() {
        for bad in ["0", "-5", "", "MB", "abc", "1e30", "nan", "0.1B"] {
            #expect(throws: InputError.self, "\(bad)") { try Quantities.byteCount(bad, source: "--capacity") }
        }
    }

    /// A size past what a byte count holds says so, rather than "expected a positive size".
    @Test func aSizeTooLargeOrTooSmallSaysWhichBound() {
        #expect(throws: InputError(source: "--memory-limit", "expected a size under 8 EiB (9.2e18 bytes), found \"100000000TB\"")) {
            try Quantities.byteSize("100000000TB", source: "--memory-limit")
        }
        #expect(throws: InputError(source: "--memory-limit", "expected a size of 1 byte or more, found \"0.1B\"")) {
            try Quantities.byteSize("0.1B", source: "--memory-limit")
        }
    }

    /// A size is refused without a unit — is `--memory-limit 200` bytes or megabytes? — and the
    /// refusal lists the units; a bare number is only for what may be a count (`--capacity`).
    @Test func sizesNeedAUnit() throws {
        #expect(try Quantities.byteSize("200MB", source: "-") == 200_000_000)
        #expect(try Quantities.byteSize("64KiB", source: "-") == 65536)
        #expect(try Quantities.byteSize("4897b", source: "-") == 4897)
        #expect(throws: InputError(source: "--memory-limit", "expected a size with a unit, such as 200MB or 64KiB (B, KB, MB, GB, TB, KiB, MiB, GiB or TiB), found \"200\" without one")) {
            try Quantities.byteSize("200", source: "--memory-limit")
        }
        // 0 needs no unit to be 0, and is refused as not positive.
        #expect(throws: InputError(source: "--memory-limit", "expected a positive size with a unit, such as 200MB or 64KiB (B, KB, MB, GB, TB, KiB, MiB, GiB or TiB), found \"0\"")) {
            try Quantities.byteSize("0", source: "--memory-limit")
        }
        for bad in ["-5MB", "MB", "1.5", "nan"] {
            #expect(throws: InputError.self, "\(bad)") { try Quantities.byteSize(bad, source: "--memory-limit") }
        }
        #expect(try Quantities.byteCount("200", source: "--capacity") == 200)
    }
}
