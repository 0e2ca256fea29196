/// `bench check`'s unit of work: re-run one profile's standard matrix, write its results CSV
/// to a scratch folder, and compare it with the committed `<results>/<profile>.csv`. The
/// simulator is deterministic, so with `ComparisonRules.exactMatch()` any difference means the
/// model changed: on purpose (regenerate `results/` in the same commit) or not (a bug).
public enum BaselineCheck {
    /// One profile's check.
    public struct Outcome: Sendable {
        /// The committed results compared against.
        public let baselinePath: String
        /// The committed results (base) against the fresh ones (new).
        public let comparison: ResultsComparison
    }

    /// Checks `profile`: reads `<resultsDirectory>/<name>.csv` first (so a missing or unusable
    /// baseline is refused before seconds of simulation), runs the standard matrix on `jobs`
    /// threads (`StandardMatrix.mainJob`), writes `<scratchDirectory>/<name>.csv` and compares the two under `rules`.
    public static func run(profile: DeviceProfile, resultsDirectory: String, scratchDirectory: String,
                           rules: ComparisonRules, jobs: Int) throws -> Outcome {
        let baselinePath = resultsDirectory + "/" + profile.name + ".csv"
        let baseline = try ResultsFile.read(path: baselinePath)
        let results = try StandardMatrix.mainJob(profile: profile, jobs: jobs)
        let freshPath = scratchDirectory + "/" + profile.name + ".csv"
        try AtomicFile.write(RunResult.csv(results), to: freshPath)
        let fresh = try ResultsFile.read(path: freshPath)
        return Outcome(baselinePath: baselinePath, comparison: .files(base: baseline, new: fresh, rules: rules))
    }
}
