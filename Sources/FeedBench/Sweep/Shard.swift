/// A deterministic part of a grid for one machine: shard `K/N` takes runs `K-1, K-1+N,
/// K-1+2N, …` — round robin, so every shard gets a like mix of profiles and policies.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    /// 0-based.
    public let index: Int
    public let count: Int

    /// The whole grid.
    public static let whole = Shard(index: 0, count: 1)

    init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// Parses `K/N` with 1 ≤ K ≤ N.
    public static func parse(_ text: String, source: String) throws -> Shard {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, k >= 1, k <= n,
              !parts[0].hasPrefix("+"), !parts[1].hasPrefix("+") else {
            throw InputError(source: source, "expected K/N with 1 ≤ K ≤ N (e.g. 2/4), found \(InputError.quote(text))")
        }
        return Shard(index: k - 1, count: n)
    }

    /// Whether run `index` of the grid is in this shard.
    public func contains(_ index: Int) -> Bool { index % count == self.index }

    /// This shard's runs of a grid of `total`, in order.
    public func indices(of total: Int) -> StrideTo<Int> { stride(from: index, to: total, by: count) }

    public var description: String { "\(index + 1)/\(count)" }
}
