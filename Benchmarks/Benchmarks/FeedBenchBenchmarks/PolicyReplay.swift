import Benchmark
import FeedBench

/// Policy replay: every policy on the same in-memory Zipf trace (α = 1.0, 100,000 objects,
/// 1,000,000 requests, seed 1) at 10,000 objects. Throughput is requests per second (the
/// scaling factor is the trace length); the cache is warmed by one pass in set-up, so the
/// measured pass is steady state: it allocates nothing per request (1 or 2 allocations a pass,
/// committed in Thresholds/ and checked exactly).
func policyReplayBenchmarks() {
    let trace = ZipfKeyTrace(objects: 100_000, requests: 1_000_000, alpha: 1.0, seed: 1).generate()
    let nextAccess = trace.nextAccessPositions()

    var configuration = Benchmark.defaultConfiguration
    configuration.metrics = RegressionThresholds.metrics
    configuration.thresholds = RegressionThresholds.perMetric(allocations: RegressionThresholds.exactAllocations)

    // `unbounded` is the naive baseline, not a replacement policy: nothing to evict, nothing to measure.
    for name in PolicyName.allCases where name != .unbounded {
        let spec = PolicySpec(name, maxAge: name == .ttl ? 500_000 : nil)
        let simulation = CacheSimulation(policies: [spec], capacities: [10_000], unit: .objects)
        // No spaces in the name: static thresholds files are written with `_` for spaces but
        // looked up with the spaces (ordo-one/benchmark#301), so a space would hide them.
        Benchmark("replay-\(spec.name.rawValue)-1M-Zipf-requests-10K-objects", configuration: configuration) { (benchmark: Benchmark, warm: WarmReplay) in
            // One pass over the trace per iteration; the scaling factor (10^6) is its length.
            warm.replay.replay(trace, nextAccess: name.needsFuture ? nextAccess : nil)
            blackHole(warm.replay.misses)
        } setup: {
            let warm = WarmReplay(try! TraceReplay(simulation))
            warm.replay.replay(trace, nextAccess: name.needsFuture ? nextAccess : nil)
            return warm
        }
    }
}

/// A replay that lives across the set-up and the measured pass, mutated in place (a value
/// handed to the measured closure would be copied on its first write).
final class WarmReplay {
    var replay: TraceReplay
    init(_ replay: TraceReplay) { self.replay = replay }
}
