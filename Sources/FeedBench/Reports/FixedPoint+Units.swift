extension FixedPoint {
    /// `bytes` in MiB (2^20 bytes) with one decimal, rounded half up: `449.0 MiB`. Reports for
    /// people use MiB throughout; CSV files keep exact bytes.
    public static func mebibytes(_ bytes: Int64) -> String {
        ratio(max(0, bytes), 1 << 20, decimals: 1) + " MiB"
    }
}

extension FixedPoint {
    /// A memory-cache cost limit as tables show it: `mebibytes`, or `no limit` for the 0 that
    /// results files hold for a cache without one (SDWebImage's).
    public static func cacheLimit(_ bytes: Int64) -> String {
        bytes == 0 ? "no limit" : mebibytes(bytes)
    }
}
