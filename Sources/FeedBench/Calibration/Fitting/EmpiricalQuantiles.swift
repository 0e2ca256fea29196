/// A sample of measurements (latencies, sizes) sorted once, for its quantiles, mean and
/// empirical distribution: what calibration reads off a capture before fitting a model.
public struct EmpiricalQuantiles: Sendable, Equatable {
    /// The sample in ascending order.
    public let sorted: [Double]
    /// The arithmetic mean.
    public let mean: Double

    /// Sorts `sample`, which must be non-empty and free of NaN. O(n log n).
    public init(_ sample: some Sequence<Double>) {
        sorted = sample.sorted()
        precondition(!sorted.isEmpty, "EmpiricalQuantiles: the sample is empty")
        precondition(!sorted.contains { $0.isNaN }, "EmpiricalQuantiles: the sample holds NaN")
        mean = sorted.reduce(0, +) / Double(sorted.count)
    }

    /// The number of values.
    public var count: Int { sorted.count }

    /// The `p` quantile (0 ≤ p ≤ 1) by linear interpolation between order statistics — Hyndman
    /// and Fan's type 7, the default of R and NumPy: with h = (n − 1)·p, the value
    /// x₍⌊h⌋₎ + (h − ⌊h⌋)·(x₍⌊h⌋+1₎ − x₍⌊h⌋₎) (0-based order statistics). So `quantile(0)` is
    /// the minimum, `quantile(1)` the maximum, and `quantile(0.5)` the median. O(1).
    public func quantile(_ p: Double) -> Double {
        precondition(p >= 0 && p <= 1, "EmpiricalQuantiles.quantile: p must be in 0...1, found \(p)")
        let h = Double(sorted.count - 1) * p
        let below = Int(h.rounded(.down))
        guard below + 1 < sorted.count else { return sorted[below] }
        return sorted[below] + (h - Double(below)) * (sorted[below + 1] - sorted[below])
    }

    /// The Kolmogorov–Smirnov distance between this sample's empirical distribution and the
    /// continuous distribution `cdf`: the largest gap sup |Fₙ(x) − F(x)|, checked on both sides
    /// of each step of Fₙ. O(n) calls of `cdf`.
    public func ksDistance(to cdf: (Double) -> Double) -> Double {
        let n = Double(sorted.count)
        var distance = 0.0
        for (i, x) in sorted.enumerated() {
            let f = cdf(x)
            distance = max(distance, Double(i + 1) / n - f, f - Double(i) / n)
        }
        return distance
    }
}
