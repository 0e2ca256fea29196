import Foundation

/// The standard normal distribution's CDF Φ and quantile function Φ⁻¹, which the log-normal fit
/// needs to turn μ and σ into quantiles and to compare a sample with its fit.
public enum StandardNormal {
    /// Φ(z) = erfc(−z/√2) / 2, from the C library's `erfc` (accurate to a few ulps, also deep
    /// in the tails, where 1 − erf would cancel). O(1).
    public static func cdf(_ z: Double) -> Double {
        0.5 * erfc(-z / 2.0.squareRoot())
    }

    /// Φ⁻¹(p) for 0 < p < 1 (−∞ at 0, +∞ at 1): Acklam's rational approximation (relative
    /// error below 1.15 × 10⁻⁹), then one Halley step on Φ(x) − p, which brings it to about
    /// 1 × 10⁻¹⁵ in the central region and to within a few ulps of `cdf`'s own accuracy in the
    /// tails. O(1).
    public static func quantile(_ p: Double) -> Double {
        precondition(p >= 0 && p <= 1, "StandardNormal.quantile: p must be in 0...1, found \(p)")
        if p == 0 { return -.infinity }
        if p == 1 { return .infinity }
        let lowerBreak = 0.024_25
        var x: Double
        if p < lowerBreak {
            x = tail((-2 * log(p)).squareRoot())
        } else if p <= 1 - lowerBreak {
            let q = p - 0.5, r = q * q
            let numerator = ((((-3.969_683_028_665_376e1 * r + 2.209_460_984_245_205e2) * r - 2.759_285_104_469_687e2) * r
                + 1.383_577_518_672_690e2) * r - 3.066_479_806_614_716e1) * r + 2.506_628_277_459_239
            let denominator = ((((-5.447_609_879_822_406e1 * r + 1.615_858_368_580_409e2) * r - 1.556_989_798_598_866e2) * r
                + 6.680_131_188_771_972e1) * r - 1.328_068_155_288_572e1) * r + 1
            x = numerator * q / denominator
        } else {
            x = -tail((-2 * log1p(-p)).squareRoot())
        }
        // Halley's step: e = Φ(x) − p, u = e / φ(x).
        let error = cdf(x) - p
        let u = error * (2 * Double.pi).squareRoot() * exp(x * x / 2)
        x -= u / (1 + x * u / 2)
        return x
    }

    /// Acklam's lower-tail approximation in q = √(−2 ln p).
    static func tail(_ q: Double) -> Double {
        let numerator = ((((-7.784_894_002_430_293e-3 * q - 3.223_964_580_411_365e-1) * q - 2.400_758_277_161_838) * q
            - 2.549_732_539_343_734) * q + 4.374_664_141_464_968) * q + 2.938_163_982_698_783
        let denominator = (((7.784_695_709_041_462e-3 * q + 3.224_671_290_700_398e-1) * q + 2.445_134_137_142_996) * q
            + 3.754_408_661_907_416) * q + 1
        return numerator / denominator
    }
}
