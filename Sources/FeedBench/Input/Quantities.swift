/// Parsers for the quantities users type: counts and byte sizes with units, durations.
public enum Quantities {
    /// A positive integer, optionally with a byte unit: `4897`, `20MB` (10^6), `64KiB` (2^10),
    /// `1.5GB`. Units are case-insensitive: B, KB, MB, GB, TB, KiB, MiB, GiB, TiB.
    public static func byteCount(_ text: String, source: String) throws -> Int64 {
        let lower = text.lowercased()
        let units: [(String, Double)] = [
            ("kib", 1024), ("mib", 1_048_576), ("gib", 1_073_741_824), ("tib", 1_099_511_627_776),
            ("kb", 1e3), ("mb", 1e6), ("gb", 1e9), ("tb", 1e12), ("b", 1),
        ]
        var number = Substring(lower)
        var multiplier = 1.0
        for (suffix, factor) in units where lower.hasSuffix(suffix) {
            number = lower.dropLast(suffix.count)
            multiplier = factor
            break
        }
        let expected = "expected a positive count or size (e.g. 4897, 20MB, 64KiB), found \(InputError.quote(text))"
        if multiplier == 1, let exact = Int64(number) {
            guard exact > 0 else { throw InputError(source: source, expected) }
            return exact
        }
        guard let value = Double(number), value.isFinite, value > 0 else { throw InputError(source: source, expected) }
        let scaled = (value * multiplier).rounded()
        guard scaled >= 1, scaled < 9.2e18 else { throw InputError(source: source, expected) }
        return Int64(scaled)
    }

    /// A comma-separated list of `byteCount`s.
    public static func byteCounts(_ text: String, source: String) throws -> [Int64] {
        let items = text.split(separator: ",", omittingEmptySubsequences: false)
        return try items.map { try byteCount(String($0), source: source) }
    }

    /// A positive duration in nanoseconds: a decimal number with a unit — `500ms`, `1.5s`, `5m`
    /// (minutes), `8h` — or a bare number of seconds (`30`). Units are case-insensitive. Rounded
    /// to the nearest nanosecond; refused when that is 0, when negative, or past Int64's range.
    public static func duration(_ text: String, source: String, allowZero: Bool = false) throws -> Int64 {
        let lower = text.lowercased()
        let units: [(String, Double)] = [("ms", 1e6), ("s", 1e9), ("m", 60e9), ("h", 3600e9)]
        var number = Substring(lower)
        var nanoseconds = 1e9
        for (suffix, factor) in units where lower.hasSuffix(suffix) {
            number = lower.dropLast(suffix.count)
            nanoseconds = factor
            break
        }
        let negative = number.hasPrefix("-")
        if negative { number = number.dropFirst() }
        let parts = number.split(separator: ".", omittingEmptySubsequences: false)
        let isDecimal = (1...2).contains(parts.count)
            && parts.allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } }
        guard isDecimal, let value = Double(number) else {
            throw InputError(source: source, "expected a duration like 30s, 5m or 8h, found \(InputError.quote(text))")
        }
        let scaled = (value * nanoseconds).rounded()
        guard !negative, scaled >= 1 || (allowZero && scaled == 0) else {
            throw InputError(source: source, "expected a \(allowZero ? "non-negative" : "positive") duration, found \(InputError.quote(text))")
        }
        guard scaled < 9.2e18 else {
            throw InputError(source: source, "expected a duration under 292 years, found \(InputError.quote(text))")
        }
        return Int64(scaled)
    }
}
