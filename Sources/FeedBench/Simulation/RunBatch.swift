/// Runs many configurations on `jobs` threads and returns their results in the order given,
/// so the output is byte-identical whatever the number of jobs. Runs are independent (each
/// has its own store, caches, generators). For runs too many to hold, see `SweepRunner`.
public enum RunBatch {
    public static func run(_ configurations: [RunConfiguration], jobs: Int) throws -> [RunResult] {
        var results: [RunResult] = []
        results.reserveCapacity(configurations.count)
        _ = try SweepRunner.run(count: configurations.count, jobs: jobs, configuration: { configurations[$0] }) { _, row in
            results.append(row)
        }
        return results
    }
}
