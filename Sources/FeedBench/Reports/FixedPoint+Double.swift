extension FixedPoint {
    /// A non-negative double written with exactly `decimals` decimals, rounded half up from its
    /// exact binary value (not from a rounded product), locale-free: `decimal(2.675, decimals: 2)`
    /// is `2.67` because the double nearest 2.675 is 2.67499999…. O(1).
    public static func decimal(_ value: Double, decimals: Int) -> String {
        var bytes: [UInt8] = []
        appendDecimal(value, decimals: decimals, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `decimal(value, decimals:)`'s UTF-8 bytes to `bytes`, for writers of large files.
    ///
    /// The integer part is converted exactly; the fraction is scaled with its rounding error
    /// recovered by a fused multiply-add, which decides the one ambiguous case, a scaled
    /// fraction that lands exactly on a half.
    static func appendDecimal(_ value: Double, decimals: Int, to bytes: inout [UInt8]) {
        precondition(value >= 0 && value < 0x1p63, "FixedPoint.decimal: expected a finite value in 0..<2^63")
        precondition((0...15).contains(decimals), "FixedPoint.decimal: decimals out of range")
        var scale: UInt64 = 1
        for _ in 0..<decimals { scale *= 10 }
        var whole = UInt64(value.rounded(.down))
        let fraction = value - value.rounded(.down)  // exact: the fraction's bits are value's
        let product = fraction * Double(scale)  // < 10^15 < 2^50, so every k + 0.5 is representable
        let error = (-product).addingProduct(fraction, Double(scale))  // exact: fraction·scale = product + error
        let floor = product.rounded(.down)
        let rest = product - floor  // exact
        var scaled = UInt64(floor)
        if rest > 0.5 || (rest == 0.5 && error >= 0) { scaled += 1 }
        if scaled == scale {
            whole += 1
            scaled = 0
        }
        appendDigits(whole, width: 1, to: &bytes)
        if decimals > 0 {
            bytes.append(UInt8(ascii: "."))
            appendDigits(scaled, width: decimals, to: &bytes)
        }
    }

    /// Appends `scaled / 10^decimals` with exactly `decimals` decimals (see `format(scaled:decimals:)`).
    static func appendFixed(scaled: UInt64, decimals: Int, to bytes: inout [UInt8]) {
        precondition((1...18).contains(decimals), "FixedPoint.appendFixed: decimals out of range")
        var scale: UInt64 = 1
        for _ in 0..<decimals { scale *= 10 }
        appendDigits(scaled / scale, width: 1, to: &bytes)
        bytes.append(UInt8(ascii: "."))
        appendDigits(scaled % scale, width: decimals, to: &bytes)
    }

    /// Appends `value` in decimal, zero-padded on the left to `width` digits.
    static func appendDigits(_ value: UInt64, width: Int, to bytes: inout [UInt8]) {
        var count = 1
        var rest = value / 10
        while rest > 0 {
            count += 1
            rest /= 10
        }
        let end = bytes.count + max(count, width)
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: end - bytes.count))
        var position = end - 1
        rest = value
        while rest > 0 {
            bytes[position] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
            position -= 1
        }
    }
}
