import Benchmark
import FeedBench

/// The main job as `bench --profile low-end` and `bench --profile tablet` run it: the standard
/// matrix over the profile's population of five networks (phones or tablets), screened
/// (`StandardMatrix.mainJob`), on two threads. Its wall clock is what a user waits for (issue
/// 60's targets on this machine's two cores: 2 s for the low-end phone, 3 s for the tablet;
/// docs/populations.md has the figures).
func mainJobBenchmarks() {
    let configuration = Benchmark.Configuration(metrics: [.wallClock, .cpuTotal], scalingFactor: .one,
                                                maxDuration: .seconds(60), maxIterations: 3)
    for (name, profile) in [("low-end-phones", DeviceProfile.lowEnd), ("tablet-tablets", .tablet)] {
        Benchmark("main-job-\(name)-jobs-2", configuration: configuration) { _ in
            let results = try StandardMatrix.mainJob(profile: profile, jobs: 2)
            precondition(!results.isEmpty, "the main job ran nothing")
            blackHole(results.count)
        }
    }
}
