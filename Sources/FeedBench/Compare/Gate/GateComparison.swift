/// Two results files compared as the decision is made of them (`bench compare`): configuration
/// by configuration (a configuration is a row's identity less its seed), each metric's mean over
/// the seeds with their range, and a verdict that counts a change only beyond both its tolerance
/// and the seeds' noise (`SeedNoise`, the ranking's margin); then, per profile, the
/// recommendation before and after (`MatrixSummary`'s rule). Identity columns that hold one
/// value in each file but another in each (`http` 2 → 1.1, `network` lte → 3g) are what changed:
/// they are left out of the join and named. Configurations keep the base file's order.
public struct GateComparison: Sendable {
    /// What happened to one metric of one configuration, from the least to the most notable.
    public enum Verdict: Int, Sendable, Comparable {
        case unchanged
        /// Moved, but not beyond the seeds' noise.
        case withinNoise
        /// Beyond the noise, but within the tolerance.
        case withinTolerance
        /// An informational metric moved beyond both.
        case changed
        case better
        case worse

        public static func < (a: Verdict, b: Verdict) -> Bool { a.rawValue < b.rawValue }
    }

    /// A metric over a configuration's seeds, scaled as results files hold it.
    public struct Spread: Sendable, Equatable {
        public let mean: Double
        public let min: Int64
        public let max: Int64

        init(_ values: [Int64]) {
            mean = SeedNoise.mean(values)
            min = values.min() ?? 0
            max = values.max() ?? 0
        }
    }

    /// One metric of a pair of configurations.
    public struct MetricChange: Sendable {
        public let metric: ResultMetric
        public let tolerance: Tolerance?
        /// Over the seeds both sides have a value for (`nil`: no seed has one on that side).
        public let base: Spread?
        public let new: Spread?
        /// The seeds' noise margin of the change, scaled (0 where not computed).
        public let margin: Double
        public let verdict: Verdict
        public let gated: Bool

        /// The change of the mean, scaled; 0 when a side has no value.
        public var delta: Double { (new?.mean ?? 0) - (base?.mean ?? 0) }
        /// The change as a fraction of the base mean; `nil` from 0 or without both sides.
        public var relative: Double? {
            guard let base, new != nil, base.mean != 0 else { return nil }
            return delta / base.mean
        }
    }

    /// A configuration of both files and what changed.
    public struct Pair: Sendable {
        /// The base's identity (of its first row) and the lines the configuration starts on.
        public let identity: [String]
        public let lines: (base: Int, new: Int)
        /// One per `rules.metrics`, in that order.
        public let changes: [MetricChange]
        /// Peak memory against the profile's limit, when gated and the profile's limit is known.
        public let memoryLimit: Verdict?

        /// The most notable verdict of its gated checks: worse if any is, else better if any
        /// is, else the most notable of the rest.
        public var gatedVerdict: Verdict {
            let verdicts = changes.filter(\.gated).map(\.verdict) + (memoryLimit.map { [$0] } ?? [])
            if verdicts.contains(.worse) { return .worse }
            if verdicts.contains(.better) { return .better }
            return verdicts.max() ?? .unchanged
        }
    }

    /// A profile's recommended configuration and its figures on each seed.
    public struct Recommendation: Sendable, Equatable {
        public let policy: String
        public let memoryLimitBytes: Int64
        public let window: String
        /// The width its images are asked at, in pixels; `nil`: full size.
        public let imageWidth: Int?
        /// Per seed (the seeds' order): stalls (over a population, weighted by the networks'
        /// shares, in thousandths: `ResultMetric.weightedStalls`), and display wait p95 in
        /// thousandths of a ms.
        public let stalls: [Int64]
        public let waitP95: [Int64]
        /// Whether `stalls` are a population's, weighted.
        public let weighted: Bool

        init(_ candidate: TuneCandidate, weighted: Bool) {
            (policy, memoryLimitBytes, window) = (candidate.policy, candidate.memoryLimitBytes, candidate.window)
            imageWidth = candidate.imageWidth
            let perThousand = NetworkPopulation.wholeWeight / 1_000
            stalls = candidate.samples.map { weighted ? ($0.weightedStalls + perThousand / 2) / perThousand : $0.stalls }
            waitP95 = candidate.samples.map(\.displayP95)
            self.weighted = weighted
        }

        /// Whether it is the same configuration as `other`.
        func isSame(as other: Recommendation) -> Bool {
            (policy, memoryLimitBytes, window, imageWidth) == (other.policy, other.memoryLimitBytes, other.window, other.imageWidth)
        }
    }

    /// A profile's answer before and after: its recommendation on each side (`nil`: nothing is
    /// recommended — no configuration stayed within the limit, or the profile is not built in),
    /// and how its own figures, stalls and display wait p95, moved (beyond tolerance and noise).
    public struct Answer: Sendable {
        public let profile: String
        public let before: Recommendation?
        public let after: Recommendation?
        /// stalls, then display_latency_ms_p95, of the recommendation after against before.
        public let changes: [MetricChange]

        /// Whether the recommended configuration is another one.
        public var changed: Bool {
            switch (before, after) {
            case let (before?, after?): !before.isSame(as: after)
            case (nil, nil): false
            default: true
            }
        }

        /// Worse when either figure got worse (or nothing is recommended any more), better when
        /// one got better and none worse.
        public var verdict: Verdict {
            if before != nil && after == nil { return .worse }
            if before == nil && after != nil { return .better }
            let verdicts = changes.map(\.verdict)
            if verdicts.contains(.worse) { return .worse }
            if verdicts.contains(.better) { return .better }
            return verdicts.max() ?? .unchanged
        }
    }

    public let basePath: String
    public let newPath: String
    public let rules: GateRules
    /// The seeds of the base, in its order.
    public let seeds: [String]
    /// Pairs compared on the seeds both sides ran, because one side ran fewer (a screened
    /// search runs its first seed only for the configurations it screens out).
    public let onCommonSeeds: Int
    /// The identity columns each file holds one value of, another in each: what changed.
    public let conditions: [(column: String, base: String, new: String)]
    /// Identity columns (but the seed) with one value in every configuration of both, with it.
    public let sharedIdentity: [(column: String, value: String)]
    /// The identity columns that tell configurations apart, by index, in schema order.
    let labelColumns: [Int]
    public let pairs: [Pair]
    public let onlyInBase: [(identity: [String], line: Int)]
    public let onlyInNew: [(identity: [String], line: Int)]
    /// One per profile of the base found in the new file too, in the base's order.
    public let answers: [Answer]

    /// Whether the gate fails: a gated check of a configuration worse beyond tolerance and
    /// noise, or an answer worse on its own figures (only the latter with `answerOnly`).
    public var fails: Bool {
        answers.contains { $0.verdict == .worse } || (!rules.answerOnly && pairs.contains { $0.gatedVerdict == .worse })
    }

    /// Compares `new` with `base`. A configuration that ran more seeds on one side than on the
    /// other (a screened main job ran seed 1 only for the configurations it screened out, and two
    /// versions screen out different ones) is compared on the seeds both ran. Throws when a
    /// configuration's seeds have none in common, or no configuration is in both. O(rows).
    public static func files(base: ResultsFile, new: ResultsFile, rules: GateRules) throws -> GateComparison {
        let conditions = changedColumns(base, new)
        let ignored = Set(conditions.map(\.index))
        let (mine, theirs) = (SeededConfigurations(base, ignoring: ignored), SeededConfigurations(new, ignoring: ignored))
        var pairs: [Pair] = []
        var onlyInBase: [(identity: [String], line: Int)] = []
        var matched = Set<Int>()
        var onCommonSeeds = 0
        for configuration in mine.configurations {
            guard let place = theirs.index[mine.key(configuration)] else {
                onlyInBase.append((configuration.identity, configuration.line))
                continue
            }
            matched.insert(place)
            let other = theirs.configurations[place]
            let common = Set(configuration.seeds).intersection(other.seeds)
            guard !common.isEmpty else {
                throw InputError(source: new.path, line: other.line,
                                 "expected a seed of \(base.path):\(configuration.line) (\(configuration.seeds.joined(separator: ", "))) for the same configuration, found \(other.seeds.joined(separator: ", ")): compare runs of the same seeds")
            }
            if common.count == configuration.seeds.count && common.count == other.seeds.count {
                pairs.append(pair(configuration, other, rules: rules))
            } else {
                pairs.append(pair(configuration.restricted(to: common), other.restricted(to: common), rules: rules))
                onCommonSeeds += 1
            }
        }
        guard !pairs.isEmpty else {
            throw InputError(source: base.path, "expected configurations also in \(new.path), found none in common (\(mine.configurations.count) here, \(theirs.configurations.count) there)")
        }
        let onlyInNew = theirs.configurations.indices.filter { !matched.contains($0) }.map { (theirs.configurations[$0].identity, theirs.configurations[$0].line) }
        let keys = mine.keyColumns
        let all = mine.configurations.map(\.identity) + theirs.configurations.map(\.identity)
        let varying = keys.filter { key in all.contains { $0[key] != all[0][key] } }
        return GateComparison(basePath: base.path, newPath: new.path, rules: rules, seeds: mine.seeds, onCommonSeeds: onCommonSeeds,
                              conditions: conditions.map { ($0.column, $0.base, $0.new) },
                              sharedIdentity: keys.filter { !varying.contains($0) }.map { (RunResult.identityColumns[$0], all[0][$0]) },
                              labelColumns: varying, pairs: pairs, onlyInBase: onlyInBase, onlyInNew: onlyInNew,
                              answers: try answers(base, new, rules: rules))
    }

    /// A configuration's name in reports: `column=value` for each identity column that tells
    /// configurations apart.
    public func label(_ identity: [String]) -> String {
        guard !labelColumns.isEmpty else { return "the only configuration" }
        return labelColumns.map { "\(RunResult.identityColumns[$0])=\(identity[$0])" }.joined(separator: " ")
    }

    // MARK: Building it

    /// The identity columns (but profile and seed) each file holds one value of, differing. O(rows).
    static func changedColumns(_ base: ResultsFile, _ new: ResultsFile) -> [(index: Int, column: String, base: String, new: String)] {
        let fixed = Set(["profile", "seed"].map(RunResult.identityIndex))
        func only(_ file: ResultsFile, _ column: Int) -> String? {
            let values = Set(file.rows.filter { !$0.isAggregate }.map { $0.identity[column] })
            return values.count == 1 ? values.first : nil
        }
        return RunResult.identityColumns.indices.filter { !fixed.contains($0) }.compactMap { column in
            guard let a = only(base, column), let b = only(new, column), a != b else { return nil }
            return (column, RunResult.identityColumns[column], a, b)
        }
    }

    /// A pair of configurations of the same seeds: each metric's change, and peak memory
    /// against the profile's limit. O(metrics × seeds).
    static func pair(_ base: SeededConfigurations.Configuration, _ new: SeededConfigurations.Configuration, rules: GateRules) -> Pair {
        let seeds = base.seeds
        let changes = zip(rules.metrics, rules.tolerances).map { metric, tolerance in
            change(metric, tolerance: tolerance, base: base.values(of: metric),
                   new: seeds.map { new.value(of: metric, seed: $0)! }, gated: rules.gates(metric))
        }
        var memoryLimit: Verdict?
        if rules.gate.contains(.memoryLimit),
           let profile = DeviceProfile.builtIn.first(where: { $0.name == base.identity[RunResult.identityIndex("profile")] }) {
            let peak = ResultMetric.all.first { $0.name == "peak_memory_bytes" }!
            let within = { (values: [Int64]) in values.allSatisfy { $0 <= profile.memoryWarningBytes } }
            let (was, isNow) = (within(base.values(of: peak)), within(new.values(of: peak)))
            memoryLimit = was == isNow ? .unchanged : isNow ? .better : .worse
        }
        return Pair(identity: base.identity, lines: (base.line, new.line), changes: changes, memoryLimit: memoryLimit)
    }

    /// One metric's change from `base` to `new` (one value per seed, the same seeds): unchanged,
    /// within the seeds' noise, within tolerance (of the means), or better or worse by its
    /// direction. Seeds without a value on a side (`ResultMetric.absent`: no image shown) are
    /// left out of both. O(seeds).
    static func change(_ metric: ResultMetric, tolerance: Tolerance?, base: [Int64], new: [Int64], gated: Bool) -> MetricChange {
        let both = zip(base, new).filter { $0.0 != ResultMetric.absent && $0.1 != ResultMetric.absent }
        let (a, b) = (both.map(\.0), both.map(\.1))
        func made(_ verdict: Verdict, margin: Double = 0) -> MetricChange {
            let present = { (values: [Int64]) -> Spread? in
                let kept = values.filter { $0 != ResultMetric.absent }
                return kept.isEmpty ? nil : Spread(kept)
            }
            return MetricChange(metric: metric, tolerance: tolerance, base: both.isEmpty ? present(base) : Spread(a),
                                new: both.isEmpty ? present(new) : Spread(b), margin: margin, verdict: verdict, gated: gated)
        }
        if base == new { return made(.unchanged) }
        guard !both.isEmpty else {
            // A figure only one side has on every seed: losing it is worse where lower is better.
            let lost = new.allSatisfy { $0 == ResultMetric.absent }
            return made(metric.direction == .lowerIsBetter ? (lost ? .worse : .better) : .changed)
        }
        if a == b { return made(.unchanged) }
        let (beyond, margin) = SeedNoise.isBeyond(base: a, new: b, oneCount: metric.kind.oneCount)
        guard beyond else { return made(.withinNoise, margin: margin) }
        let (meanA, meanB) = (SeedNoise.mean(a), SeedNoise.mean(b))
        if let tolerance, tolerance.allows(base: Int64(meanA.rounded()), new: Int64(meanB.rounded())) {
            return made(.withinTolerance, margin: margin)
        }
        switch metric.direction {
        case .informational: return made(.changed, margin: margin)
        case .higherIsBetter: return made(meanB > meanA ? .better : .worse, margin: margin)
        case .lowerIsBetter: return made(meanB < meanA ? .better : .worse, margin: margin)
        }
    }

    /// Each profile's answer in both files (`MatrixSummary`'s ranking, as `bench run` and `bench
    /// report` make it): its recommendation before and after, and how the recommendation's
    /// stalls and display wait p95 moved, seed by seed. O(rows).
    static func answers(_ base: ResultsFile, _ new: ResultsFile, rules: GateRules) throws -> [Answer] {
        let (before, after) = (try ReportRows([base]).byProfile, try ReportRows([new]).byProfile)
        let figures = ["stalls", "display_latency_ms_p95"].map { name in ResultMetric.all.first { $0.name == name }! }
        return before.compactMap { profile, rows in
            guard let theirs = after.first(where: { $0.profile == profile })?.rows else { return nil }
            func recommendation(_ rows: [ReportRows.Row]) -> Recommendation? {
                let decision = ProfileDecision(name: profile, rows: rows)
                return decision.recommended.map { Recommendation($0, weighted: decision.summary?.population != nil) }
            }
            let (was, isNow) = (recommendation(rows), recommendation(theirs))
            var changes: [MetricChange] = []
            if let was, let isNow, was.stalls.count == isNow.stalls.count, was.weighted == isNow.weighted {
                for (metric, values) in zip(figures, [(was.stalls, isNow.stalls), (was.waitP95, isNow.waitP95)]) {
                    // A population's stalls are weighted; a --tolerance for stalls holds them.
                    let tolerance = rules.metrics.firstIndex(of: metric).map { rules.tolerances[$0] } ?? metric.defaultTolerance
                    let shown = metric == figures[0] && was.weighted ? ResultMetric.weightedStalls : metric
                    changes.append(change(shown, tolerance: tolerance, base: values.0, new: values.1, gated: true))
                }
            }
            return Answer(profile: profile, before: was, after: isNow, changes: changes)
        }
    }
}
