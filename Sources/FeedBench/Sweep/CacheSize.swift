/// A value of a grid's memory-limit or disk-limit axis: the cache setup's own limit (the
/// profile's for a policy, the library's for a preset), a size (`200MB`), or a multiple of the
/// setup's own limit (`0.25x`), so one ladder fits every profile.
public enum CacheSize: Sendable, Hashable, CustomStringConvertible {
    /// The cache setup's own limit.
    case setups
    /// A cost limit in bytes.
    case bytes(Int64)
    /// The setup's own limit × thousandths / 1000, rounded down to a byte; a setup without a
    /// cost limit keeps none.
    case times(thousandths: Int64)

    /// Parses a size as `Quantities.byteCount` reads it, or `Nx` with N a positive decimal of
    /// at most 3 decimals (`0.125x`, `1x`, `1.5x`) up to 1000x.
    public static func parse(_ text: String, source: String) throws -> CacheSize {
        guard text.hasSuffix("x") else { return .bytes(try Quantities.byteCount(text, source: source)) }
        guard let thousandths = ResultMetric.parseScaled(text.dropLast(), decimals: 3), (1...1_000_000).contains(thousandths) else {
            throw InputError(source: source, "expected a multiple of the cache's own limit from 0.001x to 1000x (e.g. 0.25x), found \(InputError.quote(text))")
        }
        return .times(thousandths: thousandths)
    }

    /// The limit in bytes for a setup whose own limit is `own` (`nil`: no cost limit).
    public func resolve(own: Int64?) -> Int64? {
        switch self {
        case .setups: own
        case let .bytes(bytes): bytes
        case let .times(thousandths): own.map { max(1, $0 / 1000 * thousandths + $0 % 1000 * thousandths / 1000) }
        }
    }

    /// `(setup's)`, the byte count, or `0.25x`: the text a sweep's fingerprint hashes.
    public var description: String {
        switch self {
        case .setups: "(setup's)"
        case let .bytes(bytes): String(bytes)
        case let .times(thousandths): FixedPoint.decimal(Double(thousandths) / 1000, decimals: 3).trimmingZeroDecimals() + "x"
        }
    }
}
