/// The main job's answer across a population of networks: the one setting ranked on the
/// weighted stalls (`MatrixSummary` with the population), and what that costs each network —
/// its own best configuration beside the recommendation's stalls there — and, per path class
/// an app can tell apart (`PathClass`), the best setting for that class's networks alone. When
/// switching between those settings beats the one setting beyond the seeds' noise, the split is
/// the recommendation, with by how much.
public struct PopulationSummary: Sendable {
    /// One network's own answer beside the recommendation's figures there.
    public struct NetworkLine: Sendable {
        public let member: NetworkPopulation.Member
        /// The network's runs alone, ranked (no weighting).
        public let summary: MatrixSummary
        /// The overall recommendation's candidate on this network, if it ran there.
        public let recommendationHere: TuneCandidate?
    }

    /// One path class's own setting.
    public struct PathSetting: Sendable {
        public let path: PathClass
        /// Its share of the population, in millionths.
        public let weight: Int64
        /// Its networks' runs, weighted within the class.
        public let summary: MatrixSummary
    }

    /// Switching by path class, against the one setting.
    public struct Split: Sendable {
        /// Weighted stalls a seed (millionths), seed by seed: the one setting's and the split's.
        public let single: [Int64], split: [Int64]
        /// Whether the split has fewer weighted stalls beyond the seeds' noise.
        public let beatsSingle: Bool

        /// The split's mean weighted stalls below the single setting's, as a share of it.
        public var saving: Double {
            let (one, two) = (SeedNoise.mean(single), SeedNoise.mean(split))
            return one == 0 ? 0 : (one - two) / one
        }
    }

    public let overall: MatrixSummary
    public let networks: [NetworkLine]
    /// One per path class present, in `PathClass` order.
    public let paths: [PathSetting]
    /// `nil` when there is one path class, or a class has no recommendation.
    public let split: Split?

    /// Ranks `runs` over `population` and each of its networks and path classes. O(runs ×
    /// (networks + classes)) plus the rankings.
    public init(profile: DeviceProfile, runs: [MatrixSummary.Run], population: NetworkPopulation, maxHitchRatio: Int64? = nil) {
        overall = MatrixSummary(profile: profile, runs: runs, maxHitchRatio: maxHitchRatio, population: population)
        var byNetwork: [String: [MatrixSummary.Run]] = [:]
        for run in runs { byNetwork[run.network, default: []].append(run) }
        let best = overall.recommended
        networks = population.members.map { member in
            let summary = MatrixSummary(profile: profile, runs: byNetwork[member.network.name] ?? [], maxHitchRatio: maxHitchRatio)
            let here = best.flatMap(summary.candidate(like:))
            return NetworkLine(member: member, summary: summary, recommendationHere: here)
        }
        paths = population.paths.map { path in
            let names = Set(population.members.filter { $0.path == path }.map(\.network.name))
            return PathSetting(path: path, weight: population.weight(of: path),
                               summary: MatrixSummary(profile: profile, runs: runs.filter { names.contains($0.network) },
                                                      maxHitchRatio: maxHitchRatio, population: population.subpopulation(path)))
        }
        split = Self.split(overall: overall, networks: networks, paths: paths)
    }

    /// The split against the one setting, seed by seed: Σ over networks of share × the stalls of
    /// its class's setting there. `nil` with one class, or without a recommendation for each.
    static func split(overall: MatrixSummary, networks: [NetworkLine], paths: [PathSetting]) -> Split? {
        guard paths.count > 1, let single = overall.recommended else { return nil }
        var settings: [PathClass: TuneCandidate] = [:]
        for setting in paths {
            guard let best = setting.summary.recommended else { return nil }
            settings[setting.path] = best
        }
        let seeds = single.samples.count
        var split = [Int64](repeating: 0, count: seeds)
        for line in networks {
            let setting = settings[line.member.path]!
            guard let here = line.summary.candidate(like: setting), here.samples.count == seeds else { return nil }
            for seed in 0..<seeds { split[seed] += line.member.weight * here.samples[seed].stalls }
        }
        let singles = single.samples.map(\.weightedStalls)
        let beyond = SeedNoise.isBeyond(base: singles, new: split, oneCount: TuneFigure.weightedStalls.oneCount).beyond
        return Split(single: singles, split: split, beatsSingle: beyond && SeedNoise.mean(split) < SeedNoise.mean(singles))
    }

    /// The overall table, then a line per network (its share and class, the recommendation's
    /// stalls there, its own best and what the recommendation gives up), then the setting per
    /// path class and whether to switch.
    public func table(limit: Int = 12, style: TerminalStyle = .plain) -> String {
        var text = overall.table(limit: limit, style: style)
        guard overall.population.map({ $0.members.count > 1 }) ?? false else { return text }
        let rows = [["network", "share", "path", "stalls", "its best", "", "gives up"]] + networkRows()
        text += "By network: the recommendation's stalls a seed there beside the network's own best"
            + (overall.screenedOut > 0 ? " (fully run)\n" : "\n")
        text += TextTable.render(rows, leftAligned: [0, 2, 4]).map { "  " + $0 }.joined(separator: "\n") + "\n"
        text += pathLines().joined(separator: "\n") + "\n"
        return text
    }

    /// A row per network: its name, share and path class, the recommendation's stalls a seed
    /// there (`–` where it did not run), the network's own best configuration (ranked on it
    /// alone, within the same limits) and its stalls, and what the recommendation gives up
    /// there (never below 0: the network's best can tie with it).
    func networkRows() -> [[String]] {
        let stalls = TuneFigure.stalls
        return networks.map { line in
            let here = line.recommendationHere.map { stalls.number($0.spread(.stalls).mean) } ?? "–"
            let own = line.summary.recommended
            let ownText = own.map { $0.shortSetting(cellPixels: overall.widthsCell) } ?? "none within the limit"
            let ownStalls = own.map { stalls.number($0.spread(.stalls).mean) } ?? ""
            var givesUp = ""
            if let there = line.recommendationHere, let own {
                givesUp = stalls.number(max(0, there.spread(.stalls).mean - own.spread(.stalls).mean))
            }
            return [line.member.network.name, MatrixSummary.percent(line.member.share), line.member.path.rawValue, here,
                    ownText, ownStalls, givesUp]
        }
    }

    /// The settings per path class and the verdict on switching between them, each line at
    /// most 100 columns.
    func pathLines() -> [String] {
        guard paths.count > 1 else { return [] }
        let settings = paths.map { setting in
            let best = setting.summary.recommended
            return "  on \(setting.path.rawValue) (\(MatrixSummary.percent(Double(setting.weight) / Double(NetworkPopulation.wholeWeight)))): "
                + (best.map { $0.setting(cellPixels: overall.widthsCell, short: true) } ?? "none within the limit")
        }
        guard let split else { return ["By path (NWPathMonitor), each path's own best:"] + settings }
        let figure = TuneFigure.weightedStalls
        let (one, two) = (figure.number(SeedNoise.mean(split.single)), figure.number(SeedNoise.mean(split.split)))
        if split.beatsSingle {
            return ["Recommended per path (NWPathMonitor), switching when the path changes:"] + settings
                + ["  \(MatrixSummary.percent(split.saving)) fewer weighted stalls than one setting (\(two) against \(one) a seed), beyond the seeds' noise"]
        }
        return ["By path (NWPathMonitor), each path's own best: one setting serves every path"] + settings
            + ["  switching would give \(two) weighted stalls a seed against \(one): within the seeds' noise"]
    }
}
