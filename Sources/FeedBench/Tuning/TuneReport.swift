/// What `bench tune` prints and writes: the Pareto front of the fully evaluated, feasible
/// candidates — none of them beaten on stalls, peak memory, requests and the objective at once
/// by another — and the recommendation, the best of them on the mean objective (`TuneCriteria`).
/// The candidates come from a search (`TuneSearch`) or from results files (`TuneResults`).
public struct TuneReport: Sendable {
    public let profile: DeviceProfile
    public let criteria: TuneCriteria
    /// Every candidate, with the seeds it was evaluated on.
    public let candidates: [TuneCandidate]
    /// The seeds a fully evaluated candidate has.
    public let seeds: Int
    /// Where the candidates came from, for the summary's first line (`halving search, 656 runs`).
    public let origin: String
    /// The front, best first.
    public let front: [TuneCandidate]
    /// `nil` when no candidate met the constraints on every seed.
    public let recommended: TuneCandidate?

    /// The report on a search's outcome.
    public init(profile: DeviceProfile, search: TuneSearch, outcome: TuneSearch.Outcome) {
        self.init(profile: profile, criteria: search.criteria, candidates: outcome.candidates, seeds: outcome.seeds,
                  origin: "\(outcome.method.rawValue) search, \(outcome.runs) runs")
    }

    /// The report on `candidates`, of which those with `seeds` samples are fully evaluated.
    public init(profile: DeviceProfile, criteria: TuneCriteria, candidates: [TuneCandidate], seeds: Int, origin: String) {
        self.profile = profile
        self.criteria = criteria
        self.candidates = candidates
        self.seeds = seeds
        self.origin = origin
        let finalists = candidates.filter { $0.samples.count == seeds && criteria.feasible($0) }
        let figures = [TuneFigure.stalls, .peakMemory, .requests, criteria.objective]
        func dominates(_ a: TuneCandidate, _ b: TuneCandidate) -> Bool {
            let pairs = figures.map { (a.spread($0).mean, b.spread($0).mean) }
            return pairs.allSatisfy { $0.0 <= $0.1 } && pairs.contains { $0.0 < $0.1 }
        }
        // The recommendation is the ranking's first (of the candidates tied within the seeds'
        // noise, the smallest cache), listed first even where another beats it on a figure.
        let best = criteria.rank(finalists).first
        let others = finalists.filter { candidate in
            candidate.number != best?.number && !finalists.contains { dominates($0, candidate) }
        }
        recommended = best
        front = (best.map { [$0] } ?? []) + criteria.rank(others)
    }

    /// The front as CSV: the candidate, then each figure's mean (3 decimals), min and max over
    /// the seeds, and whether it is the recommendation.
    public var csv: String {
        let figures = [TuneFigure.stalls, .stallP95, .peakMemory, .requests, .bytes, .warnings]
        var header = ["profile", "policy", "memory_limit_bytes", "prefetch_window", "strategy", "seeds"]
        for figure in figures { header += ["\(figure.name)_mean", "\(figure.name)_min", "\(figure.name)_max"] }
        var lines = [(header + ["recommended"]).joined(separator: ",")]
        for candidate in front {
            var cells = [CSVText.field(profile.name), CSVText.field(candidate.policy), String(candidate.memoryLimitBytes),
                         CSVText.field(candidate.window), CSVText.field(candidate.strategy), String(candidate.samples.count)]
            for figure in figures {
                let spread = candidate.spread(figure)
                cells += [FixedPoint.decimal(spread.mean, decimals: 3), String(spread.min), String(spread.max)]
            }
            cells.append(candidate.number == recommended?.number ? "yes" : "")
            lines.append(cells.joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The terminal summary, at most 100 columns wide.
    public var table: String {
        let constraints = criteria.constraints.map(\.description).joined(separator: ", ")
        var lines = ["\(profile.name) (\(profile.model)): \(candidates.count) configurations, \(origin)",
                     "minimising mean \(criteria.objective.name); on every seed \(constraints.isEmpty ? "no constraint" : constraints)"]
        let figures = ["stalls", "peak memory", "requests"] + (criteria.objective == .stalls ? [] : [criteria.objective.name])
        lines.append("Pareto front (\(figures.joined(separator: ", ")); means over \(seeds) seed\(seeds == 1 ? "" : "s")):")
        var rows = [["policy", "mem limit", "window", "strategy", "stalls", "p95 stall", "peak memory", "requests", ""]]
        for candidate in front {
            rows.append([candidate.policy, TuneFigure.peakMemory.format(Double(candidate.memoryLimitBytes)), candidate.window,
                         candidate.strategy, TuneFigure.stalls.format(candidate.spread(.stalls).mean),
                         TuneFigure.stallP95.format(candidate.spread(.stallP95).mean),
                         TuneFigure.peakMemory.format(candidate.spread(.peakMemory).mean),
                         TuneFigure.requests.format(candidate.spread(.requests).mean),
                         candidate.number == recommended?.number ? "← recommended" : ""])
        }
        lines += TextTable.render(rows, leftAligned: [0, 3, 8])
        guard let best = recommended else {
            lines.append("Recommended: none — no configuration met the constraints on every seed")
            return lines.joined(separator: "\n") + "\n"
        }
        lines.append("Recommended: \(best.policy), memory cache \(TuneFigure.peakMemory.format(Double(best.memoryLimitBytes))), prefetch window \(best.window)\(best.strategy == "cacheFirst" ? "" : ", strategy \(best.strategy)")")
        for figure in [TuneFigure.stalls, .stallP95, .peakMemory, .requests] {
            let spread = best.spread(figure)
            lines.append("  \(figure.name) mean \(figure.format(spread.mean)), min \(figure.format(Double(spread.min))), max \(figure.format(Double(spread.max))) over \(best.samples.count) seed\(best.samples.count == 1 ? "" : "s")")
        }
        return lines.joined(separator: "\n") + "\n"
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
