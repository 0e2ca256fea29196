extension FixedPoint {
    /// `bytes` in MiB (2^20 bytes) with one decimal, rounded half up: `449.0 MiB`. Reports for
    /// people use MiB throughout; CSV files keep exact bytes.
    public static func mebibytes(_ bytes: Int64) -> String {
        ratio(max(0, bytes), 1 << 20, decimals: 1) + " MiB"
    }
}
