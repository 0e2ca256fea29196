import Benchmark

/// What the regression-checked benchmarks (the policy replays and the whole run) measure, and
/// how far each metric's p90 may drift from the value committed in `Thresholds/` before
/// `swift package benchmark thresholds check` reports a regression (or an improvement; a
/// metric without an entry would be held to 0 %).
///
/// Times vary from run to run on a shared machine, hence the wide band; they are checked on
/// demand. Allocation counts are deterministic, which is what CI checks
/// (docs/benchmarks.md). Peak resident memory is left out: its sampling thread allocates, which
/// would make the allocation counts vary.
enum RegressionThresholds {
    static var metrics: [BenchmarkMetric] { [.throughput, .wallClock, .mallocCountTotal] }

    /// Times ±25 %; `allocations` for the allocation count.
    static func perMetric(allocations: BenchmarkThresholds) -> [BenchmarkMetric: BenchmarkThresholds] {
        let time = BenchmarkThresholds(relative: [.p90: 25.0])
        return [.throughput: time, .wallClock: time, .mallocCountTotal: allocations]
    }

    /// Exactly the committed count: FeedBench's own code only.
    static var exactAllocations: BenchmarkThresholds { BenchmarkThresholds(absolute: [.p90: 0]) }

    /// ±0.5 % (about 460 of the whole run's 92,000): SQLite, GRDB and Foundation allocate too,
    /// and their versions float with Package.resolved uncommitted; an allocation per display
    /// or per frame of FeedBench's still shows.
    static var wholeRunAllocations: BenchmarkThresholds { BenchmarkThresholds(relative: [.p90: 0.5]) }
}
