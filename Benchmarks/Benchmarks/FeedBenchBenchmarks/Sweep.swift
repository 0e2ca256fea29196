import Benchmark
import FeedBench

/// A 40-run sweep (the low-end profile × LRU and S3-FIFO × prefetch windows 0, 10, 20, 30 ×
/// seeds 1–5, one-minute skimmer sessions) through `SweepRunner` on one thread and on two: the
/// ratio of the two wall clocks is the parallel speed-up `bench sweep --jobs 2` gets over
/// `--jobs 1` (issue 6's target: at least 1.7× on two cores); total CPU time shows what the
/// threads lose to each other (SQLite's process-wide memory statistics cost a sixth).
func sweepBenchmarks() {
    var grid = SweepGrid()
    grid.profiles = SweepGrid.values(["low-end"], option: "--profile")
    grid.policies = SweepGrid.values(["lru,s3fifo"], option: "--policy")
    grid.windows = SweepGrid.values(["0,10,20,30"], option: "--window")
    grid.behaviors = SweepGrid.values(["skimmer"], option: "--behavior")
    grid.seeds = SweepGrid.values(["1,2,3,4,5"], option: "--seed")
    grid.session.duration = 60_000_000_000
    let plan = try! SweepPlan(grid)

    for jobs in [1, 2] {
        let configuration = Benchmark.Configuration(
            metrics: [.wallClock, .cpuTotal], scalingFactor: .one,
            maxDuration: .seconds(10), maxIterations: 5)
        // No spaces in the name, for the static thresholds file (see PolicyReplay.swift).
        Benchmark("sweep-\(plan.count)-runs-jobs-\(jobs)", configuration: configuration) { benchmark in
            var rows = 0
            _ = try SweepRunner.run(count: plan.count, jobs: jobs, configuration: plan.configuration(at:)) { _, _ in rows += 1 }
            precondition(rows == plan.count, "the sweep delivered \(rows) of \(plan.count) runs")
            blackHole(rows)
        }
    }
}
