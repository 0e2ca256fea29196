import Testing
@testable import FeedBench

/// Joining rows and judging metrics: verdicts by direction and tolerance, one-sided rows,
/// the exact-match rules of `bench check`, and `--by COLUMN --base VALUE`.
@Suite struct CompareRowsTests {
    let base: ResultsFile
    let text = ResultsFixtures.lowEndText

    init() throws { base = try ResultsFixtures.lowEnd() }

    func compare(_ newText: String, rules: ComparisonRules = .regressions()) throws -> ResultsComparison {
        .files(base: base, new: try ResultsFixtures.file(newText), rules: rules)
    }

    /// The one row with a verdict other than unchanged, and its moved metrics.
    func moved(_ comparison: ResultsComparison) -> [(row: Int, metrics: [String], verdict: ResultsComparison.Verdict)] {
        comparison.groups[0].rows.filter { $0.verdict != .unchanged }.map { row in
            (row.base.line, row.changes.filter { $0.verdict != .unchanged }.map(\.metric.name), row.verdict)
        }
    }

    @Test func identicalFilesAreUnchanged() throws {
        let comparison = try compare(text)
        #expect(comparison.isUnchanged && !comparison.fails)
        #expect(comparison.groups.count == 1 && comparison.groups[0].rows.count == 48 && comparison.groups[0].count(.unchanged) == 48)
        #expect(comparison.groups[0].rows.allSatisfy { $0.changes.count == ResultMetric.compared.count })
    }

    @Test func aHitRateWorseBeyondToleranceIsARegressionOfThatRow() throws {
        let comparison = try compare(ResultsFixtures.editing(text, line: 4, column: "hit_rate", to: "0.955217"))
        #expect(comparison.fails && !comparison.isUnchanged)
        let moved = moved(comparison)
        #expect(moved.count == 1 && moved[0].row == 4 && moved[0].metrics == ["hit_rate"] && moved[0].verdict == .worse)
        #expect(comparison.label(comparison.groups[0].rows[2].new) == "policy=lru prefetch_window=5 trace=browser")
        let change = comparison.groups[0].rows[2].changes[0]
        #expect(change.base == 964_912 && change.new == 955_217 && change.delta == -9_695 && change.tolerance == .absolute(5_000))
    }

    @Test func changesWithinToleranceEitherWayPass() throws {
        var new = ResultsFixtures.editing(text, line: 4, column: "hit_rate", to: "0.959912")  // -0.005: at the limit
        new = ResultsFixtures.editing(new, line: 5, column: "stall_ms_p95", to: "805.323")  // +5.0 % of 766.975
        new = ResultsFixtures.editing(new, line: 6, column: "peak_memory_bytes", to: "270700000")  // -2.2 %: better
        let comparison = try compare(new)
        #expect(!comparison.fails)
        #expect(moved(comparison).map(\.verdict) == [.withinTolerance, .withinTolerance, .better])
    }

    @Test func onlyImprovementsPass() throws {
        var new = ResultsFixtures.editing(text, line: 4, column: "hit_rate", to: "0.990000")
        new = ResultsFixtures.editing(new, line: 3, column: "stalls", to: "400")
        new = ResultsFixtures.editing(new, line: 8, column: "bytes_downloaded", to: "30000000")
        let comparison = try compare(new)
        #expect(!comparison.fails && moved(comparison).allSatisfy { $0.verdict == .better } && moved(comparison).count == 3)
    }

    @Test func moreOfAnythingCostlyIsWorse() throws {
        for (column, value) in [("stalls", "5"), ("stall_ms_p99", "2500.000"), ("image_requests", "200"), ("bytes_downloaded", "40000000"),
                                ("memory_warnings", "1"), ("jetsam_kills", "1"), ("reshown_viewed", "1"), ("wasted_prefetches", "9"),
                                ("frames_late", "3"), ("hitch_time_ms", "50.000"), ("hitch_time_ratio_ms_per_s", "1.000"),
                                ("longest_hitch_ms", "33.333")] {
            let comparison = try compare(ResultsFixtures.editing(text, line: 4, column: column, to: value))
            #expect(comparison.fails && moved(comparison).first?.verdict == .worse, "\(column)")
        }
    }

    @Test func informationalMetricsAreLeftOutOrReportedWithoutFailing() throws {
        let new = ResultsFixtures.editing(text, line: 4, column: "evictions", to: "7")
        #expect(try compare(new).isUnchanged)
        let chosen = try compare(new, rules: .regressions(metrics: ResultMetric.list("evictions,hit_rate", source: "t")))
        #expect(!chosen.fails && moved(chosen).map(\.verdict) == [.changed] && moved(chosen)[0].metrics == ["evictions"])
        #expect(chosen.groups[0].rows[0].changes.map(\.metric.name) == ["evictions", "hit_rate"])
    }

    @Test func givenTolerancesReplaceTheDefaults() throws {
        let new = ResultsFixtures.editing(text, line: 4, column: "hit_rate", to: "0.955217")
        let loose = try compare(new, rules: .regressions(overrides: [Tolerance.parseSetting("hit_rate=0.02", source: "t")]))
        #expect(!loose.fails && moved(loose)[0].verdict == .withinTolerance)
        let strict = try compare(ResultsFixtures.editing(text, line: 4, column: "stalls", to: "5"),
                                 rules: .regressions(overrides: [Tolerance.parseSetting("stalls=30%", source: "t")]))
        #expect(!strict.fails)
    }

    @Test func rowsOnOneSideAreReportedInFileOrderWithoutFailing() throws {
        var new = ResultsFixtures.removing(line: 11, from: text)
        new += ResultsFixtures.editing(String(text.split(separator: "\n")[1]), line: 1, column: "prefetch_window", to: "99") + "\n"
        let comparison = try compare(new)
        let group = comparison.groups[0]
        #expect(group.rows.count == 47 && !comparison.fails && !comparison.isUnchanged)
        #expect(group.onlyInBase.map(\.line) == [11] && group.onlyInNew.map { $0.identity("prefetch_window") } == ["99"])
        // bench check's rules fail on them.
        #expect(try compare(new, rules: .exactMatch()).fails)
    }

    @Test func exactMatchFailsOnAnyChangeEvenAnImprovementOrAnInformationalOne() throws {
        #expect(try !compare(text, rules: .exactMatch()).fails)
        #expect(try compare(ResultsFixtures.editing(text, line: 4, column: "hit_rate", to: "0.990000"), rules: .exactMatch()).fails)
        let evictions = try compare(ResultsFixtures.editing(text, line: 4, column: "evictions", to: "1"), rules: .exactMatch())
        #expect(evictions.fails && moved(evictions)[0].verdict == .changed)
        let relaxed = ComparisonRules.exactMatch(overrides: [try Tolerance.parseSetting("evictions=1", source: "t")])
        #expect(try !compare(ResultsFixtures.editing(text, line: 4, column: "evictions", to: "1"), rules: relaxed).fails)
        #expect(ComparisonRules.exactMatch().metrics.count == 33)
    }

    @Test func labelsNameOnlyTheIdentityColumnsThatVary() throws {
        let comparison = try compare(text)
        #expect(comparison.sharedIdentity.map(\.column) == ["profile", "network", "http", "memory_limit_bytes", "disk_limit_bytes", "seed", "launches", "scenario"])
        #expect(comparison.sharedIdentity.map(\.value) == ["low-end", "lte", "1.1", "471859200", "157286400", "1", "1", "cacheFirst"])
        #expect(comparison.label(base.rows[47]) == "policy=ttl:max-age=300 prefetch_window=50 trace=skimmer")
    }

    @Test func byPolicyComparesEveryPolicyWithLRUOnOtherwiseEqualRows() throws {
        let comparison = try ResultsComparison.within(base, by: "policy", base: "lru", rules: .regressions())
        #expect(comparison.groups.map(\.name) == ["policy=lfu", "policy=fifo", "policy=ttl:max-age=300"])
        for group in comparison.groups {
            #expect(group.rows.count == 12 && group.onlyInBase.isEmpty && group.onlyInNew.isEmpty)
            #expect(group.rows.allSatisfy { $0.base.identity("policy") == "lru" && $0.base.identity("trace") == $0.new.identity("trace") })
            #expect(group.sides.base == "policy=lru" && group.sides.new == group.name)
        }
        // LFU's memory hit rate collapses under the skimmer; the others equal LRU on this matrix.
        #expect(comparison.fails && comparison.groups[0].count(.worse) == 5)
        #expect(comparison.groups[1].count(.unchanged) == 12)
        #expect(comparison.label(comparison.groups[0].rows[0].new) == "prefetch_window=0 trace=browser")
        #expect(!comparison.sharedIdentity.contains { $0.column == "policy" })
    }

    @Test func byRefusesAnUnknownColumnAValueInNoRowOrASingleValue() throws {
        #expect(throws: InputError.self) { try ResultsComparison.within(base, by: "hit_rate", base: "1", rules: .regressions()) }
        do {
            _ = try ResultsComparison.within(base, by: "policy", base: "mru", rules: .regressions())
            Issue.record("expected a refusal")
        } catch {
            #expect("\(error)" == "--base: expected a policy of a row in \(ResultsFixtures.lowEndPath), found \"mru\"; its values are lru, lfu, fifo, ttl:max-age=300")
        }
        #expect(throws: InputError.self) { try ResultsComparison.within(base, by: "profile", base: "low-end", rules: .regressions()) }
    }
}
