/// What `bench tune` prints and writes: the Pareto front of the fully evaluated, feasible
/// candidates — none of them beaten by another on everything the table shows at once: the
/// memory limit and the mean of each of `figures`, as shown (a difference the table rounds away
/// is none) — and the recommendation, the best of them on the mean objective (`TuneCriteria`),
/// with a note when it sits on the edge of the space searched. The candidates come from a
/// search (`TuneSearch`) or from results files (`TuneResults`).
public struct TuneReport: Sendable {
    public let profile: DeviceProfile
    public let criteria: TuneCriteria
    /// Every candidate, with the seeds it was evaluated on.
    public let candidates: [TuneCandidate]
    /// The seeds a fully evaluated candidate has.
    public let seeds: Int
    /// Where the candidates came from, for the summary's first line (`halving search, 656 runs`).
    public let origin: String
    /// The figures the front is drawn over besides the memory limit, each minimised, as the
    /// table's columns: stalls, p95 stall, peak memory, requests, and the objective when it is
    /// none of these (bytes).
    public let figures: [TuneFigure]
    /// The front, best first.
    public let front: [TuneCandidate]
    /// `nil` when no candidate met the constraints on every seed.
    public let recommended: TuneCandidate?
    /// The lines after the recommendation on how far ns-3 holds the networks the candidates were
    /// simulated on, and which of their workloads it never replays (`NetworkAgreement.lines`);
    /// none for candidates read from files.
    public let agreement: [String]

    /// The report on a search's outcome.
    public init(profile: DeviceProfile, search: TuneSearch, outcome: TuneSearch.Outcome) {
        self.init(profile: profile, criteria: search.criteria, candidates: outcome.candidates, seeds: outcome.seeds,
                  origin: "\(outcome.method.rawValue) search, \(outcome.runs) runs", networks: search.space.plan.simulatedNetworks,
                  workloads: search.space.plan.firstProfileWorkloads)
    }

    /// The report on `candidates`, of which those with `seeds` samples are fully evaluated.
    public init(profile: DeviceProfile, criteria: TuneCriteria, candidates: [TuneCandidate], seeds: Int, origin: String,
                networks: [NetworkProfile] = [], workloads: [ScrollWorkload] = []) {
        self.profile = profile
        agreement = NetworkAgreement.lines(networks: networks, workloads: workloads)
        self.criteria = criteria
        self.candidates = candidates
        self.seeds = seeds
        self.origin = origin
        let finalists = candidates.filter { $0.samples.count == seeds && criteria.feasible($0) }
        let columns = [TuneFigure.stalls, .stallP95, .peakMemory, .requests]
        let figures = columns.contains(criteria.objective) ? columns : columns + [criteria.objective]
        self.figures = figures
        // What the table shows of each finalist: its memory limit, then each figure's mean.
        let shown = finalists.map { candidate in
            [TuneFigure.peakMemory.shown(Double(candidate.memoryLimitBytes))] + figures.map { $0.shown(candidate.spread($0).mean) }
        }
        func beaten(_ b: Int) -> Bool {
            shown.contains { a in zip(a, shown[b]).allSatisfy { $0 <= $1 } && zip(a, shown[b]).contains { $0 < $1 } }
        }
        // The recommendation is the ranking's first (of the candidates tied within the seeds'
        // noise, the smallest cache), listed first even where another beats it on a figure.
        let best = criteria.rank(finalists).first
        recommended = best
        front = (best.map { [$0] } ?? []) + criteria.rank(finalists.indices.filter { finalists[$0].number != best?.number && !beaten($0) }.map { finalists[$0] })
    }

    /// Notes on a recommendation at the edge of the space searched — the smallest or largest of
    /// two or more memory limits, the largest of two or more windows of N items — each naming
    /// the option that widens the search there.
    public var edgeNotes: [String] {
        guard let best = recommended else { return [] }
        var notes: [String] = []
        let limits = Set(candidates.map(\.memoryLimitBytes))
        let limit = FixedPoint.cacheLimit(best.memoryLimitBytes)
        if limits.count > 1, best.memoryLimitBytes == limits.min() {
            notes.append("note: \(limit) is the smallest memory limit tried: try lower --memory-limit values too")
        } else if limits.count > 1, best.memoryLimitBytes == limits.max() {
            notes.append("note: \(limit) is the largest memory limit tried: try higher --memory-limit values too")
        }
        let ahead = Set(candidates.compactMap { try? PrefetchWindow.parse($0.window, source: "") }.map(\.ahead))
        if ahead.count > 1, let window = try? PrefetchWindow.parse(best.window, source: ""), window.ahead == ahead.max() {
            notes.append("note: window \(best.window) is the largest tried: try higher --window values too")
        }
        return notes
    }

    /// The front as CSV: the candidate, then each figure's mean (3 decimals), min and max over
    /// the seeds, and whether it is the recommendation.
    public var csv: String {
        let figures = [TuneFigure.stalls, .stallP95, .peakMemory, .requests, .bytes, .warnings]
        var header = ["profile", "policy", "memory_limit_bytes", "prefetch_window", "strategy", "seeds"]
        for figure in figures { header += ["\(figure.name)_mean", "\(figure.name)_min", "\(figure.name)_max"] }
        var lines = [(header + ["image_width", "recommended"]).joined(separator: ",")]
        for candidate in front {
            var cells = [CSVText.field(profile.name), CSVText.field(candidate.policy), String(candidate.memoryLimitBytes),
                         CSVText.field(candidate.window), CSVText.field(candidate.strategy), String(candidate.samples.count)]
            for figure in figures {
                let spread = candidate.spread(figure)
                cells += [FixedPoint.decimal(spread.mean, decimals: 3), String(spread.min), String(spread.max)]
            }
            cells.append(candidate.imageWidth.map(String.init) ?? "full")
            cells.append(candidate.number == recommended?.number ? "yes" : "")
            lines.append(cells.joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The terminal summary, at most 100 columns wide: a strategy column only when more than one
    /// was searched (the `Recommended:` line names one other than cacheFirst), and the
    /// recommendation marked `← best` as in the main job's table.
    public var table: String {
        let constraints = criteria.constraints.map(\.description).joined(separator: ", ")
        var lines = ["\(profile.name) (\(profile.model)): \(candidates.count) configurations, \(origin)",
                     "minimising mean \(criteria.objective.name); on every seed \(constraints.isEmpty ? "no constraint" : constraints)"]
        let titles = figures.map(Self.title)
        lines.append("Pareto front (mem limit, \(titles.joined(separator: ", ")); means over \(seeds) seed\(seeds == 1 ? "" : "s")):")
        let strategies = Set(candidates.map(\.strategy)).count > 1
        let widths = Set(candidates.map(\.imageWidth)).count > 1
        var rows = [(widths ? ["width"] : []) + ["policy", "mem limit", "window"] + (strategies ? ["strategy"] : []) + titles + [""]]
        for candidate in front {
            rows.append((widths ? [candidate.imageWidth.map(String.init) ?? "full"] : [])
                        + [candidate.policy, FixedPoint.cacheLimit(candidate.memoryLimitBytes), candidate.window]
                        + (strategies ? [candidate.strategy] : []) + figures.map { $0.format(candidate.spread($0).mean) }
                        + [candidate.number == recommended?.number ? "← best" : ""])
        }
        let first = widths ? 1 : 0
        lines += TextTable.render(rows, leftAligned: Set((strategies ? [first, first + 3] : [first]) + [rows[0].count - 1]))
        guard let best = recommended else {
            lines.append("Recommended: none — no configuration met the constraints on every seed")
            return (lines + agreement).joined(separator: "\n") + "\n"
        }
        lines.append("Recommended: \(best.setting(cellPixels: widths ? profile.cellPixels : nil))\(best.strategy == "cacheFirst" ? "" : ", strategy \(best.strategy)")")
        let figures = [TuneFigure.stalls, .stallP95, .peakMemory, .requests]
        for figure in figures.contains(criteria.objective) ? figures : [criteria.objective] + figures {
            let spread = best.spread(figure)
            lines.append("  \(figure.name) mean \(figure.format(spread.mean)), min \(figure.format(Double(spread.min))), max \(figure.format(Double(spread.max))) over \(best.samples.count) seed\(best.samples.count == 1 ? "" : "s")")
        }
        lines += edgeNotes + agreement
        return lines.joined(separator: "\n") + "\n" + LibrarySettings.summary(of: best, on: profile)
    }

    /// A figure's column title.
    static func title(_ figure: TuneFigure) -> String {
        switch figure {
        case .stallP95: "p95 stall"
        case .peakMemory: "peak memory"
        default: figure.name
        }
    }
}

/// Columns of text padded to their widest cell, numbers right-aligned, two spaces apart.
enum TextTable {
    static func render(_ rows: [[String]], leftAligned: Set<Int>) -> [String] {
        guard let first = rows.first else { return [] }
        let widths = first.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, text in
                let pad = String(repeating: " ", count: widths[column] - text.count)
                return leftAligned.contains(column) ? text + pad : pad + text
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }
    }
}

extension TuneFigure {
    /// `value` as the table shows it (`format`), read back as a number in the unit shown
    /// (`112.1 MiB` → 112.1).
    func shown(_ value: Double) -> Double {
        Double(format(value).prefix { $0 != " " })!
    }
}
