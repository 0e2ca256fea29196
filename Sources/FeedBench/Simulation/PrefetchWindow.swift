/// How far ahead (and behind) of the visible cells the prefetcher works, in items
/// (DESIGN.md §1.5; UICollectionView's `prefetchItemsAt` / Nuke's `ImagePrefetcher`).
public struct PrefetchWindow: Sendable, Hashable, CustomStringConvertible {
    /// Items ahead of the last visible one, in the scroll direction.
    public var ahead: Int
    /// Items behind the first visible one.
    public var behind: Int

    public init(ahead: Int, behind: Int = 0) {
        precondition(ahead >= 0 && behind >= 0, "PrefetchWindow: negative size")
        self.ahead = ahead
        self.behind = behind
    }

    /// `20`, or `20+5` for 20 ahead and 5 behind.
    public var description: String { behind == 0 ? String(ahead) : "\(ahead)+\(behind)" }

    /// Parses `N` or `N+M`; `source` names the option.
    public static func parse(_ text: String, source: String) throws -> PrefetchWindow {
        let parts = text.split(separator: "+", omittingEmptySubsequences: false)
        let numbers = parts.map { Int($0) }
        guard (1...2).contains(parts.count), numbers.allSatisfy({ $0 != nil && $0! >= 0 && $0! <= 10_000 }) else {
            throw InputError(source: source, "expected a window of N items ahead, or N+M ahead and behind (0...10000), found \(InputError.quote(text))")
        }
        return PrefetchWindow(ahead: numbers[0]!, behind: numbers.count == 2 ? numbers[1]! : 0)
    }

    /// The item indices to prefetch for `visible` items scrolling `forward` (down) or back,
    /// within `0..<itemCount`, nearest first. O(ahead + behind).
    func items(visible: Range<Int>, forward: Bool, itemCount: Int) -> [Int] {
        guard !visible.isEmpty else { return [] }
        var result: [Int] = []
        let aheadRange = forward ? Array(visible.upperBound..<min(itemCount, visible.upperBound + ahead))
            : Array((max(0, visible.lowerBound - ahead)..<visible.lowerBound).reversed())
        let behindRange = forward ? Array((max(0, visible.lowerBound - behind)..<visible.lowerBound).reversed())
            : Array(visible.upperBound..<min(itemCount, visible.upperBound + behind))
        result.append(contentsOf: aheadRange)
        result.append(contentsOf: behindRange)
        return result
    }
}
