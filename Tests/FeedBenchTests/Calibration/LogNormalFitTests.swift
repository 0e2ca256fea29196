import Foundation
import Testing
@testable import FeedBench

/// The maximum-likelihood log-normal recovers the model that drew a sample, and its KS
/// distance tells a log-normal sample from another family.
@Suite struct LogNormalFitTests {
    /// 2,000 latencies in ns from `model` (FeedBench's own sampler) for `seed`.
    static func draw(_ model: LatencyModel, seed: UInt64, count: Int = 2_000) -> [Double] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { _ in Double(model.sample(using: &generator)) }
    }

    /// A narrow model (σ ≈ 0.33): mean and p99 within 5 % on each of 20 seeds.
    @Test func recoversMeanAndP99OfANarrowModel() throws {
        let truth = (mean: 300e6, p99: 600e6)
        for seed in UInt64(1)...20 {
            let fit = try #require(LogNormalFit(Self.draw(.logNormal(mean: Int64(truth.mean), p99: Int64(truth.p99)), seed: seed)))
            #expect(abs(fit.mean / truth.mean - 1) < 0.05, "seed \(seed): mean \(fit.mean)")
            #expect(abs(fit.p99 / truth.p99 - 1) < 0.05, "seed \(seed): p99 \(fit.p99)")
            #expect(fit.ksDistance < 0.05 && fit.count == 2_000 && fit.skipped == 0, "seed \(seed)")
        }
    }

    /// The default API model (300 ms mean, 1.2 s p99, σ ≈ 0.70): the mean within 5 % on each of
    /// 20 seeds; the p99's standard error from 2,000 values is ≈ 3 % (σ·√(1/n + z²/2n)), so
    /// within 10 % (3.3 standard errors) on each seed, and 5 % on the median of the 20.
    @Test func recoversMeanAndP99OfTheDefaultModel() throws {
        let truth = (mean: 300e6, p99: 1_200e6)
        var p99s: [Double] = []
        for seed in UInt64(1)...20 {
            let fit = try #require(LogNormalFit(Self.draw(.logNormal(mean: Int64(truth.mean), p99: Int64(truth.p99)), seed: seed)))
            #expect(abs(fit.mean / truth.mean - 1) < 0.05, "seed \(seed): mean \(fit.mean)")
            #expect(abs(fit.p99 / truth.p99 - 1) < 0.10, "seed \(seed): p99 \(fit.p99)")
            #expect(fit.ksDistance < 0.05, "seed \(seed)")
            p99s.append(fit.p99)
        }
        #expect(abs(EmpiricalQuantiles(p99s).quantile(0.5) / truth.p99 - 1) < 0.05)
    }

    @Test func computesMomentsAndQuantilesFromMuAndSigma() throws {
        let fit = try #require(LogNormalFit([1, exp(2)]))  // ln: 0 and 2
        #expect(abs(fit.mu - 1) < 1e-15 && abs(fit.sigma - 1) < 1e-15 && abs(fit.median - exp(1)) < 1e-14)
        #expect(abs(fit.mean - exp(1.5)) < 1e-12 && abs(fit.p99 - exp(1 + LatencyModel.z99)) < 1e-12)
        #expect(abs(fit.quantile(0.99) - fit.p99) < 1e-12 && fit.quantile(0.5) == fit.median)
        #expect(abs(fit.cdf(fit.median) - 0.5) < 1e-15 && fit.cdf(0) == 0)
        // The fitted LatencyModel of a mean and p99 has the same μ and σ.
        let parameters = try #require(LatencyModel.logNormalParameters(mean: 1_000_000, p99: 3_000_000))
        let model = try #require(LogNormalFit(Self.draw(.logNormal(mean: 1_000_000, p99: 3_000_000), seed: 9, count: 50_000)))
        #expect(abs(model.mu - parameters.mu) < 0.01 && abs(model.sigma / parameters.sigma - 1) < 0.01)
    }

    @Test func skipsValuesWithoutALogarithm() throws {
        let fit = try #require(LogNormalFit([0, -3, .nan, .infinity, 1, exp(2)]))
        #expect(fit.count == 2 && fit.skipped == 4 && abs(fit.mu - 1) < 1e-15)
        #expect(LogNormalFit([0, 5]) == nil)
        #expect(LogNormalFit([5, 5, 5]) == nil)
    }

    @Test func tellsALogNormalSampleFromAUniformOne() throws {
        var generator = SeededGenerator(seed: 3)
        let uniform = (0..<2_000).map { _ in 1e9 * (1 - generator.nextUnit()) }  // (0, 1 s]
        let fit = try #require(LogNormalFit(uniform))
        #expect(fit.ksDistance > 0.1)
        let logNormal = try #require(LogNormalFit(Self.draw(.logNormal(mean: 300_000_000, p99: 1_200_000_000), seed: 3)))
        #expect(logNormal.ksDistance < 0.05)
        // The distance is the same measured on the values themselves.
        let direct = EmpiricalQuantiles(uniform).ksDistance(to: fit.cdf)
        #expect(abs(direct - fit.ksDistance) < 1e-12)
    }
}
