import Benchmark
import FeedBench

/// A whole simulated run, from an empty app to its results row: one configuration of the
/// low-end standard matrix (LRU, prefetch window 20, two minutes of the skimmer behaviour,
/// seed 1), so the mock feed API, the SQLite feed store, the scroll trace, the image pipeline
/// and both caches are measured together. Throughput is runs per second.
func wholeRunBenchmarks() {
    let run = try! RunConfiguration.standard(profile: .lowEnd, policy: PolicySpec(.lru), window: .items(PrefetchWindow(ahead: 20)),
                                             workload: .behavior(.skimmer, duration: 120_000_000_000), seed: 1)
    let configuration = Benchmark.Configuration(
        metrics: RegressionThresholds.metrics, scalingFactor: .one, maxDuration: .seconds(5), maxIterations: 30,
        thresholds: RegressionThresholds.perMetric(allocations: RegressionThresholds.wholeRunAllocations))

    // No spaces in the name, for the static thresholds file (see PolicyReplay.swift).
    Benchmark("run-low-end-lru-window-20-skimmer-2min", configuration: configuration) { _ in
        blackHole(try FeedSimulation.run(run))
    }
}
