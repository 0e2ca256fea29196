/// The candidates of `bench tune --results`: configurations read back from results CSVs —
/// `bench sweep`'s, merged shards, `bench run`'s — instead of simulated.
///
/// A candidate is one (policy, memory limit, window, strategy) of one profile and network —
/// or, over a population, of every network of it; its sample on a seed adds up its rows of
/// every workload (behaviour or trace, on each network, its figures weighted by the network's
/// share) with that seed, exactly as `TuneSearch` adds up the runs it simulates, so the same
/// runs read back or simulated give the same samples, front and recommendation. Candidates are numbered in the
/// order their first row appears (files in the order given), which breaks exact ties as a search
/// over the same grid does.
///
/// A sweep's aggregate rows (seed `mean`, `min`, `max`) are checked against the seed rows of the
/// same configuration in the same file and not counted again: constraints bound every seed, so
/// tune needs the seed rows, and a configuration with aggregate rows only is refused. Every
/// candidate must have a row for each workload and seed the others have — except in a main job's
/// screened search, where a configuration screened out has every workload on the first seed
/// only: it is left out (`screenedOut`), as the main job ranks it after every fully run one —
/// and the rows tuned must share one disk limit and one launch count. Each refusal names the
/// file and line.
public struct TuneResults: Sendable {
    /// The profile tuned for (the `profile` column).
    public let profile: String
    /// The network the rows were simulated on, or the population's name.
    public let network: String
    /// Every candidate, each with one sample per seed, in `seeds` order.
    public let candidates: [TuneCandidate]
    /// The seeds every candidate has, in increasing order.
    public let seeds: [String]
    /// The workloads every sample adds up, in the order they first appear.
    public let workloads: [String]
    /// Configurations left out because they have the first seed only while others have every
    /// seed, as a main job's screened search leaves those it screens out.
    public let screenedOut: Int

    /// Run rows the candidates were built from.
    public var runs: Int { candidates.count * seeds.count * workloads.count }

    /// A run row and the file it came from.
    struct Located {
        let path: String
        let row: ResultsFile.Row
    }

    /// Identity columns (`RunResult.identityColumns`) by role.
    enum Column {
        static let profile = RunResult.identityIndex("profile"), network = RunResult.identityIndex("network")
        static let policy = RunResult.identityIndex("policy"), memoryLimit = RunResult.identityIndex("memory_limit_bytes")
        static let diskLimit = RunResult.identityIndex("disk_limit_bytes"), window = RunResult.identityIndex("prefetch_window")
        static let workload = RunResult.identityIndex("trace"), seed = RunResult.identityIndex("seed")
        static let launches = RunResult.identityIndex("launches"), strategy = RunResult.identityIndex("scenario")
        /// What makes a candidate.
        static let candidate = [policy, memoryLimit, window, strategy]
        /// What the rows tuned must share.
        static let shared = [(diskLimit, "disk limit"), (launches, "launch count")]
    }

    /// Reads the candidates of `profile` on `network` from `files` (already read and checked
    /// as results CSVs). Either may be `nil` when the files hold only one. With a `population`
    /// (and no `network`), the rows of its networks are read, each network's weighted by its
    /// share; every one of them must be there. O(rows log rows).
    public init(_ files: [ResultsFile], profile: String?, network: String?, population: NetworkPopulation? = nil) throws {
        precondition(network == nil || population == nil, "TuneResults: a network or a population")
        var runs: [Located] = []
        var aggregates: [Located] = []
        for (path, row) in try ResultsFile.rowsOnce(files) {
            if row.isAggregate {
                aggregates.append(Located(path: path, row: row))
            } else {
                runs.append(Located(path: path, row: row))
            }
        }
        guard !runs.isEmpty else {
            throw InputError(source: files.first?.path ?? "--results", "expected run rows (one per run and seed) to tune over, found none")
        }
        let profile = try Self.choose(profile, among: runs.map { $0.row.identity[Column.profile] }, option: "--profile", noun: "profile")
        runs.removeAll { $0.row.identity[Column.profile] != profile }
        let weights: [String: Int64]
        let tuned: String
        if let population {
            weights = population.weights
            let held = Set(runs.map { $0.row.identity[Column.network] })
            if let missing = population.members.first(where: { !held.contains($0.network.name) }) {
                throw InputError(source: files.first?.path ?? "--results", "expected runs on every network of \(population.name), found none on \(InputError.quote(missing.network.name)) (bench sweep --networks \(population.name) runs them all)")
            }
            tuned = population.name
        } else {
            tuned = try Self.choose(network, among: runs.map { $0.row.identity[Column.network] }, option: "--network", noun: "network")
            weights = [tuned: NetworkPopulation.wholeWeight]
        }
        runs.removeAll { weights[$0.row.identity[Column.network]] == nil }
        try Self.checkShared(runs)
        try Self.check(aggregates.filter { $0.row.identity[Column.profile] == profile && weights[$0.row.identity[Column.network]] != nil },
                       against: runs)

        // Candidates in the order they first appear; each one's rows by workload and seed.
        var numbers: [[String]: Int] = [:]
        var firsts: [Located] = []
        var cells: [[String: [String: [Int64]]]] = []
        // A workload is a trace, or over a population a network's trace (`wifi browser`).
        var workloads: [String] = []
        var workloadWeights: [String: Int64] = [:]
        var seeds = Set<String>()
        for run in runs {
            let identity = run.row.identity
            let key = Column.candidate.map { identity[$0] }
            let number = numbers[key] ?? {
                numbers[key] = firsts.count
                firsts.append(run)
                cells.append([:])
                return firsts.count - 1
            }()
            let workload = population == nil ? identity[Column.workload] : identity[Column.network] + " " + identity[Column.workload]
            if workloadWeights[workload] == nil {
                workloads.append(workload)
                workloadWeights[workload] = weights[identity[Column.network]]!
            }
            seeds.insert(identity[Column.seed])
            cells[number][workload, default: [:]][identity[Column.seed]] = run.row.values
        }
        let sortedSeeds = seeds.sorted { (UInt64($0) ?? .max, $0) < (UInt64($1) ?? .max, $1) }
        // Screened out: every workload on the first seed and none on another, while some
        // configuration has every seed (ScreenedSearch's shape).
        let anyComplete = cells.contains { cell in workloads.allSatisfy { cell[$0]?.count == sortedSeeds.count } }
        let screened = cells.map { cell in
            sortedSeeds.count > 1 && workloads.allSatisfy { cell[$0]?.count == 1 && cell[$0]?[sortedSeeds[0]] != nil }
        }
        let kept = firsts.indices.filter { !(anyComplete && screened[$0]) }
        let candidates = try kept.enumerated().map { number, index in
            let first = firsts[index], cell = cells[index]
            let identity = first.row.identity
            guard let memoryLimit = Int64(identity[Column.memoryLimit]), memoryLimit >= 0 else {
                throw InputError(source: first.path, line: first.row.line, field: "memory_limit_bytes",
                                 "expected a whole number of bytes, found \(InputError.quote(identity[Column.memoryLimit]))")
            }
            var candidate = TuneCandidate(number: number, policy: identity[Column.policy], memoryLimitBytes: memoryLimit,
                                          window: identity[Column.window], strategy: ImageWidth.removingTag(from: identity[Column.strategy]),
                                          imageWidth: ImageWidth.pixels(inScenario: identity[Column.strategy]))
            for seed in sortedSeeds {
                var sample = TuneSample()
                for workload in workloads {
                    guard let values = cell[workload]?[seed] else {
                        throw InputError(source: first.path, line: first.row.line,
                                         "expected a row for every workload and seed the other configurations have (or, screened out by a main job, the first seed's only); \(Self.describe(identity)) has none for \(workload) seed \(seed)")
                    }
                    sample.add(values, weight: workloadWeights[workload]!)
                }
                candidate.samples.append(sample)
            }
            return candidate
        }
        self.profile = profile
        self.network = tuned
        self.candidates = candidates
        self.seeds = sortedSeeds
        self.workloads = workloads
        screenedOut = firsts.count - kept.count
    }

    /// `given` if the rows hold it; else the rows' only value. O(rows).
    static func choose(_ given: String?, among values: [String], option: String, noun: String) throws -> String {
        var distinct: [String] = []
        for value in values where !distinct.contains(value) { distinct.append(value) }
        let list = distinct.map { InputError.quote($0) }.joined(separator: ", ")
        if let given {
            guard distinct.contains(given) else {
                throw InputError(source: option, "expected a \(noun) the results hold (\(list)), found \(InputError.quote(given))")
            }
            return given
        }
        guard distinct.count == 1 else {
            throw InputError(source: option, "expected the \(noun) to tune for: the results hold several (\(list))")
        }
        return distinct[0]
    }

    /// Refuses rows that differ in what tune does not choose (disk limit, launches).
    static func checkShared(_ runs: [Located]) throws {
        guard let first = runs.first else { return }
        for (column, noun) in Column.shared {
            let expected = first.row.identity[column]
            if let other = runs.first(where: { $0.row.identity[column] != expected }) {
                throw InputError(source: other.path, line: other.row.line, field: RunResult.identityColumns[column],
                                 "expected one \(noun) across the rows tuned (\(expected), as on \(first.path):\(first.row.line)); tune chooses policy, memory limit, window and strategy, found \(InputError.quote(other.row.identity[column]))")
            }
        }
    }

    /// Checks each aggregate row against the seed rows of its configuration in its own file.
    static func check(_ aggregates: [Located], against runs: [Located]) throws {
        guard !aggregates.isEmpty else { return }
        func key(_ located: Located) -> [String] {
            var identity = located.row.identity
            identity[Column.seed] = ""
            return [located.path] + identity
        }
        var seedRows: [[String]: [[Int64]]] = [:]
        for run in runs { seedRows[key(run), default: []].append(run.row.values) }
        for aggregate in aggregates {
            let seed = aggregate.row.identity[Column.seed]
            guard let rows = seedRows[key(aggregate)] else {
                throw InputError(source: aggregate.path, line: aggregate.row.line, field: "seed",
                                 "expected the seed rows this \(seed) row summarises in the same file (tune bounds every seed), found none")
            }
            let expected = SweepTable.aggregates(rows)[SweepTable.aggregateSeeds.firstIndex(of: seed)!]
            for (metric, (want, found)) in zip(ResultMetric.all, zip(expected, aggregate.row.values)) where want != found {
                throw InputError(source: aggregate.path, line: aggregate.row.line, field: metric.name,
                                 "expected \(metric.format(want)), the \(seed) of this configuration's \(rows.count) seed rows in the file, found \(metric.format(found))")
            }
        }
    }

    /// `lru, memory limit 471859200, window 20, cacheFirst`.
    static func describe(_ identity: [String]) -> String {
        "\(identity[Column.policy]), memory limit \(identity[Column.memoryLimit]), window \(identity[Column.window]), \(identity[Column.strategy])"
    }
}
