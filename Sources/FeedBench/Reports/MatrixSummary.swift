/// The main job's answer for one profile: every configuration (policy, memory-cache limit,
/// window) of a matrix scored seed by seed — each seed's stalls, requests and bytes summed
/// over the workloads, its percentiles and peak memory the worst of them — and ranked by the
/// rule `bench tune` uses (`TuneCriteria`): minimise mean stalls among the configurations that
/// stayed within the profile's memory limit on every seed (peak tracked memory at or below the
/// memory-warning threshold, no jetsam kill); of those within the seeds' noise of the best, the
/// smallest memory cache, then the fewest bytes downloaded. The first is the recommendation.
/// `bench run` prints it; `bench report` marks the same recommendation.
public struct MatrixSummary: Sendable {
    /// One run's figures as the summary counts them, from a `RunResult` or a results file's row.
    public struct Run: Sendable, Equatable {
        public var policy: String
        public var memoryLimitBytes: Int64
        public var window: String
        /// The `seed` cell: runs of one seed are summed into one sample.
        public var seed: String
        /// The figures in `ResultMetric.all` order, scaled as results files hold them.
        public var values: [Int64]

        public init(policy: String, memoryLimitBytes: Int64, window: String, seed: String, values: [Int64]) {
            self.policy = policy
            self.memoryLimitBytes = memoryLimitBytes
            self.window = window
            self.seed = seed
            self.values = values
        }

        public init(_ row: RunResult) {
            self.init(policy: row.policy, memoryLimitBytes: row.memoryLimitBytes, window: row.prefetchWindow,
                      seed: String(row.seed), values: row.metricValues)
        }
    }

    public let profile: DeviceProfile
    /// The ranking rule: mean stalls, within the memory-warning threshold and without a kill.
    public let criteria: TuneCriteria
    /// Every configuration, best first (`TuneCriteria.rank`); those over the memory limit last.
    public let ranking: [TuneCandidate]
    /// Seeds per configuration (the most any configuration has).
    public let seeds: Int
    /// The configurations tied with the best within the seeds' noise, the recommendation among
    /// them: the first `equivalentCount` of `ranking`.
    public let equivalentCount: Int

    public init(profile: DeviceProfile, results: [RunResult], maxHitchRatio: Int64? = nil) {
        self.init(profile: profile, runs: results.map(Run.init), maxHitchRatio: maxHitchRatio)
    }

    /// `maxHitchRatio`, in thousandths of a ms per second, bounds every seed's hitch time ratio
    /// too (`--max-hitch-ratio`).
    public init(profile: DeviceProfile, runs: [Run], maxHitchRatio: Int64? = nil) {
        self.profile = profile
        criteria = Self.criteria(for: profile, maxHitchRatio: maxHitchRatio)
        let candidates = Self.candidates(runs)
        (ranking, equivalentCount) = criteria.ranking(candidates)
        seeds = candidates.map(\.samples.count).max() ?? 0
    }

    /// The main job's criteria on `profile`: mean stalls, peak memory at most the warning
    /// threshold and no kill on every seed — `bench tune`'s defaults.
    public static func criteria(for profile: DeviceProfile, maxHitchRatio: Int64? = nil) -> TuneCriteria {
        TuneCriteria(objective: .stalls, constraints: [TuneConstraint(figure: .peakMemory, atMost: profile.memoryWarningBytes),
                                                       TuneConstraint(figure: .kills, atMost: 0)]
                                                       + (maxHitchRatio.map { [TuneConstraint(figure: .hitchRatio, atMost: $0)] } ?? []))
    }

    /// The runs grouped by configuration (policy, memory limit, window) in the order each first
    /// appears, each with one sample per seed (seeds in the order they first appear) summing
    /// that seed's runs. O(runs).
    public static func candidates(_ runs: [Run]) -> [TuneCandidate] {
        struct Key: Hashable {
            var policy: String
            var memoryLimitBytes: Int64
            var window: String
        }
        var numbers: [Key: Int] = [:]
        var candidates: [TuneCandidate] = []
        var seedOrder: [String: Int] = [:]
        var samples: [[Int: TuneSample]] = []
        for run in runs {
            let key = Key(policy: run.policy, memoryLimitBytes: run.memoryLimitBytes, window: run.window)
            let number = numbers[key] ?? {
                numbers[key] = candidates.count
                candidates.append(TuneCandidate(number: candidates.count, policy: run.policy,
                                                memoryLimitBytes: run.memoryLimitBytes, window: run.window, strategy: ""))
                samples.append([:])
                return candidates.count - 1
            }()
            let seed = seedOrder[run.seed] ?? {
                seedOrder[run.seed] = seedOrder.count
                return seedOrder.count - 1
            }()
            samples[number][seed, default: TuneSample()].add(run.values)
        }
        for number in candidates.indices {
            candidates[number].samples = samples[number].keys.sorted().map { samples[number][$0]! }
        }
        return candidates
    }

    /// The best configuration within the memory limit, if any.
    public var recommended: TuneCandidate? { ranking.first.flatMap { criteria.feasible($0) ? $0 : nil } }

    /// The table, at most 100 columns wide, numbers right-aligned with their units; coloured
    /// (the recommendation green, lines over the limit red) only when `style` allows it. Each
    /// figure is the mean over the seeds (stalls with their range): stalls, the 95th-percentile
    /// display latency over every display, peak tracked memory and bytes downloaded.
    public func table(limit: Int = 12, style: TerminalStyle = .plain) -> String {
        var lines: [String] = []
        let seedText = "\(seeds) seed\(seeds == 1 ? "" : "s")"
        lines.append("\(profile.name) (\(profile.model)): \(ranking.count) configurations, means over \(seedText); peak ≤ \(FixedPoint.mebibytes(profile.memoryWarningBytes))")
        let header = ["policy", "cache", "window", "stalls", "wait p95", "peak mem", "download", ""]
        var rows: [[String]] = []
        for (rank, candidate) in ranking.prefix(limit).enumerated() {
            let stalls = candidate.spread(.stalls)
            let mark = !criteria.feasible(candidate) ? "over limit" : rank == 0 ? "← best" : rank < equivalentCount ? "≈ best" : ""
            rows.append([
                candidate.policy, FixedPoint.cacheLimit(candidate.memoryLimitBytes), candidate.window,
                "\(TuneFigure.stalls.format(stalls.mean)) (\(stalls.min)–\(stalls.max))",
                milliseconds(candidate.spread(.displayP95).mean),
                FixedPoint.mebibytes(Int64(candidate.spread(.peakMemory).mean.rounded())),
                FixedPoint.mebibytes(Int64(candidate.spread(.bytes).mean.rounded())), mark,
            ])
        }
        let table = [header] + rows
        for (index, (line, row)) in zip(TextTable.render(table, leftAligned: [0, 7]), table).enumerated() {
            switch (index, row.last) {
            case (0, _): lines.append(style.paint(line, .bold))
            case (_, "← best"): lines.append(style.paint(line, .green))
            case (_, "over limit"): lines.append(style.paint(line, .red))
            default: lines.append(line)
            }
        }
        if ranking.count > limit { lines.append("… \(ranking.count - limit) more in the CSV") }
        guard let best = recommended else {
            let limits = criteria.constraints.count > 2 ? "memory limit or the hitch ratio allowed" : "memory limit"
            lines.append(style.paint("Recommended: none — every configuration went over the profile's \(limits)", .red))
            return lines.joined(separator: "\n") + "\n"
        }
        lines.append(style.paint("Recommended: \(best.policy), memory cache \(FixedPoint.cacheLimit(best.memoryLimitBytes)), prefetch window \(best.window)", .bold))
        let stalls = best.spread(.stalls)
        lines.append("  stalls \(TuneFigure.stalls.format(stalls.mean)) a seed (\(stalls.min)–\(stalls.max) over \(seedText)), display wait p95 \(milliseconds(best.spread(.displayP95).mean)), peak memory \(FixedPoint.mebibytes(Int64(best.spread(.peakMemory).mean.rounded())))")
        lines.append("  " + hitchLine(best))
        if equivalentCount > 1 {
            lines.append("  \(equivalentCount - 1) more tie within the seeds' noise (≈ best); of those, the smallest cache, then fewest bytes")
        }
        lines += edgeNotes(best)
        return lines.joined(separator: "\n") + "\n"
    }

    /// Notes for a recommendation at the edge of what was tried: the smallest cache size or
    /// the largest window (of several), where the best may lie beyond.
    func edgeNotes(_ best: TuneCandidate) -> [String] {
        var notes: [String] = []
        let sizes = Set(ranking.map(\.memoryLimitBytes))
        if sizes.count > 1, best.memoryLimitBytes == sizes.min() {
            notes.append("  note: the smallest cache tried; a smaller one may do as well (try smaller --memory-limit values)")
        }
        let windows = Set(ranking.compactMap { Int($0.window) })
        if windows.count > 1, Int(best.window) == windows.max() {
            notes.append("  note: the largest window tried; a larger one may stall less (try larger --window values)")
        }
        return notes
    }

    /// The recommendation's hitch time ratio (the worst workload's, mean over the seeds) with
    /// Apple's band for it.
    func hitchLine(_ best: TuneCandidate) -> String {
        let ratio = best.spread(.hitchRatio)
        return "hitches \(TuneFigure.hitchRatio.format(ratio.mean)) of scrolling: \(FrameFigures.band(msPerSecond: ratio.mean / 1_000))"
            + " (Apple: good < 5, warning < 10, critical ≥ 10 ms/s)"
    }

    /// Thousandths of a millisecond as `391.2 ms`.
    func milliseconds(_ thousandths: Double) -> String { TuneFigure.stallP95.format(thousandths) }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
