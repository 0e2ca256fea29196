import Testing
@testable import FeedBench

/// `FixedPoint.decimal`: exact half-up rounding of a double's binary value.
@Suite struct FixedPointDecimalTests {
    @Test func roundsTheExactBinaryValueHalfUp() {
        let cases: [(Double, Int, String)] = [
            (0, 2, "0.00"), (2.675, 2, "2.67"), (0.125, 2, "0.13"), (0.375, 2, "0.38"),
            (0.005, 2, "0.01"), (1.005, 2, "1.00"), (99.999, 2, "100.00"), (0.994999, 2, "0.99"),
            (123_456_789.125, 2, "123456789.13"), (2.5, 0, "3"), (2.4999, 0, "2"),
            (16.6666667, 3, "16.667"), (1e15, 2, "1000000000000000.00"), (0.5e-300, 2, "0.00"),
            (0x1p53 + 2, 2, "9007199254740994.00"),
        ]
        for (value, decimals, text) in cases {
            #expect(FixedPoint.decimal(value, decimals: decimals) == text, "\(value)")
        }
    }

    @Test func agreesWithIntegerArithmeticOnEveryHundredth() {
        // k/100 + 0.004 and k/100 − 0.004 must round back to k/100.
        for k in 0..<100_000 {
            let expected = "\(k / 100).\(String(k % 100).leftPadded(to: 2))"
            #expect(FixedPoint.decimal(Double(k) / 100 + 0.004, decimals: 2) == expected)
            if k > 0 { #expect(FixedPoint.decimal(Double(k) / 100 - 0.004, decimals: 2) == expected) }
        }
    }
}
