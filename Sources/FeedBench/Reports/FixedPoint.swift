/// Decimal formatting of ratios and quantities from integers, exact and locale-free, so CSV
/// files diff cleanly and are byte-identical everywhere.
public enum FixedPoint {
    /// `numerator / denominator` with `decimals` decimals, rounded half up; `0.000…` when the
    /// denominator is 0. Both must be non-negative.
    public static func ratio(_ numerator: Int64, _ denominator: Int64, decimals: Int) -> String {
        precondition(numerator >= 0 && denominator >= 0 && (0...18).contains(decimals), "FixedPoint.ratio: out of range")
        guard denominator > 0 else { return format(scaled: 0, decimals: decimals) }
        var scale: UInt64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let d = UInt64(denominator)
        let product = UInt64(numerator).multipliedFullWidth(by: scale)
        precondition(product.high < d, "FixedPoint.ratio: quotient too large")
        var (quotient, remainder) = d.dividingFullWidth(product)
        if remainder >= d - remainder { quotient += 1 }
        return format(scaled: quotient, decimals: decimals)
    }

    /// `scaled / 10^decimals` written with exactly `decimals` decimals.
    static func format(scaled: UInt64, decimals: Int) -> String {
        guard decimals > 0 else { return String(scaled) }
        let digits = String(scaled).leftPadded(to: decimals + 1)
        let split = digits.index(digits.endIndex, offsetBy: -decimals)
        return digits[..<split] + "." + digits[split...]
    }
}
