/// A value of a grid's memory-limit or disk-limit axis: the cache setup's own limit (the
/// profile's for a policy, the library's for a preset), a size (`200MB`), a multiple of the
/// setup's own limit (`0.25x`, `0.03125x`), or a share of the device's RAM (`2%ram`, as Nuke
/// and Kingfisher size their own defaults), so one ladder fits every profile.
public enum CacheSize: Sendable, Hashable, CustomStringConvertible {
    /// The cache setup's own limit.
    case setups
    /// A cost limit in bytes.
    case bytes(Int64)
    /// The setup's own limit × millionths / 10^6, rounded down to a byte (at least 1); a setup
    /// without a cost limit keeps none.
    case times(millionths: Int64)
    /// The device's RAM × millionths / 10^6, rounded down to a byte (at least 1).
    case ramShare(millionths: Int64)

    /// Parses a size with a unit as `Quantities.byteSize` reads it, `Nx` with N a positive decimal of
    /// at most 6 decimals (`0.03125x`, `1x`, `1.5x`) up to 1000x, or `N%ram` with N a positive
    /// percentage of at most 4 decimals up to 100 (`0.5%ram`, `15%ram`).
    public static func parse(_ text: String, source: String) throws -> CacheSize {
        if text.hasSuffix("%ram") {
            guard let millionths = ResultMetric.parseScaled(text.dropLast(4), decimals: 4), (1...1_000_000).contains(millionths) else {
                throw InputError(source: source, "expected a share of the device's RAM from 0.0001%ram to 100%ram with at most 4 decimals (e.g. 2%ram), found \(InputError.quote(text))")
            }
            return .ramShare(millionths: millionths)
        }
        guard text.hasSuffix("x") else { return .bytes(try Quantities.byteSize(text, source: source)) }
        guard let millionths = ResultMetric.parseScaled(text.dropLast(), decimals: 6), (1...1_000_000_000).contains(millionths) else {
            throw InputError(source: source, "expected a multiple of the cache's own limit from 0.000001x to 1000x with at most 6 decimals (e.g. 0.25x), found \(InputError.quote(text))")
        }
        return .times(millionths: millionths)
    }

    /// The limit in bytes for a setup whose own limit is `own` (`nil`: no cost limit) on a
    /// device with `ram` bytes of RAM.
    public func resolve(own: Int64?, ram: Int64) -> Int64? {
        switch self {
        case .setups: own
        case let .bytes(bytes): bytes
        case let .times(millionths): own.map { Self.scale($0, millionths: millionths) }
        case let .ramShare(millionths): Self.scale(ram, millionths: millionths)
        }
    }

    /// `bytes` × millionths / 10^6, rounded down, at least 1, without overflow for any byte
    /// count below 2^63 / 10^6 × 10^6.
    static func scale(_ bytes: Int64, millionths: Int64) -> Int64 {
        max(1, bytes / 1_000_000 * millionths + bytes % 1_000_000 * millionths / 1_000_000)
    }

    /// `(setup's)`, the byte count, or `0.25x`: the text a sweep's fingerprint hashes, and a
    /// multiple as `--memory-limit` takes it.
    public var description: String {
        switch self {
        case .setups: "(setup's)"
        case let .bytes(bytes): String(bytes)
        case let .times(millionths): FixedPoint.format(scaled: UInt64(millionths), decimals: 6).trimmingZeroDecimals() + "x"
        case let .ramShare(millionths): FixedPoint.format(scaled: UInt64(millionths), decimals: 4).trimmingZeroDecimals() + "%ram"
        }
    }
}
