/// Runs many configurations on `jobs` threads and returns their results in the order given,
/// so the output is byte-identical whatever the number of jobs. Runs are independent (each
/// has its own store, caches, generators). For runs too many to hold, see `SweepRunner`.
public enum RunBatch {
    /// Runs `configurations`; with `storeDirectory`, each keeps its feed store in that folder,
    /// in the file `RunConfiguration.storeFileName` names, continuing what earlier runs left
    /// there (see `FeedSimulation.init`). Runs of one identity would share a file, so they are
    /// refused. `progress` is told how many runs are done, in order, as they are.
    public static func run(_ configurations: [RunConfiguration], jobs: Int, storeDirectory: String? = nil,
                           progress: (Int) -> Void = { _ in }) throws -> [RunResult] {
        let storePaths = try storeDirectory.map { folder in
            var seen = Set<String>()
            return try configurations.map { configuration in
                let name = configuration.storeFileName
                guard seen.insert(name).inserted else {
                    throw InputError(source: "--store", "expected runs of distinct identities (each has its own store file), found \(InputError.quote(name)) twice")
                }
                return folder + "/" + name
            }
        }
        var results: [RunResult] = []
        results.reserveCapacity(configurations.count)
        _ = try SweepRunner.run(count: configurations.count, jobs: jobs, configuration: { configurations[$0] },
                                storePath: { storePaths?[$0] }, progress: progress) { _, row in
            results.append(row)
        }
        return results
    }
}
