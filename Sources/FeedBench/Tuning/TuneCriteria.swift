import Foundation

/// One configuration's figures on one seed, over all its workloads: counts and bytes summed,
/// percentiles and peak memory the worst of them (as the main job's ranking does). Over a
/// population of networks, each network's runs also add their stalls, displays, scrolling
/// frames and bytes weighted by its share (`NetworkPopulation.Member.weight`, millionths).
public struct TuneSample: Sendable, Equatable {
    public var stalls: Int64 = 0
    /// Σ weight × stalls over the networks, in millionths of a stall (one network: stalls × 10⁶).
    public var weightedStalls: Int64 = 0
    /// Σ weight × displays, in millionths.
    public var weightedDisplays: Int64 = 0
    /// Σ weight × frames the feed scrolled during, in millionths.
    public var weightedFrames: Int64 = 0
    /// Σ weight × bytes downloaded, in millionths of a byte.
    public var weightedBytes: Int64 = 0
    /// Thousandths of a millisecond.
    public var stallP95: Int64 = 0
    /// 95th-percentile display latency (every display, 0 for a memory hit), thousandths of a
    /// millisecond.
    public var displayP95: Int64 = 0
    public var displays: Int64 = 0
    /// Memory and disk hits.
    public var hits: Int64 = 0
    public var requests: Int64 = 0
    public var bytes: Int64 = 0
    public var peakMemory: Int64 = 0
    public var warnings: Int64 = 0
    public var kills: Int64 = 0
    /// Hitch time per second of scrolling, worst workload, thousandths of a ms per second.
    public var hitchRatio: Int64 = 0

    public init() {}

    /// Adds one workload's run, from its figures in `ResultMetric.all` order (as a results row
    /// holds them, or `RunResult.metricValues`), so a run simulated now and the same run read
    /// back from a results CSV add exactly the same. `weight`: the run's network's share of its
    /// population, in millionths (the whole of it by default).
    public mutating func add(_ values: [Int64], weight: Int64 = NetworkPopulation.wholeWeight) {
        let columns = Self.columns
        stalls += values[columns.stalls]
        weightedStalls += weight * values[columns.stalls]
        weightedDisplays += weight * values[columns.displays]
        weightedFrames += weight * max(0, values[columns.frames])
        weightedBytes += weight * values[columns.bytes]
        stallP95 = max(stallP95, values[columns.stallP95])
        displayP95 = max(displayP95, values[columns.displayP95])
        displays += values[columns.displays]
        hits += values[columns.memoryHits] + values[columns.diskHits]
        requests += values[columns.requests]
        bytes += values[columns.bytes]
        peakMemory = max(peakMemory, values[columns.peakMemory])
        warnings += values[columns.warnings]
        kills += values[columns.kills]
        hitchRatio = max(hitchRatio, values[columns.hitchRatio])
    }

    /// Where each figure is among `ResultMetric.all`.
    static let columns = (stalls: column("stalls"), stallP95: column("stall_ms_p95"), displayP95: column("display_latency_ms_p95"),
                          displays: column("displays"), memoryHits: column("memory_hits"), diskHits: column("disk_hits"),
                          requests: column("image_requests"), bytes: column("bytes_downloaded"),
                          peakMemory: column("peak_memory_bytes"), warnings: column("memory_warnings"),
                          kills: column("jetsam_kills"), hitchRatio: column("hitch_time_ratio_ms_per_s"), frames: column("frames"))

    static func column(_ name: String) -> Int { ResultMetric.all.firstIndex { $0.name == name }! }
}

/// A candidate and the samples it got, one per seed evaluated, in seed order.
public struct TuneCandidate: Sendable {
    public let number: Int
    public let policy: String
    public let memoryLimitBytes: Int64
    public let window: String
    public let strategy: String
    /// The width its images are asked at, in pixels; `nil`: the original.
    public let imageWidth: Int?
    public internal(set) var samples: [TuneSample] = []

    public init(number: Int, policy: String, memoryLimitBytes: Int64, window: String, strategy: String, imageWidth: Int? = nil) {
        (self.number, self.policy, self.memoryLimitBytes, self.window) = (number, policy, memoryLimitBytes, window)
        (self.strategy, self.imageWidth) = (strategy, imageWidth)
    }

    /// The setting in words, as a summary recommends it: `fifo, memory cache 112.5 MiB, prefetch
    /// window 30`, then its image width when the widths were searched (`cellPixels` given):
    /// `, images 750 px (the cell)`, or with `short` `, cell` (`, full size`, `, 500 px`).
    public func setting(cellPixels: Int?, short: Bool = false) -> String {
        let text = "\(policy), memory cache \(FixedPoint.cacheLimit(memoryLimitBytes)), prefetch window \(window)"
        guard let cellPixels else { return text }
        guard short else { return text + ", " + widthPhrase(cellPixels: cellPixels) }
        return text + ", " + (imageWidth == nil ? "full size" : imageWidth == cellPixels ? "cell" : "\(imageWidth!) px")
    }

    /// Its image width for a table: `full`, `cell` (the cell's pixels) or the pixels (`500`). O(1).
    public func widthLabel(cellPixels: Int) -> String {
        imageWidth.map { $0 == cellPixels ? "cell" : String($0) } ?? "full"
    }

    /// Its image width in words: `images 750 px (the cell)`, `images 500 px` or
    /// `images at full size`. O(1).
    public func widthPhrase(cellPixels: Int) -> String {
        imageWidth.map { "images \($0) px" + ($0 == cellPixels ? " (the cell)" : "") } ?? "images at full size"
    }

    /// The setting as a table cell: `fifo 112.5 MiB w30`, led by `cell ` or the width asked
    /// (`full `, `500 `) when the widths were searched (`cellPixels` given).
    public func shortSetting(cellPixels: Int?) -> String {
        let width = cellPixels.map { widthLabel(cellPixels: $0) + " " } ?? ""
        return "\(width)\(policy) \(FixedPoint.cacheLimit(memoryLimitBytes)) w\(window)"
    }

    /// The mean, minimum and maximum of `figure` over the samples.
    public func spread(_ figure: TuneFigure) -> (mean: Double, min: Int64, max: Int64) {
        let values = samples.map(figure.value)
        return (Double(values.reduce(0, +)) / Double(max(values.count, 1)), values.min() ?? 0, values.max() ?? 0)
    }
}

/// A figure `bench tune` can minimise or bound: its name on the command line, how it reads
/// from a sample, and how its values are written.
public struct TuneFigure: Sendable, Equatable {
    public let name: String
    /// What it measures, for help and tables.
    public let meaning: String
    let unit: Unit
    let value: @Sendable (TuneSample) -> Int64

    enum Unit: Sendable, Equatable {
        case count, bytes, thousandthsOfMillisecond, thousandthsOfMillisecondPerSecond
        /// A weighted count, in millionths.
        case millionthsOfCount
    }

    /// One unit of a count in this figure's stored values (the least difference the seeds'
    /// noise rule allows for); 0 for a figure that is not a count.
    var oneCount: Double {
        switch unit {
        case .count: 1
        case .millionthsOfCount: Double(NetworkPopulation.wholeWeight)
        case .bytes, .thousandthsOfMillisecond, .thousandthsOfMillisecondPerSecond: 0
        }
    }

    public static func == (a: TuneFigure, b: TuneFigure) -> Bool { a.name == b.name }

    public static let stalls = TuneFigure(name: "stalls", meaning: "displays that waited for their image, summed over workloads", unit: .count) { $0.stalls }
    public static let weightedStalls = TuneFigure(name: "weighted_stalls", meaning: "stalls summed over workloads, weighted by each network's share of the population", unit: .millionthsOfCount) { $0.weightedStalls }
    public static let weightedBytes = TuneFigure(name: "weighted_bytes", meaning: "bytes downloaded, summed, weighted by each network's share", unit: .bytes) { $0.weightedBytes / NetworkPopulation.wholeWeight }
    public static let stallP95 = TuneFigure(name: "stall_p95", meaning: "95th-percentile stall, worst workload (ms)", unit: .thousandthsOfMillisecond) { $0.stallP95 }
    public static let displayP95 = TuneFigure(name: "display_p95", meaning: "95th-percentile display latency over every display, worst workload (ms)", unit: .thousandthsOfMillisecond) { $0.displayP95 }
    public static let requests = TuneFigure(name: "requests", meaning: "image downloads started, summed", unit: .count) { $0.requests }
    public static let bytes = TuneFigure(name: "bytes", meaning: "bytes downloaded, summed", unit: .bytes) { $0.bytes }
    public static let peakMemory = TuneFigure(name: "peak_memory", meaning: "peak tracked memory, worst workload", unit: .bytes) { $0.peakMemory }
    public static let warnings = TuneFigure(name: "warnings", meaning: "memory warnings, summed", unit: .count) { $0.warnings }
    public static let kills = TuneFigure(name: "kills", meaning: "jetsam kills, summed", unit: .count) { $0.kills }
    public static let hitchRatio = TuneFigure(name: "hitch_ratio", meaning: "hitch time per second of scrolling, worst workload (ms/s)", unit: .thousandthsOfMillisecondPerSecond) { $0.hitchRatio }

    /// What `--objective` takes.
    public static let objectives: [TuneFigure] = [stalls, displayP95, stallP95, requests, bytes]
    /// What `--constraint` takes.
    public static let all: [TuneFigure] = [stalls, displayP95, stallP95, requests, bytes, peakMemory, warnings, kills, hitchRatio]

    /// The figure called `name` among `choices`, or a refusal from `source` listing them.
    public static func named(_ name: String, among choices: [TuneFigure], source: String) throws -> TuneFigure {
        if let figure = choices.first(where: { $0.name == name }) { return figure }
        throw InputError(source: source, "unknown figure \(InputError.quote(name)); expected one of \(choices.map(\.name).joined(separator: ", "))")
    }

    /// Stored values per unit shown: 1,000 for the figures held in thousandths.
    var storedPerShown: Double {
        switch unit {
        case .count, .bytes: 1
        case .millionthsOfCount: Double(NetworkPopulation.wholeWeight)
        case .thousandthsOfMillisecond, .thousandthsOfMillisecondPerSecond: 1_000
        }
    }

    /// A value as written in tables: `450.0 MiB`, `391.2 ms`, `7`; `decimals` for means.
    func format(_ value: Double) -> String {
        switch unit {
        case .count, .millionthsOfCount: number(value)
        case .bytes: number(value) + " MiB"
        case .thousandthsOfMillisecond: number(value) + " ms"
        case .thousandthsOfMillisecondPerSecond: number(value) + " ms/s"
        }
    }

    /// `value` as `format` writes it, without the unit: for a heatmap's cells, whose key names it.
    func number(_ value: Double) -> String {
        switch unit {
        case .count: FixedPoint.decimal(value, decimals: 1).trimmingZeroDecimals()
        case .millionthsOfCount: FixedPoint.decimal(value / Double(NetworkPopulation.wholeWeight), decimals: 1).trimmingZeroDecimals()
        case .bytes: FixedPoint.decimal(value / 1_048_576, decimals: 1)
        case .thousandthsOfMillisecond, .thousandthsOfMillisecondPerSecond: FixedPoint.decimal(value / 1_000, decimals: 1)
        }
    }

    /// Parses a bound's value in this figure's unit: sizes (`300MB`), milliseconds (`250ms`
    /// or `250`), counts.
    public func parseBound(_ text: String, source: String) throws -> Int64 {
        switch unit {
        case .bytes:
            return try Quantities.byteSize(text, source: source)
        case .thousandthsOfMillisecond:
            let number = text.hasSuffix("ms") ? String(text.dropLast(2)) : text
            guard let value = ResultMetric.parseScaled(Substring(number), decimals: 3) else {
                throw InputError(source: source, "expected milliseconds with at most 3 decimals (e.g. 250ms), found \(InputError.quote(text))")
            }
            return value
        case .thousandthsOfMillisecondPerSecond:
            let number = text.hasSuffix("ms/s") ? String(text.dropLast(4)) : text
            guard let value = ResultMetric.parseScaled(Substring(number), decimals: 3) else {
                throw InputError(source: source, "expected milliseconds per second, ≥ 0 with at most 3 decimals (e.g. 5 or 5ms/s), found \(InputError.quote(text))")
            }
            return value
        case .count, .millionthsOfCount:
            guard let value = Int64(text), value >= 0, value <= Int64.max / Int64(oneCount) else {
                throw InputError(source: source, "expected a whole number ≥ 0, found \(InputError.quote(text))")
            }
            return value * Int64(oneCount)
        }
    }
}

/// A bound a configuration must meet on every seed: `peak_memory<=300MB`, `stall_p95<250ms`,
/// `kills<=0`.
public struct TuneConstraint: Sendable, Equatable, CustomStringConvertible {
    public let figure: TuneFigure
    /// Strict (`<`) or not (`<=`).
    public let strict: Bool
    public let bound: Int64

    public init(figure: TuneFigure, atMost bound: Int64, strict: Bool = false) {
        self.figure = figure
        self.bound = bound
        self.strict = strict
    }

    /// Parses `FIGURE<=VALUE` or `FIGURE<VALUE`.
    public static func parse(_ text: String, source: String) throws -> TuneConstraint {
        let strict = !text.contains("<=")
        let parts = text.components(separatedBy: strict ? "<" : "<=")
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw InputError(source: source, "expected FIGURE<=VALUE or FIGURE<VALUE (e.g. peak_memory<=300MB), found \(InputError.quote(text))")
        }
        let figure = try TuneFigure.named(parts[0], among: TuneFigure.all, source: source)
        return TuneConstraint(figure: figure, atMost: try figure.parseBound(parts[1], source: source), strict: strict)
    }

    /// Whether `sample` meets it.
    public func admits(_ sample: TuneSample) -> Bool {
        let value = figure.value(sample)
        return strict ? value < bound : value <= bound
    }

    public var description: String { figure.name + (strict ? " < " : " <= ") + figure.format(Double(bound)) }
}

/// What makes one configuration better than another, for `bench tune` and the main job alike:
/// the objective to minimise on average over the seeds, and the bounds every seed must meet.
///
/// The ranking answers "what should we ship": among the feasible candidates, those whose
/// objective is within the noise of the best one's (`withinNoise`) are equivalent, and of those
/// the one with the smallest memory-cache limit wins, then the one downloading fewer bytes —
/// so a cache 4× larger than needed is never recommended for a difference the seeds cannot
/// tell from luck.
public struct TuneCriteria: Sendable {
    public let objective: TuneFigure
    public let constraints: [TuneConstraint]
    /// The cell's width in pixels: a candidate asking for narrower images shows them blurry,
    /// so it is never feasible (`nil`: any width is).
    public let cellPixels: Int?

    public init(objective: TuneFigure, constraints: [TuneConstraint], cellPixels: Int? = nil) {
        self.objective = objective
        self.constraints = constraints
        self.cellPixels = cellPixels
    }

    /// Whether `candidate` asks for images narrower than the cell. O(1).
    public func blurry(_ candidate: TuneCandidate) -> Bool {
        guard let cellPixels, let width = candidate.imageWidth else { return false }
        return width < cellPixels
    }

    /// Whether its images are sharp and every sample meets every constraint. O(samples × constraints).
    public func feasible(_ candidate: TuneCandidate) -> Bool {
        !blurry(candidate) && candidate.samples.allSatisfy { sample in constraints.allSatisfy { $0.admits(sample) } }
    }

    /// The mean objective.
    func score(_ candidate: TuneCandidate) -> Double { candidate.spread(objective).mean }

    /// Whether `candidate`'s objective is indistinguishable from `best`'s: the differences seed
    /// by seed (the same seed gives both the same scroll traces and feed) are, on the mean and on
    /// every seed, at most the margin — twice the mean difference's standard error, or 1 % of
    /// `best`'s mean objective, and never less than one unit of a count (one stall, one
    /// request). A candidate that matches the best on two seeds and is far worse on the third is
    /// not a tie. Compared over the seeds both have. O(seeds).
    public func withinNoise(_ candidate: TuneCandidate, of best: TuneCandidate) -> Bool {
        let seeds = min(candidate.samples.count, best.samples.count)
        guard seeds > 0 else { return false }
        let differences = (0..<seeds).map { Double(objective.value(candidate.samples[$0]) - objective.value(best.samples[$0])) }
        let mean = differences.reduce(0, +) / Double(seeds)
        let margin = SeedNoise.margin(differences, base: score(best), oneCount: objective.oneCount)
        return mean <= margin && differences.allSatisfy { $0 <= margin }
    }

    /// Best first. Feasible candidates first; the best by mean objective (ties: mean display
    /// p95, mean bytes downloaded, mean requests, mean peak memory, candidate number) and every
    /// feasible candidate within its noise come first, ordered by memory-cache limit, then mean
    /// bytes downloaded, then as the best was chosen; then the rest as the best was chosen.
    /// O(n log n × samples).
    public func rank(_ candidates: [TuneCandidate]) -> [TuneCandidate] { ranking(candidates).ranked }

    /// `rank`, and how many candidates at its head are equivalent to the best (0 when none is
    /// feasible).
    public func ranking(_ candidates: [TuneCandidate]) -> (ranked: [TuneCandidate], equivalent: Int) {
        func better(_ a: TuneCandidate, _ b: TuneCandidate) -> Bool {
            let (fa, fb) = (feasible(a), feasible(b))
            if fa != fb { return fa }
            for figure in [objective, .displayP95, .bytes, .requests, .peakMemory] {
                let (x, y) = (a.spread(figure).mean, b.spread(figure).mean)
                if x != y { return x < y }
            }
            return a.number < b.number
        }
        let ordered = candidates.sorted(by: better)
        guard let best = ordered.first, feasible(best) else { return (ordered, 0) }
        let equivalent = ordered.filter { feasible($0) && withinNoise($0, of: best) }
        let leanest = equivalent.sorted { a, b in
            if a.memoryLimitBytes != b.memoryLimitBytes { return a.memoryLimitBytes < b.memoryLimitBytes }
            let (x, y) = (a.spread(.bytes).mean, b.spread(.bytes).mean)
            if x != y { return x < y }
            return better(a, b)
        }
        let chosen = Set(equivalent.map(\.number))
        return (leanest + ordered.filter { !chosen.contains($0.number) }, leanest.count)
    }
}
