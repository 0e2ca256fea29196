/// How far ahead (and behind) of the visible cells the prefetcher works, in items
/// (docs/model.md#prefetching; UICollectionView's `prefetchItemsAt` / Nuke's `ImagePrefetcher`).
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
        let below = visible.upperBound..<min(itemCount, visible.upperBound + (forward ? ahead : behind))
        let above = (max(0, visible.lowerBound - (forward ? behind : ahead))..<visible.lowerBound).reversed()
        var result: [Int] = []
        result.reserveCapacity(below.count + above.count)
        if forward {
            result.append(contentsOf: below)
            result.append(contentsOf: above)
        } else {
            result.append(contentsOf: above)
            result.append(contentsOf: below)
        }
        return result
    }
}

/// How the prefetch window is sized (docs/model.md#prefetching), the `--window` forms:
///
/// - `20` / `20+5`: a fixed count ahead (and behind).
/// - `1.5screens`: that many screens of items ahead (rows on screen × columns × 1.5, rounded up).
/// - `device`: seed 000's counts by device class — 50 on tablets (more than one column), 15 on
///   phones with 3 GB of RAM or less (seed 000's 10–20), 30 otherwise.
/// - `velocity`: one screen ahead plus the items the current scroll speed covers in one second
///   (speed smoothed over ~100 ms), at most 100.
/// - `adaptive` / `adaptive:N`: seed 000's feedback loop. Starts at N (default 20); once per
///   simulated second it halves (down to 2) when tracked memory is above 80 % of the warning
///   threshold, shrinks by a quarter when more than 2 cells stalled in that second or frames
///   hitched for more than 5 ms in it (Apple's "good" hitch time ratio ends at 5 ms/s), and
///   grows back by a quarter of N (up to N) when memory is under 60 %, nothing stalled and the
///   hitches stayed within that.
public enum WindowMode: Sendable, Hashable, CustomStringConvertible {
    case items(PrefetchWindow)
    case screens(Double)
    case device
    case velocity
    case adaptive(start: Int)

    public var description: String {
        switch self {
        case let .items(window): window.description
        case let .screens(count): FixedPoint.decimal(count, decimals: 2).trimmingZeroDecimals() + "screens"
        case .device: "device"
        case .velocity: "velocity"
        case let .adaptive(start): "adaptive:\(start)"
        }
    }

    static let validForms = "N, N+M, Xscreens (e.g. 1.5screens), device, velocity, adaptive or adaptive:N"

    /// Parses one `--window` value.
    public static func parse(_ text: String, source: String) throws -> WindowMode {
        switch text {
        case "device": return .device
        case "velocity": return .velocity
        case "adaptive": return .adaptive(start: 20)
        default: break
        }
        if text.hasPrefix("adaptive:") {
            guard let start = Int(text.dropFirst("adaptive:".count)), (2...1_000).contains(start) else {
                throw InputError(source: source, "expected adaptive:N with N in 2...1000, found \(InputError.quote(text))")
            }
            return .adaptive(start: start)
        }
        if text.hasSuffix("screens") {
            guard let count = Double(text.dropLast("screens".count)), count > 0, count <= 20 else {
                throw InputError(source: source, "expected Xscreens with X in (0, 20], found \(InputError.quote(text))")
            }
            return .screens(count)
        }
        guard text.first?.isNumber == true else {
            throw InputError(source: source, "unknown window \(InputError.quote(text)); expected one of \(validForms)")
        }
        return .items(try PrefetchWindow.parse(text, source: source))
    }

    /// Items in one screen of `profile`'s grid.
    static func itemsPerScreen(_ profile: DeviceProfile) -> Int {
        Int((profile.screenHeight / profile.cellSide).rounded(.up)) * profile.columns
    }

    /// Seed 000's device-class count.
    static func deviceCount(_ profile: DeviceProfile) -> Int {
        if profile.columns > 1 { return 50 }
        return profile.ramBytes <= 3 << 30 ? 15 : 30
    }
}

extension String {
    func trimmingZeroDecimals() -> String {
        guard contains(".") else { return self }
        var text = self
        while text.last == "0" { text.removeLast() }
        if text.last == "." { text.removeLast() }
        return text
    }
}
