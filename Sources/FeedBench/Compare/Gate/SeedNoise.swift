/// The seeds' noise: how far two sets of runs of the same seeds may differ before the
/// difference says more than luck. The same seed gives both sides the same scroll traces and
/// feed, so differences are taken seed by seed. The ranking uses it to call configurations
/// equivalent (`TuneCriteria.withinNoise`), and `bench compare`'s gate to call a change a change.
enum SeedNoise {
    /// The margin of `differences` (one per seed): twice their mean's standard error, at least
    /// 1 % of `base` (the side compared with's mean) and at least `oneCount` (a count's one
    /// unit, as its values store it; 0 for other figures). O(seeds).
    static func margin(_ differences: [Double], base: Double, oneCount: Double) -> Double {
        let seeds = differences.count
        let mean = differences.reduce(0, +) / Double(max(seeds, 1))
        var margin = max(0.01 * base, oneCount)
        if seeds > 1 {
            let variance = differences.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(seeds - 1)
            margin = max(margin, 2 * (variance / Double(seeds)).squareRoot())
        }
        return margin
    }

    /// Whether `new` differs from `base` (the same seeds, in the same order) beyond their noise:
    /// the mean difference is beyond its margin, and the new mean lies outside the base seeds'
    /// range and the base mean outside the new seeds' — a change within every seed's spread is
    /// luck. Returns the margin too. O(seeds).
    static func isBeyond(base: [Int64], new: [Int64], oneCount: Double) -> (beyond: Bool, margin: Double) {
        precondition(base.count == new.count && !base.isEmpty, "SeedNoise: the same seeds on both sides")
        let differences = zip(new, base).map { Double($0 - $1) }
        let (baseMean, newMean) = (mean(base), mean(new))
        let margin = margin(differences, base: abs(baseMean), oneCount: oneCount)
        let change = newMean - baseMean
        let withinSpread = (Double(base.min()!)...Double(base.max()!)).contains(newMean)
            || (Double(new.min()!)...Double(new.max()!)).contains(baseMean)
        return (abs(change) > margin && !withinSpread, margin)
    }

    static func mean(_ values: [Int64]) -> Double { Double(values.reduce(0, +)) / Double(max(values.count, 1)) }
}
