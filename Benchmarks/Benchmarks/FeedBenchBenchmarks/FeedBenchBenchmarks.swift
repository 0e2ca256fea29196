import Benchmark

/// Every suite of FeedBench's benchmarks. `swift package benchmark` (in this folder) runs them;
/// `--filter` picks some.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.throughput, .wallClock, .mallocCountTotal, .peakMemoryResident],
        scalingFactor: .mega,
        maxDuration: .seconds(2),
        maxIterations: 15
    )
    policyReplayBenchmarks()
    wholeRunBenchmarks()
    keyIndexBenchmarks()
    keyTraceParserBenchmarks()
    feedStoreBenchmarks()
    sweepBenchmarks()
    mainJobBenchmarks()
}
