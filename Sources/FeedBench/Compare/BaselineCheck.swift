/// `bench check`'s unit of work: re-run one profile's standard matrix, write its results CSV
/// to a scratch folder, and compare it with the committed `<results>/<profile>.csv`. The
/// simulator is deterministic, so with `ComparisonRules.exactMatch()` any difference means the
/// model changed: on purpose (regenerate `results/` in the same commit) or not (a bug).
public enum BaselineCheck {
    /// One profile's committed results, read before anything is simulated.
    public struct Baseline: Sendable {
        /// The profile whose standard matrix the results are.
        public let profile: DeviceProfile
        /// `<results>/<profile>.csv`.
        public let path: String
        /// Its rows.
        public let results: ResultsFile

        /// Reads `<resultsDirectory>/<profile's name>.csv`; throws `InputError` when it is
        /// missing or unusable. O(size of the file).
        public init(profile: DeviceProfile, resultsDirectory: String) throws {
            self.profile = profile
            path = resultsDirectory + "/" + profile.name + ".csv"
            results = try ResultsFile.read(path: path)
        }
    }

    /// One profile's check.
    public struct Outcome: Sendable {
        /// The committed results compared against.
        public let baselinePath: String
        /// The committed results (base) against the fresh ones (new).
        public let comparison: ResultsComparison
    }

    /// Checks `baseline`'s profile: runs its standard matrix on `jobs` threads
    /// (`StandardMatrix.mainJob`), writes `<scratchDirectory>/<name>.csv` and compares it with
    /// the baseline under `rules`. Read every baseline first (`Baseline`), so that a missing or
    /// unusable one is refused before seconds of simulation of the others.
    public static func run(_ baseline: Baseline, scratchDirectory: String, rules: ComparisonRules, jobs: Int) throws -> Outcome {
        let results = try StandardMatrix.mainJob(profile: baseline.profile, jobs: jobs)
        let freshPath = scratchDirectory + "/" + baseline.profile.name + ".csv"
        try AtomicFile.write(RunResult.csv(results), to: freshPath)
        let fresh = try ResultsFile.read(path: freshPath)
        return Outcome(baselinePath: baseline.path, comparison: .files(base: baseline.results, new: fresh, rules: rules))
    }
}
