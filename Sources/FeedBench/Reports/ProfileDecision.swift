/// What `bench report` decides for one profile, and where its charts look: every
/// configuration (policy, memory-cache limit, window) ranked as `MatrixSummary` ranks it —
/// the recommendation, the configurations within the seeds' noise of it, those over the
/// profile's memory limit. A profile that is not built in has no known limit: its
/// configurations are ranked by mean stalls alone and none is recommended.
///
/// The focus is the configuration the cache-size and window charts are drawn at (its window,
/// its memory-cache limit): the recommendation, or the best ranked when there is none.
struct ProfileDecision {
    let name: String
    let profile: DeviceProfile?
    let criteria: TuneCriteria
    /// Best first (`TuneCriteria.ranking`).
    let ranking: [TuneCandidate]
    /// The library every configuration is a variant of (`--library` runs), ranked then within
    /// its hitch bound (`ImageLibrary.maxHitchRatio`), as `bench run --library` ranks them.
    let library: ImageLibrary?
    /// How many at the head of `ranking` are within the seeds' noise of the best.
    let equivalentCount: Int
    /// Seeds per configuration (the most any configuration has).
    let seeds: Int
    /// What a seed's figures add up, for subtitles and help: `the browser and skimmer traces on lte`.
    let workloads: String
    /// Each candidate's place in `ranking`, by its number.
    private let places: [Int: Int]
    /// The ranking as `bench run` prints it, for a built-in profile: its figures (weighted over
    /// a population) and the waits by session.
    let summary: MatrixSummary?
    /// Over a population of several networks: what the answer gives up on each network, and
    /// each path class's own setting, as `bench run` prints them.
    let networks: PopulationSummary?

    init(name: String, rows: [ReportRows.Row]) {
        self.name = name
        profile = DeviceProfile.builtIn.first { $0.name == name }
        let runs = rows.map(\.summaryRun)
        library = ImageLibrary.common(to: runs.map(\.policy))
        if let profile {
            let population = (try? NetworkPopulation.matching(profile: profile, networks: runs.map(\.network))) ?? nil
            let hitches = library.map { _ in ImageLibrary.maxHitchRatio }
            if let population, population.members.count > 1 {
                networks = PopulationSummary(profile: profile, runs: runs, population: population, maxHitchRatio: hitches)
            } else {
                networks = nil
            }
            let summary = networks?.overall ?? MatrixSummary(profile: profile, runs: runs, maxHitchRatio: hitches, population: population)
            (criteria, ranking, equivalentCount, seeds) = (summary.criteria, summary.ranking, summary.equivalentCount, summary.seeds)
            self.summary = summary
        } else {
            (summary, networks) = (nil, nil)
            let candidates = MatrixSummary.candidates(runs)
            criteria = TuneCriteria(objective: .stalls, constraints: [])
            (ranking, equivalentCount) = criteria.ranking(candidates)
            seeds = candidates.map(\.samples.count).max() ?? 0
        }
        let traces = ReportRows.distinct(rows.map(\.trace)), networks = ReportRows.distinct(rows.map { $0.identity[ReportRows.network] })
        workloads = "the \(Self.list(traces)) trace\(traces.count == 1 ? "" : "s") on \(Self.list(networks))"
        places = Dictionary(uniqueKeysWithValues: ranking.enumerated().map { ($0.element.number, $0.offset) })
    }

    /// The recommended configuration: the best, when the profile is built in and it stayed
    /// within the memory limit.
    var recommended: TuneCandidate? {
        guard profile != nil, let best = ranking.first, criteria.feasible(best) else { return nil }
        return best
    }

    /// Where the cache-size and window charts look (see the type's description).
    var focus: TuneCandidate? { recommended ?? ranking.first }

    /// What the maps' help adds when image widths were searched: the width they are drawn at
    /// (`drawn`), ` Drawn for the recommendation's width: images 750 px (the cell).`; else nothing.
    var drawnWidthNote: String {
        guard let cell = summary?.widthsCell, let focus else { return "" }
        return " Drawn for the recommendation's width: \(focus.widthPhrase(cellPixels: cell))."
    }

    /// The configurations the maps and the cache-size chart draw: those asking for the
    /// focus's image width, so each cell of a map is one configuration. O(configurations).
    var drawn: [TuneCandidate] { ranking.filter { $0.imageWidth == focus?.imageWidth } }

    /// Why the focus's `what` (`window`, `size`) is the one drawn, for subtitles: `the
    /// recommended window`, or what it is instead.
    func focusReason(_ what: String) -> String {
        recommended != nil ? "the recommended \(what)" : "the \(what) with the fewest stalls; nothing is recommended"
    }

    /// How `candidate` is marked: the recommendation, tied with it within the seeds' noise, or
    /// over the memory limit; nothing for the rest and for a profile that is not built in.
    func mark(_ candidate: TuneCandidate) -> Heatmap.Mark? {
        guard profile != nil else { return nil }
        guard criteria.feasible(candidate) else { return .excluded }
        let place = places[candidate.number]!
        return place == 0 ? .chosen : place < equivalentCount ? .tied : nil
    }

    /// `a`, `a and b`, `a, b and c`.
    static func list(_ items: [String]) -> String {
        items.count < 2 ? items.joined() : items.dropLast().joined(separator: ", ") + " and " + items.last!
    }

    /// "3 seeds", "1 seed".
    var seedsText: String { seeds == 1 ? "1 seed" : "\(seeds) seeds" }

    /// The stalls the configurations are ranked by and the charts draw: a population's weighted
    /// by each network's share (`weighted_stalls`), else each seed's runs summed.
    var stallsFigure: TuneFigure { summary?.population != nil ? .weightedStalls : .stalls }

    /// How a seed's stalls add up, for axis titles: `runs summed`, or `networks weighted by share`.
    var stallsSummed: String { summary?.population != nil ? "networks weighted by share" : "runs summed" }

    /// What the stalls are called in sentences: `stalls`, or `weighted stalls`.
    var stallsName: String { summary?.population != nil ? "weighted stalls" : "stalls" }

    /// `candidate`'s stalls, mean and spread: `6.7 stalls a seed (6–7 over 3 seeds)`, or
    /// `4 stalls a seed (1 seed)`; over a population `107.3 weighted stalls a seed (102.7–116
    /// over 3 seeds)`, the objective `bench run` ranks by.
    func stalls(_ candidate: TuneCandidate) -> String {
        let (mean, range) = summary?.spread(candidate) ?? {
            let stalls = candidate.spread(.stalls)
            return (TuneFigure.stalls.format(stalls.mean), "\(stalls.min)–\(stalls.max)")
        }()
        return "\(mean) \(stallsName) a seed (\(seeds == 1 ? "" : "\(range) over ")\(seedsText))"
    }

    /// How often `candidate`'s displays waited, as `bench run` says it: `17.5 % of displays
    /// waited, 36.2 stalls a minute of scrolling; by session: browser 4.0 % (3.4/min), …`; empty
    /// for a profile that is not built in.
    func waits(_ candidate: TuneCandidate) -> String {
        summary.map { $0.sessionLines(candidate).joined(separator: "; ") } ?? ""
    }

    /// `candidate`'s mean display-latency p95 and peak memory: `display-latency p95 0.0 ms,
    /// peak memory 56.3 MiB`.
    func latencyAndPeak(_ candidate: TuneCandidate) -> String {
        "display-latency p95 \(TuneFigure.displayP95.format(candidate.spread(.displayP95).mean)), "
            + "peak memory \(FixedPoint.mebibytes(Int64(candidate.spread(.peakMemory).mean.rounded())))"
    }
}
