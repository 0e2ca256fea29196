import Foundation

/// How long one feed API call takes, from request to response, in nanoseconds of virtual time.
///
/// - `fixed(d)`: always `d`; draws nothing.
/// - `uniform(a...b)`: uniform integer in `a...b`; one draw (rarely more: rejection sampling).
/// - `logNormal(mean:p99:)`: log-normal with that mean and 99th percentile; two draws
///   (Box–Muller). Parameters: with z = Φ⁻¹(0.99) ≈ 2.3263, a log-normal's mean is
///   exp(μ + σ²/2) and its p99 exp(μ + zσ), so ln(p99 / mean) = zσ − σ²/2, whence
///   σ = z − √(z² − 2 ln(p99 / mean)) (the smaller root: the other puts most of the mean in a
///   far tail) and μ = ln(mean) − σ²/2. A solution exists when 1 < p99 / mean ≤ e^(z²/2) ≈ 14.97.
///   The 300 ms / 1.2 s default gives σ ≈ 0.702, a median of ≈ 235 ms.
///
/// Sampling is O(1) and deterministic: the same generator state gives the same latency.
public enum LatencyModel: Sendable, Hashable {
    case fixed(Int64)
    case uniform(ClosedRange<Int64>)
    case logNormal(mean: Int64, p99: Int64)

    /// Φ⁻¹(0.99): the standard normal's 99th percentile.
    public static let z99 = 2.326_347_874_040_840_8

    /// The largest ratio p99 / mean a log-normal can have: e^(z²/2).
    public static let maxLogNormalSpread = exp(z99 * z99 / 2)

    /// μ and σ of the underlying normal for a log-normal with `mean` and `p99` (see the type's
    /// documentation), or `nil` when no log-normal has them.
    public static func logNormalParameters(mean: Int64, p99: Int64) -> (mu: Double, sigma: Double)? {
        guard mean > 0, p99 > mean else { return nil }
        let spread = log(Double(p99) / Double(mean))
        let discriminant = z99 * z99 - 2 * spread
        guard discriminant >= 0 else { return nil }
        let sigma = z99 - discriminant.squareRoot()
        return (log(Double(mean)) - sigma * sigma / 2, sigma)
    }

    /// One latency in nanoseconds, never negative. O(1).
    public func sample(using generator: inout SeededGenerator) -> Int64 {
        switch self {
        case .fixed(let duration):
            return duration
        case .uniform(let range):
            return generator.next(in: range)
        case .logNormal(let mean, let p99):
            guard let (mu, sigma) = LatencyModel.logNormalParameters(mean: mean, p99: p99) else {
                preconditionFailure("LatencyModel: no log-normal has mean \(mean) and p99 \(p99); validate first")
            }
            // Box–Muller, cosine branch only; 1 − u keeps the logarithm's argument in (0, 1].
            let u1 = 1 - generator.nextUnit(), u2 = generator.nextUnit()
            let normal = (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
            return LatencyModel.nanoseconds(exp(mu + sigma * normal))
        }
    }

    /// `value` rounded to whole nanoseconds, saturating far below `Int64.max` so that adding it to
    /// a clock cannot overflow.
    static func nanoseconds(_ value: Double) -> Int64 {
        let ceiling = Double(Int64.max / 4)
        return value >= ceiling ? Int64.max / 4 : Int64(value.rounded())
    }

    /// Checks that the model describes non-negative latencies; `field` names it in the error.
    public func validate(source: String, field: String) throws {
        switch self {
        case .fixed(let duration):
            guard duration >= 0 else {
                throw InputError(source: source, field: field, "expected a non-negative duration in ns, found \(duration)")
            }
        case .uniform(let range):
            guard range.lowerBound >= 0 else {
                throw InputError(source: source, field: field, "expected non-negative durations in ns, found \(range.lowerBound)...\(range.upperBound)")
            }
        case .logNormal(let mean, let p99):
            guard mean > 0, p99 > mean else {
                throw InputError(source: source, field: field, "expected 0 < mean < p99, found mean \(mean) ns, p99 \(p99) ns")
            }
            guard LatencyModel.logNormalParameters(mean: mean, p99: p99) != nil else {
                throw InputError(source: source, field: field, "p99 / mean must be at most \(String(format: "%.2f", LatencyModel.maxLogNormalSpread)) for a log-normal, found \(String(format: "%.2f", Double(p99) / Double(mean)))")
            }
        }
    }
}
