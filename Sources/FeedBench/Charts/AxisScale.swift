/// A linear axis: a value range rounded out to "nice" ticks (1, 2, 2.5 or 5 × a power of ten,
/// about five of them) mapped onto a span of pixels. Powers of ten are built by repeated
/// multiplication, never `pow`, so the ticks are the same on every machine.
struct AxisScale: Sendable, Equatable {
    let lower: Double
    let upper: Double
    let step: Double
    /// Pixel positions of `lower` and `upper` (the y axis runs from bottom to top).
    let start: Double
    let end: Double

    /// A scale covering `minimum...maximum` and, when `includingZero`, zero.
    init(covering minimum: Double, _ maximum: Double, includingZero: Bool = true, from start: Double, to end: Double) {
        var low = includingZero ? min(0, minimum) : minimum, high = includingZero ? max(0, maximum) : maximum
        if high - low <= 0 { high = low + 1 }
        let step = Self.niceStep((high - low) / 5)
        low = (low / step).rounded(.down) * step
        high = (high / step).rounded(.up) * step
        self.init(lower: low, upper: high, step: step, start: start, end: end)
    }

    /// A scale with a fixed range, ticked every nice step of it.
    init(fixed range: ClosedRange<Double>, from start: Double, to end: Double) {
        let span = max(range.upperBound - range.lowerBound, 1e-9)
        self.init(lower: range.lowerBound, upper: range.lowerBound + span, step: Self.niceStep(span / 5), start: start, end: end)
    }

    private init(lower: Double, upper: Double, step: Double, start: Double, end: Double) {
        self.lower = lower
        self.upper = upper
        self.step = step
        self.start = start
        self.end = end
    }

    /// The pixel position of `value`.
    func position(_ value: Double) -> Double {
        start + (value - lower) / (upper - lower) * (end - start)
    }

    /// The tick values, `lower` to `upper` by `step`.
    var ticks: [Double] {
        let count = Int(((upper - lower) / step).rounded())
        return (0...count).map { lower + Double($0) * step }
    }

    /// A tick's label with as many decimals as the step needs (`2.5` has one).
    func label(_ value: Double) -> String {
        var decimals = 0, scaled = step
        while decimals < 6, abs(scaled - scaled.rounded()) > 1e-9 * max(1, scaled) {
            decimals += 1
            scaled *= 10
        }
        return SVGText.number(value, decimals: decimals)
    }

    /// The smallest of 1, 2, 2.5, 5 × 10^k at least `raw`.
    static func niceStep(_ raw: Double) -> Double {
        var magnitude = 1.0
        while magnitude > raw { magnitude /= 10 }
        while magnitude * 10 <= raw { magnitude *= 10 }
        for factor in [1.0, 2, 2.5, 5, 10] where factor * magnitude >= raw { return factor * magnitude }
        return 10 * magnitude
    }
}
