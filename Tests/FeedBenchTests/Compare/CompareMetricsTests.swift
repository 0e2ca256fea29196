import Testing
@testable import FeedBench

/// The metric catalogue (one entry per figure column, directions, default tolerances), cell
/// parsing, and tolerances: their syntax and their arithmetic.
@Suite struct CompareMetricsTests {
    @Test func everyFigureColumnHasADefinitionInSchemaOrder() {
        #expect(ResultMetric.all.map(\.name) == Array(RunResult.columns.dropFirst(RunResult.identityColumns.count)))
    }

    @Test func directionsFollowTheIssue() {
        let direction = Dictionary(uniqueKeysWithValues: ResultMetric.all.map { ($0.name, $0.direction) })
        #expect(["hit_rate", "memory_hit_rate"].allSatisfy { direction[$0] == .higherIsBetter })
        #expect(["stalls", "stall_ms_p95", "peak_memory_bytes", "memory_warnings", "jetsam_kills", "image_requests",
                 "bytes_downloaded", "wasted_prefetches", "reshown_viewed", "frames_late", "hitch_time_ms",
                 "hitch_time_ratio_ms_per_s", "longest_hitch_ms"].allSatisfy { direction[$0] == .lowerIsBetter })
        #expect(ResultMetric.all.filter { $0.direction == .informational }.map(\.name)
            == ["displays", "memory_hits", "disk_hits", "inflight_hits", "misses", "evictions", "frames"])
        #expect(ResultMetric.compared.count == 24 && !ResultMetric.compared.contains { $0.name == "displays" })
    }

    @Test func defaultTolerancesAreAbsoluteForRatesRelativeElseAndZeroForKillsAndReshows() throws {
        func tolerance(_ name: String) throws -> Tolerance? { try ResultMetric.named(name, source: "t").defaultTolerance }
        #expect(try tolerance("hit_rate") == .absolute(5_000))
        #expect(try tolerance("stall_ms_p95") == .percent(5))
        #expect(try tolerance("peak_memory_bytes") == .percent(2))
        #expect(try tolerance("jetsam_kills") == .exact && tolerance("reshown_viewed") == .exact)
        #expect(try tolerance("displays") == nil)
        #expect(ResultMetric.all.allSatisfy { ($0.defaultTolerance == nil) == ($0.direction == .informational) })
    }

    @Test func cellsAreExactDecimalsInTheColumnsForm() throws {
        let rate = try ResultMetric.named("hit_rate", source: "t"), ms = try ResultMetric.named("stall_ms_p95", source: "t")
        let count = try ResultMetric.named("stalls", source: "t")
        #expect(rate.parse("0.965217") == 965_217 && rate.parse("1") == 1_000_000 && rate.parse("0.5") == 500_000)
        #expect(ms.parse("391.229") == 391_229 && count.parse("18446744") == 18_446_744)
        for bad in ["", "abc", "-1", "1e3", " 1", "1 ", "0.", ".5", "1.0000001", "1.5", "+1", "٣"] {
            #expect(rate.parse(Substring(bad)) == nil, "\(bad)")
        }
        #expect(count.parse("1.0") == nil && count.parse("9223372036854775808") == nil && count.parse("9223372036854775807") == .max)
        #expect(ms.parse("1.2345") == nil)
        #expect(rate.format(965_217) == "0.965217" && ms.formatWithUnit(391_229) == "391.229 ms")
        #expect(rate.formatDelta(-20_000) == "-0.020000" && count.formatDelta(3) == "+3" && count.formatDelta(0) == "0")
    }

    /// The byte-level cell parser against a plain model of its rule (digits, at most one point
    /// with digits on both sides, at most `decimals` after it, no overflow) on random cells.
    @Test func scaledCellsParseAsTheirRuleSaysOnRandomText() {
        func model(_ text: String, decimals: Int) -> Int64? {
            let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
            let whole = parts[0], fraction = parts.count > 1 ? String(parts[1]) : ""
            let digits = Set("0123456789")
            guard !whole.isEmpty, parts.count == 1 || !fraction.isEmpty, fraction.count <= decimals,
                  (whole + fraction).allSatisfy(digits.contains) else { return nil }
            return Int64(whole + fraction + String(repeating: "0", count: decimals - fraction.count))
        }
        let alphabet = Array("0123456789.0123456789-+e ٣")
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<20_000 {
            let length = Int(generator.next(below: 24))
            let text = String((0..<length).map { _ in alphabet[Int(generator.next(below: UInt64(alphabet.count)))] })
            let decimals = [0, 3, 6][Int(generator.next(below: 3))]
            #expect(ResultMetric.parseScaled(Substring(text), decimals: decimals) == model(text, decimals: decimals), "\(text) with \(decimals)")
        }
        #expect(ResultMetric.parseScaled("9223372036854775807", decimals: 0) == .max)
        #expect(ResultMetric.parseScaled("9223372036854775808", decimals: 0) == nil)
        #expect(ResultMetric.parseScaled("9223372036854775.807", decimals: 3) == .max)
        #expect(ResultMetric.parseScaled("9223372036854776", decimals: 3) == nil)
    }

    @Test func absoluteAndRelativeTolerancesAllowUpToTheirLimitEitherWay() {
        #expect(Tolerance.absolute(5_000).allows(base: 965_217, new: 960_217))
        #expect(!Tolerance.absolute(5_000).allows(base: 965_217, new: 960_216))
        #expect(Tolerance.absolute(5_000).allows(base: 0, new: 5_000))
        #expect(Tolerance.percent(5).allows(base: 100, new: 105) && Tolerance.percent(5).allows(base: 100, new: 95))
        #expect(!Tolerance.percent(5).allows(base: 100, new: 106))
        #expect(Tolerance.relative(millipercent: 500).allows(base: 1_000, new: 1_005))
        #expect(!Tolerance.relative(millipercent: 500).allows(base: 1_000, new: 1_006))
        // From 0 any change exceeds a relative tolerance; nothing overflows at the extremes.
        #expect(!Tolerance.percent(100).allows(base: 0, new: 1) && Tolerance.percent(100).allows(base: 0, new: 0))
        #expect(Tolerance.percent(100).allows(base: .max, new: 0) && !Tolerance.percent(99).allows(base: .max, new: 0))
        #expect(Tolerance.exact.allows(base: 7, new: 7) && !Tolerance.exact.allows(base: 7, new: 8))
    }

    @Test func toleranceSettingsParseAbsoluteInTheColumnsUnitOrPercent() throws {
        let (rate, absolute) = try Tolerance.parseSetting("hit_rate=0.005", source: "--tolerance")
        #expect(rate.name == "hit_rate" && absolute == .absolute(5_000))
        #expect(try Tolerance.parseSetting("stall_ms_p95=5%", source: "t").1 == .percent(5))
        #expect(try Tolerance.parseSetting("stall_ms_p95=12.5", source: "t").1 == .absolute(12_500))
        #expect(try Tolerance.parseSetting("stalls=0.25%", source: "t").1 == .relative(millipercent: 250))
        #expect(try Tolerance.parseSetting("stalls=2", source: "t").1 == .absolute(2))
        let metric = try ResultMetric.named("stall_ms_p95", source: "t")
        #expect(Tolerance.relative(millipercent: 2_500).description(for: metric) == "±2.5 %")
        #expect(Tolerance.absolute(12_500).description(for: metric) == "±12.500 ms")
        #expect(Tolerance.exact.description(for: metric) == "exact" && Tolerance.percent(10).setting(for: metric) == "10%")
    }

    @Test func badToleranceSettingsAreRefusedWithTheValidNames() {
        func refusal(_ text: String) -> String? {
            do { _ = try Tolerance.parseSetting(text, source: "--tolerance"); return nil } catch { return "\(error)" }
        }
        let names = ResultMetric.all.map(\.name).joined(separator: ", ")
        #expect(refusal("hitrate=0.1") == "--tolerance: unknown metric \"hitrate\"; expected one of \(names)")
        #expect(refusal("policy=5%") == "--tolerance: \"policy\" is an identity column, not a metric; expected one of \(names)")
        #expect(refusal("hit_rate=abc")?.hasPrefix("--tolerance: hit_rate: expected a non-negative number with at most 6 decimals") == true)
        #expect(refusal("stalls=0.5")?.hasPrefix("--tolerance: stalls: expected a non-negative integer") == true)
        #expect(refusal("stalls=-5%") != nil && refusal("stalls=5%%") != nil && refusal("stalls=0.0001%") != nil)
        #expect(refusal("stalls")?.hasPrefix("--tolerance: expected METRIC=VALUE or METRIC=PERCENT%") == true)
    }

    @Test func metricListsKeepTheirOrderAndRefuseRepeatsAndUnknownNames() throws {
        #expect(try ResultMetric.list("stalls,hit_rate,displays", source: "--metrics").map(\.name) == ["stalls", "hit_rate", "displays"])
        #expect(throws: InputError.self) { try ResultMetric.list("stalls,stalls", source: "--metrics") }
        #expect(throws: InputError.self) { try ResultMetric.list("stalls,", source: "--metrics") }
    }
}
