/// Text and numbers as they go into SVG and HTML: escaped markup, and coordinates written with
/// fixed decimals from `FixedPoint` (locale-free, the same bytes everywhere).
public enum SVGText {
    /// `text` safe inside an element or a double-quoted attribute.
    public static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// `value` with `decimals` decimals, a leading `-` when negative, and `-0.0` written `0.0`.
    static func number(_ value: Double, decimals: Int) -> String {
        let digits = FixedPoint.decimal(abs(value), decimals: decimals)
        let isZero = digits.allSatisfy { $0 == "0" || $0 == "." }
        return value < 0 && !isZero ? "-" + digits : digits
    }

    /// A coordinate in pixels, one decimal.
    static func px(_ value: Double) -> String { number(value, decimals: 1) }
}
