import Testing
@testable import FeedBench

/// `Quantities.duration`: the units people type, and one-line refusals naming the option.
@Suite struct DurationQuantitiesTests {
    @Test func readsUnitsAndBareSeconds() throws {
        let cases: [(String, Int64)] = [
            ("500ms", 500_000_000), ("30s", 30_000_000_000), ("5m", 300_000_000_000), ("8h", 28_800_000_000_000),
            ("1.5s", 1_500_000_000), ("30", 30_000_000_000), ("0.1s", 100_000_000), ("2H", 7_200_000_000_000),
            ("0.000000001s", 1), ("1.5ms", 1_500_000),
        ]
        for (text, nanoseconds) in cases {
            #expect(try Quantities.duration(text, source: "--duration") == nanoseconds, "\(text)")
        }
    }

    @Test func refusesGarbageWithTheOption() {
        for bad in ["8x", "", "s", "ms", "1.2.3s", "1e3s", ".5s", "5.s", "nan", "inf", "5 s", "+5s", "--5s", "5d"] {
            #expect(throws: InputError(source: "--duration", "expected a duration like 30s, 5m or 8h, found \(InputError.quote(bad))"), "\(bad)") {
                try Quantities.duration(bad, source: "--duration")
            }
        }
    }

    @Test func refusesZeroNegativeAndHugeDurations() {
        for bad in ["0", "0s", "-5s", "-1", "0.0000000001s", "-0ms"] {
            #expect(throws: InputError(source: "--duration", "expected a positive duration, found \(InputError.quote(bad))"), "\(bad)") {
                try Quantities.duration(bad, source: "--duration")
            }
        }
        #expect(throws: InputError(source: "--duration", "expected a duration under 292 years, found \"3000000h\"")) {
            try Quantities.duration("3000000h", source: "--duration")
        }
    }

    /// A scroll session — `--duration` of run, sweep, tune and trace generate, a sweep config's
    /// `duration` — lasts up to a day: longer traces are not built (25 h used to trap).
    @Test func aSessionLastsUpToADay() throws {
        #expect(try Quantities.sessionDuration("24h", source: "--duration") == ScrollTrace.maximumDuration)
        #expect(try Quantities.sessionDuration("2m", source: "--duration") == 120_000_000_000)
        for bad in ["25h", "86400001ms", "1441m"] {
            #expect(throws: InputError(source: "--duration", "expected a duration up to 24h, found \(InputError.quote(bad))"), "\(bad)") {
                try Quantities.sessionDuration(bad, source: "--duration")
            }
        }
        #expect(throws: InputError(source: "--duration", "expected a positive duration, found \"0s\"")) {
            try Quantities.sessionDuration("0s", source: "--duration")
        }
    }
}
