import Foundation
import Testing
@testable import FeedBench

/// Φ and Φ⁻¹ against known values and each other, into the far tails.
@Suite struct StandardNormalTests {
    @Test func matchesKnownValues() {
        #expect(StandardNormal.quantile(0.5) == 0)
        #expect(abs(StandardNormal.quantile(0.99) - LatencyModel.z99) < 1e-14)
        #expect(abs(StandardNormal.quantile(0.975) - 1.959_963_984_540_054) < 1e-14)
        #expect(abs(StandardNormal.quantile(0.001) + 3.090_232_306_167_813_5) < 1e-13)
        #expect(abs(StandardNormal.cdf(1) - 0.841_344_746_068_542_9) < 1e-15)
        #expect(StandardNormal.quantile(0) == -.infinity && StandardNormal.quantile(1) == .infinity)
    }

    @Test func quantileInvertsTheCDFIntoTheTails() {
        for exponent in 1...15 {
            let p = pow(10, -Double(exponent))
            let z = StandardNormal.quantile(p)
            #expect(abs(StandardNormal.cdf(z) / p - 1) < 1e-12, "p = \(p)")
            if exponent <= 8 {  // 1 − p keeps p's digits
                #expect(abs(StandardNormal.quantile(1 - p) / -z - 1) < 1e-7, "p = \(p)")
            }
        }
        for p in stride(from: 0.01, to: 1, by: 0.01) {
            #expect(abs(StandardNormal.cdf(StandardNormal.quantile(p)) - p) < 1e-15, "p = \(p)")
        }
    }
}
