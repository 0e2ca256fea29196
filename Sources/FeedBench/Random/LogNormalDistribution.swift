import Foundation

/// The log-normal distribution, parameterised by its mean and the standard deviation `sigma`
/// of its logarithm: the model of human pauses (dwell times), which are positive and
/// right-skewed — mostly short, now and then long.
///
/// With μ = ln(mean) − σ²/2 the median is e^μ, a little below the mean. Sampling is Box–Muller
/// on two uniform draws: O(1), always exactly two draws, so the generator's stream stays aligned.
public struct LogNormalDistribution: Sendable, Equatable {
    public let mean: Double
    public let sigma: Double
    let mu: Double

    public init(mean: Double, sigma: Double) {
        precondition(mean > 0 && mean.isFinite, "LogNormalDistribution: mean must be positive and finite")
        precondition(sigma >= 0 && sigma.isFinite, "LogNormalDistribution: sigma must be finite and non-negative")
        self.mean = mean
        self.sigma = sigma
        mu = log(mean) - sigma * sigma / 2
    }

    /// The median, e^μ.
    public var median: Double { exp(mu) }

    /// A positive value. O(1).
    public func sample(using generator: inout SeededGenerator) -> Double {
        let u1 = 1 - generator.nextUnit()  // (0, 1]: log is finite
        let u2 = generator.nextUnit()
        let normal = (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
        return exp(mu + sigma * normal)
    }
}
