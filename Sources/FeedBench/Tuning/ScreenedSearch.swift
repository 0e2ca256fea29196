/// The main job's search over a population of networks: every configuration on the first seed (on every network and
/// workload), then the remaining seeds for the contenders only — the configurations within
/// `contenderMargin` of the best on that seed (by the ranking's objective, weighted over a
/// population) among those within the memory limit there. A configuration screened out keeps
/// its first seed's rows in the results and ranks after every fully run one
/// (`MatrixSummary`). On one network, and with `--search full`, every seed of every
/// configuration runs instead;
/// `ScreenedSearchTests` and docs/main-job.md show both recommend the same on the built-in
/// profiles.
public enum ScreenedSearch {
    /// How far above the best first-seed objective a configuration still gets every seed: 15 %
    /// plus one stall. A search setting, not a model constant: chosen as the smallest margin
    /// whose screened search recommends what the full one does on all four built-in profiles
    /// (docs/main-job.md has the figures); wider only costs time.
    public static let contenderMargin = 0.15

    /// Runs `plan`'s configurations (as `prepare` adjusts each) screened as the type says, and
    /// returns the results of the runs made, in plan order. `criteria` and `weights` rank as the
    /// summary will. `progress` is told the runs done and the total known so far. O(runs).
    public static func run(_ plan: SweepPlan, criteria: TuneCriteria, weights: [String: Int64]?, jobs: Int,
                           storeDirectory: String? = nil, prepare: (RunConfiguration) -> RunConfiguration = { $0 },
                           progress: (Int, Int) -> Void = { _, _ in }) throws -> [RunResult] {
        let seeds = plan.seeds.count
        let all = plan.configurations.map(prepare)
        let groups = plan.sharingGroups
        guard seeds > 1 else {
            return try RunBatch.run(all, groups: groups, jobs: jobs, storeDirectory: storeDirectory) { progress($0, all.count) }
        }
        // Seeds vary fastest in plan order: run i is seed i % seeds of group i / seeds.
        let firstSeedRuns = Array(stride(from: 0, to: all.count, by: seeds))
        let firstSeed = firstSeedRuns.map { all[$0] }
        let screened = try RunBatch.run(firstSeed, groups: firstSeedRuns.map { groups[$0] }, jobs: jobs,
                                        storeDirectory: storeDirectory) { progress($0, firstSeed.count) }
        let contenders = self.contenders(screened.map(MatrixSummary.Run.init), criteria: criteria, weights: weights)
        var rest: [Int] = []
        for (group, result) in screened.enumerated() where contenders.contains(Key(result)) {
            rest += (1..<seeds).map { group * seeds + $0 }
        }
        let more = try RunBatch.run(rest.map { all[$0] }, groups: rest.map { groups[$0] }, jobs: jobs, storeDirectory: storeDirectory) {
            progress(firstSeed.count + $0, firstSeed.count + rest.count)
        }
        var results: [RunResult] = []
        results.reserveCapacity(screened.count + more.count)
        var next = 0
        for (group, result) in screened.enumerated() {
            results.append(result)
            while next < rest.count && rest[next] / seeds == group {
                results.append(more[next])
                next += 1
            }
        }
        return results
    }

    /// A configuration as the summary groups runs.
    struct Key: Hashable {
        var policy: String
        var memoryLimitBytes: Int64
        var window: String
        var imageWidth: Int?

        init(_ result: RunResult) {
            (policy, memoryLimitBytes, window) = (result.policy, result.memoryLimitBytes, result.prefetchWindow)
            imageWidth = ImageWidth.pixels(inScenario: result.scenario)
        }
        init(_ candidate: TuneCandidate) {
            (policy, memoryLimitBytes, window, imageWidth) = (candidate.policy, candidate.memoryLimitBytes, candidate.window, candidate.imageWidth)
        }
    }

    /// The configurations within the memory limit on `runs` (one seed) whose objective is at
    /// most the best's × (1 + `contenderMargin`) + one unit. O(runs).
    static func contenders(_ runs: [MatrixSummary.Run], criteria: TuneCriteria, weights: [String: Int64]?) -> Set<Key> {
        let candidates = MatrixSummary.candidates(runs, weights: weights).filter(criteria.feasible)
        guard let best = candidates.map(criteria.score).min() else { return [] }
        let bound = best * (1 + contenderMargin) + criteria.objective.oneCount
        return Set(candidates.filter { criteria.score($0) <= bound }.map(Key.init))
    }
}
