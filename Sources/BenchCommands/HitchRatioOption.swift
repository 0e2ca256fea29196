import ArgumentParser
import FeedBench

/// `--max-hitch-ratio`: a bound on every seed's hitch time ratio, for `bench run` (the main
/// job's ranking) and `bench tune`.
struct HitchRatioOption: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("Also require every seed's hitch time ratio — milliseconds of hitches per second of scrolling, its worst workload's — to be at most this (Apple: under 5 is good, under 10 a warning, 10 or more critical).", valueName: "ms/s"))
    var maxHitchRatio: String?

    /// The bound, in thousandths of a ms per second; `nil` when not given. Refuses a negative
    /// value or one that is not a number.
    func bound() throws -> Int64? {
        try maxHitchRatio.map { try TuneFigure.hitchRatio.parseBound($0, source: "--max-hitch-ratio") }
    }
}
