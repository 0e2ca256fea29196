@testable import FeedBench
import Testing

/// `bench tune`'s report: the front is exactly the candidates no other beats on everything the
/// table shows, each figure appears once in the header, and a recommendation on the edge of the
/// space searched says how to widen it.
@Suite struct TuneReportTests {
    /// A candidate with one sample per seed; figures given per sample as (stalls, p95 in
    /// thousandths of a ms, peak memory, requests, bytes).
    static func candidate(_ number: Int, policy: String = "lru", limit: Int64 = 100 << 20, window: String = "0",
                          strategy: String = "cacheFirst", samples: [(Int64, Int64, Int64, Int64, Int64)]) -> TuneCandidate {
        var candidate = TuneCandidate(number: number, policy: policy, memoryLimitBytes: limit, window: window, strategy: strategy)
        candidate.samples = samples.map { figures in
            var sample = TuneSample()
            (sample.stalls, sample.stallP95, sample.peakMemory, sample.requests, sample.bytes) = figures
            return sample
        }
        return candidate
    }

    static func report(_ candidates: [TuneCandidate], objective: TuneFigure = .stalls, seeds: Int = 1) -> TuneReport {
        TuneReport(profile: .lowEnd, criteria: TuneCriteria(objective: objective, constraints: []), candidates: candidates,
                   seeds: seeds, origin: "test")
    }

    /// What the table shows for `objective`, each minimised: the memory limit and these means.
    static func shownFigures(_ objective: TuneFigure) -> [TuneFigure] {
        [.stalls, .stallP95, .peakMemory, .requests] + ([TuneFigure.bytes, .displayP95].contains(objective) ? [objective] : [])
    }

    /// `a` beats `b`, from the definition: no worse on the memory limit and on every figure
    /// as the table shows them (`450.0 MiB`, `266.0 ms`, `626.6`), better on one.
    static func beats(_ a: TuneCandidate, _ b: TuneCandidate, _ figures: [TuneFigure]) -> Bool {
        func shown(_ figure: TuneFigure, _ value: Double) -> Double { Double(figure.format(value).split(separator: " ")[0])! }
        let pairs = [(shown(.peakMemory, Double(a.memoryLimitBytes)), shown(.peakMemory, Double(b.memoryLimitBytes)))]
            + figures.map { (shown($0, a.spread($0).mean), shown($0, b.spread($0).mean)) }
        return pairs.allSatisfy { $0.0 <= $0.1 } && pairs.contains { $0.0 < $0.1 }
    }

    /// 300 random sets of 2–30 candidates on 2 seeds, figures from a few values (some closer
    /// than the table shows) so that ties and near-ties are common, every objective: the front
    /// is the recommendation (the shared ranking's first, `TuneCriteria`), then every candidate
    /// no other beats, and no other.
    @Test func theFrontIsExactlyTheCandidatesNoOtherBeats() {
        var generator = SeededGenerator(seed: 14)
        let mib: Int64 = 1 << 20
        for round in 0..<300 {
            let count = Int(generator.next(in: 2...30))
            let candidates = (0..<count).map { number in
                Self.candidate(number, limit: 100 * mib * generator.next(in: 1...3), samples: (0..<2).map { _ in
                    (generator.next(in: 0...3), 100_000 * generator.next(in: 0...2) + generator.next(in: 0...20),
                     mib * generator.next(in: 0...2) + generator.next(in: 0...9_000), generator.next(in: 0...2), mib * generator.next(in: 0...2))
                })
            }
            let objective = TuneFigure.objectives[round % TuneFigure.objectives.count]
            let report = Self.report(candidates, objective: objective, seeds: 2)
            let figures = Self.shownFigures(objective)
            let unbeaten = candidates.filter { candidate in !candidates.contains { Self.beats($0, candidate, figures) } }
            let recommended = TuneCriteria(objective: objective, constraints: []).rank(candidates).first!
            #expect(report.front.first?.number == recommended.number && report.recommended?.number == recommended.number)
            #expect(Set(report.front.map(\.number)) == Set(unbeaten.map(\.number)).union([recommended.number]), "round \(round), \(objective.name)")
        }
    }

    /// A candidate equal on stalls, peak memory and requests but slower at p95, or as good with
    /// a larger cache, is beaten: the table shows both figures.
    @Test func aWorseP95OrALargerCacheForTheSameFiguresIsOffTheFront() {
        let best = Self.candidate(0, limit: 100 << 20, samples: [(7, 300_000, 50 << 20, 600, 9)])
        let slower = Self.candidate(1, limit: 100 << 20, samples: [(7, 400_000, 50 << 20, 600, 9)])
        let larger = Self.candidate(2, limit: 200 << 20, samples: [(7, 300_000, 50 << 20, 600, 9)])
        #expect(Self.report([best, slower, larger]).front.map(\.number) == [0])
    }

    /// The table shows 0.1 MiB and 0.1 ms: a candidate that looks the same but for more
    /// requests is off the front, even if its peak is a few bytes lower.
    @Test func aDifferenceTheTableRoundsAwayIsNone() {
        let mib: Int64 = 1 << 20
        let fewer = Self.candidate(0, samples: [(7, 266_000, 112 * mib + 100_000, 626, 9)])
        let more = Self.candidate(1, samples: [(7, 266_040, 112 * mib + 90_000, 636, 9)])
        #expect(Self.report([more, fewer]).front.map(\.number) == [0])
    }

    @Test(arguments: TuneFigure.objectives)
    func theHeaderNamesEachFigureOnce(objective: TuneFigure) {
        let table = Self.report([Self.candidate(0, samples: [(7, 300_000, 50, 600, 9)])], objective: objective).table
        let lines = table.split(separator: "\n").map(String.init)
        let added = [TuneFigure.bytes, .displayP95].contains(objective) ? [objective.name] : []
        let expected = ["mem limit", "stalls", "p95 stall", "peak memory", "requests"] + added
        #expect(lines[2] == "Pareto front (\(expected.joined(separator: ", ")); means over 1 seed):")
        #expect(lines[3].hasPrefix("policy  mem limit  window  stalls  p95 stall  peak memory  requests"))
        #expect(lines[3].contains("bytes") == (objective == .bytes))
    }

    /// With the bytes column, a long policy name and figures as large as a tune gets (p95 of
    /// seconds, GiB downloaded), the table still fits 100 columns; the strategy column appears
    /// only when strategies were searched.
    @Test func theTableFitsAHundredColumns() {
        let gib: Int64 = 1 << 30
        let long = Self.candidate(0, policy: "ttl:max-age=300", limit: gib, window: "100+100",
                                  samples: [(1234, 2_500_000, gib, 9_876, 9 * gib)])
        let table = Self.report([long], objective: .bytes).table
        #expect(table.split(separator: "\n").allSatisfy { $0.count <= 100 }, "\(table)")
        let other = Self.candidate(1, strategy: "cacheWithTimeout:2s", samples: [(1, 1, 1, 1, 1)])
        #expect(Self.report([long, other]).table.contains("  strategy  "))
    }

    @Test func aRecommendationOnTheEdgeOfTheSpaceSaysHowToWidenIt() {
        func notes(best: (Int64, String), others: [(Int64, String)]) -> [String] {
            let good = Self.candidate(0, limit: best.0, window: best.1, samples: [(1, 1, 1, 1, 1)])
            let rest = others.enumerated().map { Self.candidate($0.offset + 1, limit: $0.element.0, window: $0.element.1, samples: [(9, 9, 9, 9, 9)]) }
            let report = Self.report([good] + rest)
            #expect(report.recommended?.number == 0)
            #expect(report.table.hasSuffix(report.edgeNotes.map { $0 + "\n" }.joined()))
            return report.edgeNotes
        }
        let mib: Int64 = 1 << 20
        #expect(notes(best: (100 * mib, "10"), others: [(200 * mib, "20"), (400 * mib, "0")])
                == ["note: 100.0 MiB is the smallest memory limit tried: try lower --memory-limit values too"])
        #expect(notes(best: (400 * mib, "10"), others: [(200 * mib, "20"), (100 * mib, "0")])
                == ["note: 400.0 MiB is the largest memory limit tried: try higher --memory-limit values too"])
        #expect(notes(best: (200 * mib, "50"), others: [(100 * mib, "20"), (400 * mib, "0")])
                == ["note: window 50 is the largest tried: try higher --window values too"])
        #expect(notes(best: (200 * mib, "10"), others: [(100 * mib, "20"), (400 * mib, "0")]).isEmpty)
        // One value tried is a choice, not an edge; windows that are not counts have no largest.
        #expect(notes(best: (200 * mib, "velocity"), others: [(200 * mib, "device")]).isEmpty)
    }
}
