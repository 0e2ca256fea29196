/// Parsers for the quantities users type: counts and byte sizes with units, durations.
public enum Quantities {
    /// A positive integer, optionally with a byte unit: `4897`, `20MB` (10^6), `64KiB` (2^10),
    /// `1.5GB`. Units are case-insensitive: B, KB, MB, GB, TB, KiB, MiB, GiB, TiB. For what may
    /// be a count (`bench cachesim --capacity`); a size alone is a `byteSize`. Refused above
    /// `maximum`.
    public static func byteCount(_ text: String, source: String, maximum: Int64 = .max) throws -> Int64 {
        let count = try bytes(text, source: source, unitRequired: false)
        guard count <= maximum else {
            throw InputError(source: source, "expected a positive count or size up to \(maximum), found \(InputError.quote(text))")
        }
        return count
    }

    /// A positive size with a byte unit (`200MB`, `64KiB`, `1.5GB`, `4897B`): a bare number
    /// such as `200` is refused, since it could mean bytes or megabytes.
    public static func byteSize(_ text: String, source: String) throws -> Int64 {
        try bytes(text, source: source, unitRequired: true)
    }

    /// The units `byteCount` and `byteSize` take, as refusals list them.
    static let byteUnits = "B, KB, MB, GB, TB, KiB, MiB, GiB or TiB"

    static func bytes(_ text: String, source: String, unitRequired: Bool) throws -> Int64 {
        let lower = text.lowercased()
        let units: [(String, Double)] = [
            ("kib", 1024), ("mib", 1_048_576), ("gib", 1_073_741_824), ("tib", 1_099_511_627_776),
            ("kb", 1e3), ("mb", 1e6), ("gb", 1e9), ("tb", 1e12), ("b", 1),
        ]
        var number = Substring(lower)
        var multiplier: Double?
        for (suffix, factor) in units where lower.hasSuffix(suffix) {
            number = lower.dropLast(suffix.count)
            multiplier = factor
            break
        }
        let expected = unitRequired
            ? "expected a positive size with a unit, such as 200MB or 64KiB (\(byteUnits)), found \(InputError.quote(text))"
            : "expected a positive count or size (e.g. 4897, 20MB, 64KiB), found \(InputError.quote(text))"
        guard let value = Double(number), value.isFinite, value > 0 else { throw InputError(source: source, expected) }
        if multiplier == nil {
            guard !unitRequired else {
                throw InputError(source: source, "expected a size with a unit, such as 200MB or 64KiB (\(byteUnits)), found \(InputError.quote(text)) without one")
            }
            if let exact = Int64(number) { return exact }
        }
        let scaled = (value * (multiplier ?? 1)).rounded()
        guard scaled < 9.2e18 else {
            throw InputError(source: source, "expected a size under 8 EiB (9.2e18 bytes), found \(InputError.quote(text))")
        }
        guard scaled >= 1 else { throw InputError(source: source, "expected a size of 1 byte or more, found \(InputError.quote(text))") }
        return Int64(scaled)
    }

    /// A comma-separated list of `byteCount`s, each at most `maximum`.
    public static func byteCounts(_ text: String, source: String, maximum: Int64 = .max) throws -> [Int64] {
        let items = text.split(separator: ",", omittingEmptySubsequences: false)
        return try items.map { try byteCount(String($0), source: source, maximum: maximum) }
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

    /// The length of a scroll session — `--duration` of `bench run`, `sweep`, `tune` and
    /// `trace generate`, a sweep config's `duration` — a positive `duration` up to 24 hours
    /// (`ScrollTrace.maximumDuration`, the longest trace FeedBench builds).
    public static func sessionDuration(_ text: String, source: String) throws -> Int64 {
        let nanoseconds = try duration(text, source: source)
        guard nanoseconds <= ScrollTrace.maximumDuration else {
            throw InputError(source: source, "expected a duration up to 24h, found \(InputError.quote(text))")
        }
        return nanoseconds
    }
}
