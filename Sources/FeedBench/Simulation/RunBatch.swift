/// Runs many configurations on `jobs` threads and returns their results in the order given,
/// so the output is byte-identical whatever the number of jobs. Runs are independent (each
/// has its own store, caches, generators). For runs too many to hold, see `SweepRunner`.
public enum RunBatch {
    /// Runs `configurations`; with `storeDirectory`, each keeps its feed store in that folder,
    /// in the file `RunConfiguration.storeFileName` names, continuing what earlier runs left
    /// there (see `FeedSimulation.init`). Runs of one identity would share a file, so they are
    /// refused. `progress` is told how many runs are done, in order, as they are.
    ///
    /// With `groups` (one number or `nil` per configuration, `SweepPlan.sharingGroup(at:)`),
    /// configurations of one group differ only in the memory cache's policy and limit, and a
    /// run that another's row stands for is not run (`RunSharing`): the rows are the same.
    /// Runs on stores in a folder all run (each leaves its file).
    public static func run(_ configurations: [RunConfiguration], groups: [Int?]? = nil, jobs: Int, storeDirectory: String? = nil,
                           progress: (Int) -> Void = { _ in }) throws -> [RunResult] {
        if let groups, storeDirectory == nil {
            return try RunSharing.run(configurations, groups: groups, jobs: jobs, progress: progress)
        }
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
