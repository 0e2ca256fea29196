/// The main job's answer for one profile: every configuration (policy, memory-cache limit,
/// window) of a matrix scored seed by seed — each seed's stalls, requests and bytes summed
/// over the workloads, its percentiles and peak memory the worst of them — and ranked by the
/// rule `bench tune` uses (`TuneCriteria`): minimise mean stalls among the configurations that
/// stayed within the profile's memory limit on every seed (peak tracked memory at or below the
/// memory-warning threshold, no jetsam kill); of those within the seeds' noise of the best, the
/// smallest memory cache, then the fewest bytes downloaded. The first is the recommendation.
/// Over a population of networks the stalls are each network's weighted by its share, and the
/// memory limit holds on every network. `bench run` prints it; `bench report` marks the same
/// recommendation.
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
        /// The `network` cell: its share of a population weighs the run's stalls.
        public var network: String
        /// The `trace` cell (the session: `browser`, `skimmer`, a recording's name).
        public var trace: String
        /// The width its images were asked at (the `scenario` cell's `;width=N`); `nil`: the original.
        public var imageWidth: Int?

        public init(policy: String, memoryLimitBytes: Int64, window: String, seed: String, values: [Int64],
                    network: String = "", trace: String = "", imageWidth: Int? = nil) {
            self.policy = policy
            self.memoryLimitBytes = memoryLimitBytes
            self.window = window
            self.seed = seed
            self.values = values
            self.network = network
            self.trace = trace
            self.imageWidth = imageWidth
        }

        public init(_ row: RunResult) {
            self.init(policy: row.policy, memoryLimitBytes: row.memoryLimitBytes, window: row.prefetchWindow,
                      seed: String(row.seed), values: row.metricValues, network: row.network, trace: row.trace,
                      imageWidth: ImageWidth.pixels(inScenario: row.scenario))
        }

        /// Whether it is a run of `candidate`'s configuration.
        func belongs(to candidate: TuneCandidate) -> Bool {
            policy == candidate.policy && memoryLimitBytes == candidate.memoryLimitBytes && window == candidate.window
                && imageWidth == candidate.imageWidth
        }
    }

    public let profile: DeviceProfile
    /// The networks the runs' stalls are weighted over; `nil`: one network (or their plain sum).
    public let population: NetworkPopulation?
    /// The ranking rule: mean stalls (weighted over a population), within the memory-warning
    /// threshold and without a kill.
    public let criteria: TuneCriteria
    /// Every configuration, best first (`TuneCriteria.rank`); those over the memory limit last.
    public let ranking: [TuneCandidate]
    /// Seeds per configuration (the most any configuration has).
    public let seeds: Int
    /// The configurations tied with the best within the seeds' noise, the recommendation among
    /// them: the first `equivalentCount` of `ranking`.
    public let equivalentCount: Int
    /// Configurations with fewer seeds than the most any has (`ScreenedSearch` ran their first
    /// seed only): the last `screenedOut` of `ranking`, ranked among themselves.
    public let screenedOut: Int
    /// The runs ranked, for the figures split by session.
    let runs: [Run]

    public init(profile: DeviceProfile, results: [RunResult], maxHitchRatio: Int64? = nil, population: NetworkPopulation? = nil) {
        self.init(profile: profile, runs: results.map(Run.init), maxHitchRatio: maxHitchRatio, population: population)
    }

    /// `maxHitchRatio`, in thousandths of a ms per second, bounds every seed's hitch time ratio
    /// too (`--max-hitch-ratio`). With `population`, each run's stalls count by its network's
    /// weight (runs of a network outside it count for nothing).
    public init(profile: DeviceProfile, runs: [Run], maxHitchRatio: Int64? = nil, population: NetworkPopulation? = nil) {
        self.profile = profile
        self.population = population
        self.runs = runs
        criteria = Self.criteria(for: profile, maxHitchRatio: maxHitchRatio, weighted: population != nil)
        let candidates = Self.candidates(runs, weights: population?.weights)
        let seeds = candidates.map(\.samples.count).max() ?? 0
        self.seeds = seeds
        let complete = candidates.filter { $0.samples.count == seeds }
        let screened = candidates.filter { $0.samples.count < seeds }
        let (ranked, equivalent) = criteria.ranking(complete)
        (ranking, equivalentCount, screenedOut) = (ranked + criteria.rank(screened), equivalent, screened.count)
    }

    /// The main job's criteria on `profile`: mean stalls (`weighted`: over a population),
    /// peak memory at most the warning threshold and no kill on every seed — `bench tune`'s
    /// defaults.
    public static func criteria(for profile: DeviceProfile, maxHitchRatio: Int64? = nil, weighted: Bool = false) -> TuneCriteria {
        TuneCriteria(objective: weighted ? .weightedStalls : .stalls, constraints: [TuneConstraint(figure: .peakMemory, atMost: profile.memoryWarningBytes),
                                                       TuneConstraint(figure: .kills, atMost: 0)]
                                                       + (maxHitchRatio.map { [TuneConstraint(figure: .hitchRatio, atMost: $0)] } ?? []),
                     cellPixels: profile.cellPixels)
    }

    /// The runs grouped by configuration (image width, policy, memory limit, window) in the order each first
    /// appears, each with one sample per seed (seeds in the order they first appear) summing
    /// that seed's runs, each weighted by its network's entry in `weights` where given (a network
    /// it lacks weighs 0). O(runs).
    public static func candidates(_ runs: [Run], weights: [String: Int64]? = nil) -> [TuneCandidate] {
        struct Key: Hashable {
            var policy: String
            var memoryLimitBytes: Int64
            var window: String
            var imageWidth: Int?
        }
        var numbers: [Key: Int] = [:]
        var candidates: [TuneCandidate] = []
        var seedOrder: [String: Int] = [:]
        var samples: [[Int: TuneSample]] = []
        for run in runs {
            let key = Key(policy: run.policy, memoryLimitBytes: run.memoryLimitBytes, window: run.window, imageWidth: run.imageWidth)
            let number = numbers[key] ?? {
                numbers[key] = candidates.count
                candidates.append(TuneCandidate(number: candidates.count, policy: run.policy,
                                                memoryLimitBytes: run.memoryLimitBytes, window: run.window, strategy: "",
                                                imageWidth: run.imageWidth))
                samples.append([:])
                return candidates.count - 1
            }()
            let seed = seedOrder[run.seed] ?? {
                seedOrder[run.seed] = seedOrder.count
                return seedOrder.count - 1
            }()
            samples[number][seed, default: TuneSample()].add(run.values, weight: weight(of: run, in: weights))
        }
        for number in candidates.indices {
            candidates[number].samples = samples[number].keys.sorted().map { samples[number][$0]! }
        }
        return candidates
    }

    /// `run`'s weight: its network's entry in `weights` (0 for a network it lacks), the whole
    /// without a population.
    static func weight(of run: Run, in weights: [String: Int64]?) -> Int64 {
        weights.map { $0[run.network] ?? 0 } ?? NetworkPopulation.wholeWeight
    }

    /// The candidate of `other`'s configuration (image width, policy, memory limit, window) in `ranking`, if it ran.
    func candidate(like other: TuneCandidate) -> TuneCandidate? {
        ranking.first { $0.policy == other.policy && $0.memoryLimitBytes == other.memoryLimitBytes && $0.window == other.window
            && $0.imageWidth == other.imageWidth }
    }

    /// The best configuration within the memory limit, if any.
    public var recommended: TuneCandidate? { ranking.first.flatMap { criteria.feasible($0) ? $0 : nil } }

    /// The table, at most 100 columns wide, numbers right-aligned with their units; coloured
    /// (the recommendation green, lines over the limit red) only when `style` allows it. Its
    /// first line says the rule. Each figure is the mean over the seeds (stalls with their
    /// range; over a population, weighted by the networks' shares): stalls, the share of
    /// displays that waited, the 95th-percentile display latency over every display, peak
    /// tracked memory (the worst network's) and bytes downloaded.
    public func table(limit: Int = 12, style: TerminalStyle = .plain) -> String {
        var lines: [String] = []
        let seedText = "\(seeds) seed\(seeds == 1 ? "" : "s")"
        let peak = "peak ≤ \(FixedPoint.mebibytes(profile.memoryWarningBytes))"
        if let population, population.members.count > 1 {
            lines.append("\(profile.name) on \(population.name) (\(population.members.count) networks): fewest weighted stalls, \(peak) on each network")
            lines.append("\(profile.model): \(ranking.count) configurations, means over \(seedText), each network's stalls × its share")
        } else {
            lines.append("\(profile.name) (\(profile.model)): fewest mean stalls, \(peak); \(ranking.count) configurations, \(seedText)")
        }
        let widths = showsWidths
        // A width column takes the place of the share that waited (the recommendation's lines give
        // it), and the window's title is cut to keep lines within 100 columns.
        let header = (widths ? ["width"] : []) + ["policy", "cache", widths ? "win" : "window", "stalls"] + (widths ? [] : ["waited"])
            + ["wait p95", "peak mem", "download", ""]
        var rows: [[String]] = []
        for (rank, candidate) in ranking.prefix(limit).enumerated() {
            let stalls = spread(candidate, whole: true)
            let mark = rank >= ranking.count - screenedOut ? "screened out" : criteria.blurry(candidate) ? "below cell"
                : !criteria.feasible(candidate) ? "over limit" : rank == 0 ? "← best" : rank < equivalentCount ? "≈ best" : ""
            rows.append((widths ? [candidate.widthLabel(cellPixels: profile.cellPixels)] : []) + [
                candidate.policy, FixedPoint.cacheLimit(candidate.memoryLimitBytes), candidate.window,
                "\(stalls.mean) (\(stalls.range))"] + (widths ? [] : [Self.percent(stallRate(candidate.samples))]) + [
                FixedPoint.decimal(candidate.spread(.displayP95).mean / 1_000, decimals: 0) + " ms",
                FixedPoint.mebibytes(Int64(candidate.spread(.peakMemory).mean.rounded())),
                FixedPoint.mebibytes(Int64(candidate.spread(population == nil ? .bytes : .weightedBytes).mean.rounded())), mark,
            ])
        }
        let table = [header] + rows
        for (index, (line, row)) in zip(TextTable.render(table, leftAligned: widths ? [0, 1, 8] : [0, 8]), table).enumerated() {
            switch (index, row.last) {
            case (0, _): lines.append(style.paint(line, .bold))
            case (_, "← best"): lines.append(style.paint(line, .green))
            case (_, "over limit"), (_, "below cell"): lines.append(style.paint(line, .red))
            default: lines.append(line)
            }
        }
        if ranking.count > limit { lines.append("… \(ranking.count - limit) more in the CSV") }
        if screenedOut > 0 {
            lines.append("screened: \(ranking.count - screenedOut) of \(ranking.count) configurations ran every seed, the rest the first only (--search full runs all)")
        }
        guard let best = recommended else {
            let limits = criteria.constraints.count > 2 ? "memory limit or the hitch ratio allowed" : "memory limit"
            lines.append(style.paint("Recommended: none — every configuration went over the profile's \(limits)", .red))
            return lines.joined(separator: "\n") + "\n"
        }
        lines.append(style.paint("Recommended: " + best.setting(cellPixels: widthsCell), .bold))
        let stalls = spread(best)
        let figures = "  stalls \(stalls.mean) a seed (\(stalls.range) over \(seedText)), display wait p95 \(milliseconds(best.spread(.displayP95).mean))"
        let peakMemory = "peak memory \(FixedPoint.mebibytes(Int64(best.spread(.peakMemory).mean.rounded())))"
        lines += widths ? [figures, "  \(peakMemory), \(downloadLine(best))"] : [figures + ", " + peakMemory]
        lines += sessionLines(best).map { "  " + $0 }
        lines.append("  " + hitchLine(best))
        if equivalentCount > 1 {
            lines.append("  \(equivalentCount - 1) more tie within the seeds' noise (≈ best); of those, the smallest cache, then fewest bytes")
        }
        lines += edgeNotes(best)
        lines += blurryNotes(best)
        return lines.joined(separator: "\n") + "\n"
    }

    /// Whether the configurations ask for their images at more than the original width.
    var showsWidths: Bool { ranking.contains { $0.imageWidth != nil } }

    /// The cell's pixels where the widths were searched, for `TuneCandidate.setting`; else `nil`.
    var widthsCell: Int? { showsWidths ? profile.cellPixels : nil }

    /// What `best` downloads a seed, and the same configuration asking for images at full
    /// size where it ran: `download 55.9 MiB a seed (at full size: 83.4 MiB)`. O(ranking).
    func downloadLine(_ best: TuneCandidate) -> String {
        let figure: TuneFigure = population == nil ? .bytes : .weightedBytes
        func bytes(_ candidate: TuneCandidate) -> String { FixedPoint.mebibytes(Int64(candidate.spread(figure).mean.rounded())) }
        let atFull = best.imageWidth == nil ? nil : ranking.first {
            $0.imageWidth == nil && $0.policy == best.policy && $0.memoryLimitBytes == best.memoryLimitBytes && $0.window == best.window
        }
        return "download \(bytes(best)) a seed" + (atFull.map { " (at full size: \(bytes($0)))" } ?? "")
    }


    /// A note when a width below the cell's pixels would have stalled less than `best`: it is
    /// shown but not recommended, since its images are blurry. O(ranking).
    func blurryNotes(_ best: TuneCandidate) -> [String] {
        let bestScore = criteria.score(best)
        let blurry = ranking.filter { criteria.blurry($0) && criteria.score($0) < bestScore }
        guard let width = blurry.compactMap(\.imageWidth).max() else { return [] }
        return ["  note: images \(width) px wide stall less, but they are below the cell's \(profile.cellPixels) px (blurry), so no such width is recommended"]
    }

    /// `candidate`'s stalls a seed, the objective's mean and its seeds' range: `366`,
    /// `356–382`. Over a population the mean has one decimal and the range, `whole`, is widened
    /// to whole stalls (32.5 on every seed: `32–33`), as the table writes it.
    func spread(_ candidate: TuneCandidate, whole: Bool = false) -> (mean: String, range: String) {
        let figure = criteria.objective
        let spread = candidate.spread(figure)
        guard whole, figure.oneCount > 1 else {
            return (figure.number(spread.mean), "\(figure.number(Double(spread.min)))–\(figure.number(Double(spread.max)))")
        }
        let (low, high) = ((Double(spread.min) / figure.oneCount).rounded(.down), (Double(spread.max) / figure.oneCount).rounded(.up))
        return (figure.number(spread.mean), "\(FixedPoint.decimal(low, decimals: 0))–\(FixedPoint.decimal(high, decimals: 0))")
    }

    /// The share of displays that waited over `samples`, weighted by network: Σ stalls / Σ
    /// displays. O(samples).
    func stallRate(_ samples: [TuneSample]) -> Double {
        let displays = samples.reduce(0) { $0 + $1.weightedDisplays }
        return displays == 0 ? 0 : Double(samples.reduce(0) { $0 + $1.weightedStalls }) / Double(displays)
    }

    /// Stalls per minute the feed scrolled over `samples`, weighted by network. O(samples).
    func stallsPerMinute(_ samples: [TuneSample]) -> Double {
        let frames = samples.reduce(0) { $0 + $1.weightedFrames }
        return frames == 0 ? 0 : Double(samples.reduce(0) { $0 + $1.weightedStalls }) * 60 * Double(profile.refreshRate) / Double(frames)
    }

    /// How often `best`'s displays waited, over all its sessions (`12.0 % of displays waited,
    /// 30.1 stalls a minute of scrolling`) and, with more than one, in each (`by session: browser
    /// 0.5 % (1.2/min), skimmer 30.0 % (60.2/min)`). O(runs).
    func sessionLines(_ best: TuneCandidate) -> [String] {
        let weights = population?.weights
        var traces: [String] = []
        var samples: [String: TuneSample] = [:]
        for run in runs where run.belongs(to: best) {
            if samples[run.trace] == nil { traces.append(run.trace) }
            samples[run.trace, default: TuneSample()].add(run.values, weight: Self.weight(of: run, in: weights))
        }
        let all = "\(Self.percent(stallRate(best.samples))) of displays waited, \(FixedPoint.decimal(stallsPerMinute(best.samples), decimals: 1)) stalls a minute of scrolling"
        guard traces.count > 1 else { return [all] }
        return [all, "by session: " + traces.map { trace in
            "\(trace) \(Self.percent(stallRate([samples[trace]!]))) (\(FixedPoint.decimal(stallsPerMinute([samples[trace]!]), decimals: 1))/min)"
        }.joined(separator: ", ")]
    }

    /// A share as `12.3 %`.
    static func percent(_ share: Double) -> String { FixedPoint.decimal(share * 100, decimals: 1) + " %" }

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
