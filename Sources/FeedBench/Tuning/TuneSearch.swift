/// What `bench tune` chooses among on one profile: every (cache setup, memory limit, window,
/// strategy) of a single-profile plan is a candidate, scored on every workload of the plan for
/// each seed. A plan of one network scores each workload as it is; over a population of
/// networks (`--networks`), a workload is a (network, behaviour or trace) pair, its figures
/// weighted by the network's share (`TuneSample.add(_:weight:)`), as the main job ranks them.
public struct TuneSpace: Sendable {
    public let plan: SweepPlan
    /// Each of the plan's networks' weight, in plan order (`NetworkPopulation.wholeWeight` for
    /// the one network without a population).
    let networkWeights: [Int64]

    /// Refuses plans with more than one profile or disk limit, and more than one network
    /// without a `population` holding each of them.
    public init(plan: SweepPlan, population: NetworkPopulation? = nil) throws {
        guard plan.profiles.count == 1, plan.diskLimits.count == 1, plan.networks.count == 1 || population != nil else {
            throw InputError(source: "tune", "expected one profile, one network (or a population of them) and one disk limit to tune for")
        }
        self.plan = plan
        guard let population else {
            networkWeights = [NetworkPopulation.wholeWeight]
            return
        }
        let weights = population.weights
        networkWeights = try plan.networks.map { network in
            guard let name = network?.name, let weight = weights[name] else {
                throw InputError(source: "tune", "expected the population's networks, found \(InputError.quote(network?.name ?? "the profile's own")) outside it")
            }
            return weight
        }
    }

    /// Candidates: image widths × caches × memory limits × windows × strategies.
    public var candidateCount: Int {
        plan.imageWidths.count * plan.caches.count * plan.memoryLimits.count * plan.windows.count * plan.strategies.count
    }
    /// Behaviours and traces on each network.
    var workloadsPerNetwork: Int { plan.workloads[0].count }
    /// What a candidate is scored on for each seed: every network's workloads.
    var workloadCount: Int { networkWeights.count * workloadsPerNetwork }
    var seedCount: Int { plan.seeds.count }

    /// The weight of `workload`'s figures: its network's. O(1).
    func weight(ofWorkload workload: Int) -> Int64 { networkWeights[workload / workloadsPerNetwork] }

    /// The plan index of `candidate`'s run on `workload` and seed number `seed`: the plan's
    /// axes are networks, image widths, caches, memory limits, windows, workloads, strategies,
    /// seeds (outer to inner; the single-valued ones drop out). O(1).
    func runIndex(candidate: Int, workload: Int, seed: Int) -> Int {
        let (network, own) = workload.quotientAndRemainder(dividingBy: workloadsPerNetwork)
        let strategy = candidate % plan.strategies.count
        let outer = candidate / plan.strategies.count  // (image width, cache, memory limit, window)
        let perNetwork = candidateCount * workloadsPerNetwork * seedCount
        return network * perNetwork + ((outer * workloadsPerNetwork + own) * plan.strategies.count + strategy) * seedCount + seed
    }

    /// A candidate's first run, for its identity columns.
    func configuration(of candidate: Int) -> RunConfiguration {
        plan.configuration(at: runIndex(candidate: candidate, workload: 0, seed: 0))
    }
}

/// How `bench tune` explores its space.
public enum TuneMethod: String, Sendable, CaseIterable {
    /// Exhaustive below `TuneSearch.exhaustiveLimit` runs, successive halving above.
    case auto
    /// Every candidate on every seed.
    case exhaustive
    /// Successive halving over seeds: every candidate on one seed, the best third on three,
    /// the best third of those on all (η = 3, seeds 1, 3, 9, … up to all); candidates tied with
    /// the last one kept are kept too, and infeasible ones go first.
    case halving
}

/// Searches a space, simulating its runs, for the candidate with the best mean objective among
/// those meeting every constraint on every seed (`TuneCriteria`).
public struct TuneSearch: Sendable {
    public let space: TuneSpace
    public let criteria: TuneCriteria

    /// Spaces of at most this many runs are searched exhaustively by `auto`.
    public static let exhaustiveLimit = 500
    /// Successive halving's reduction factor.
    static let eta = 3

    public init(space: TuneSpace, criteria: TuneCriteria) {
        self.space = space
        self.criteria = criteria
    }

    /// What a search found.
    public struct Outcome: Sendable {
        /// Every candidate, with the seeds it was evaluated on.
        public var candidates: [TuneCandidate]
        /// The method used (`auto` resolved).
        public var method: TuneMethod
        /// Runs simulated.
        public var runs: Int
        /// Seeds a fully evaluated candidate has.
        public var seeds: Int
    }

    /// Runs the search on `jobs` threads. `progress` gets the runs done and the runs the search
    /// expects to simulate in all: exact for an exhaustive search; for halving, re-estimated
    /// as each rung starts (a rung keeps more than a third when candidates tie), never below
    /// the runs done.
    public func run(method: TuneMethod, jobs: Int, progress: (_ done: Int, _ expected: Int) -> Void = { _, _ in }) throws -> Outcome {
        var candidates = (0..<space.candidateCount).map { number in
            let run = space.configuration(of: number)
            let identity = run.emptyResult
            return TuneCandidate(number: number, policy: identity.policy, memoryLimitBytes: identity.memoryLimitBytes,
                                 window: identity.prefetchWindow, strategy: run.strategy.description, imageWidth: run.imageWidth)
        }
        let full = space.candidateCount * space.workloadCount * space.seedCount
        let method = method == .auto ? (full <= Self.exhaustiveLimit ? .exhaustive : .halving) : method
        var runs = 0
        func evaluate(_ numbers: [Int], seeds: Range<Int>, expected: Int) throws {
            var work: [(candidate: Int, workload: Int, seed: Int)] = []
            for number in numbers {
                for seed in seeds {
                    for workload in 0..<space.workloadCount { work.append((number, workload, seed)) }
                }
            }
            let space = self.space
            let indices = work.map { space.runIndex(candidate: $0.candidate, workload: $0.workload, seed: $0.seed) }
            var sample = TuneSample()
            _ = try SweepRunner.run(count: work.count, jobs: jobs, configuration: { space.plan.configuration(at: indices[$0]) },
                                    progress: { progress(runs + $0, expected) }) { position, result in
                sample.add(result.metricValues, weight: space.weight(ofWorkload: work[position].workload))
                if work[position].workload == space.workloadCount - 1 {
                    candidates[work[position].candidate].samples.append(sample)
                    sample = TuneSample()
                }
            }
            runs += work.count
        }
        switch method {
        case .exhaustive, .auto:
            try evaluate(Array(candidates.indices), seeds: 0..<space.seedCount, expected: full)
        case .halving:
            var alive = Array(candidates.indices)
            var evaluated = 0
            var rung = 1
            while true {
                let target = min(rung, space.seedCount)
                try evaluate(alive, seeds: evaluated..<target, expected: runs + halvingRuns(alive: alive.count, evaluated: evaluated, rung: rung))
                evaluated = target
                if target == space.seedCount { break }
                let ranked = criteria.rank(alive.map { candidates[$0] }).map(\.number)
                let keep = max(1, (ranked.count + Self.eta - 1) / Self.eta)
                let last = candidates[ranked[keep - 1]]
                alive = ranked.enumerated().filter { position, number in
                    position < keep || (criteria.feasible(candidates[number]) && criteria.feasible(last)
                                        && criteria.score(candidates[number]) <= criteria.score(last))
                }.map(\.element).sorted()
                rung *= Self.eta
            }
        }
        return Outcome(candidates: candidates, method: method, runs: runs, seeds: space.seedCount)
    }

    /// The runs successive halving simulates from the rung with `alive` candidates, `evaluated`
    /// seeds done and `rung` seeds to reach, if every later rung keeps exactly a third.
    func halvingRuns(alive: Int, evaluated: Int, rung: Int) -> Int {
        var (alive, evaluated, rung, total) = (alive, evaluated, rung, 0)
        while true {
            let target = min(rung, space.seedCount)
            total += alive * space.workloadCount * (target - evaluated)
            if target == space.seedCount { return total }
            (alive, evaluated, rung) = (max(1, (alive + Self.eta - 1) / Self.eta), target, rung * Self.eta)
        }
    }
}
