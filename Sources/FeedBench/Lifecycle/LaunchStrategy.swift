/// How a launch fills the feed: seed 001's `CacheStrategy`, plus seed 002's preload-everything
/// baseline. Offline periods and slow APIs make the differences show in time to first image,
/// displays and requests.
public enum LaunchStrategy: Sendable, Hashable, CustomStringConvertible {
    /// Show stored unviewed images at once; call the API when the store runs low (the default).
    case cacheFirst
    /// Call the API first and show nothing until it answers (retrying while it fails); then its
    /// images, then the stored ones.
    case networkFirst
    /// Show stored images at once and always call the API at launch; its images follow.
    case cacheAndNetwork
    /// Never show stored images: only what the API returns in this launch.
    case networkOnly
    /// Never call the API: only stored images.
    case cacheOnly
    /// Wait for the API up to the deadline (ns): its images first if it answered in time,
    /// otherwise the stored ones at the deadline and the API's after them.
    case cacheWithTimeout(Int64)
    /// Seed 002: load every image of the first screen before showing the feed at all.
    case preload

    public var description: String {
        switch self {
        case .cacheFirst: "cacheFirst"
        case .networkFirst: "networkFirst"
        case .cacheAndNetwork: "cacheAndNetwork"
        case .networkOnly: "networkOnly"
        case .cacheOnly: "cacheOnly"
        case let .cacheWithTimeout(deadline): "cacheWithTimeout:\(FixedPoint.decimal(Double(deadline) / 1e9, decimals: 3).trimmingZeroDecimals())s"
        case .preload: "preload"
        }
    }

    static let validForms = "cacheFirst, networkFirst, cacheAndNetwork, networkOnly, cacheOnly, cacheWithTimeout:DURATION (e.g. cacheWithTimeout:2s), preload"

    /// Parses a strategy as the `--strategy` option takes it.
    public static func parse(_ text: String, source: String) throws -> LaunchStrategy {
        switch text {
        case "cacheFirst": return .cacheFirst
        case "networkFirst": return .networkFirst
        case "cacheAndNetwork": return .cacheAndNetwork
        case "networkOnly": return .networkOnly
        case "cacheOnly": return .cacheOnly
        case "preload": return .preload
        default:
            if text.hasPrefix("cacheWithTimeout:") {
                return .cacheWithTimeout(try Quantities.duration(String(text.dropFirst("cacheWithTimeout:".count)), source: source))
            }
            throw InputError(source: source, "unknown strategy \(InputError.quote(text)); expected one of \(validForms)")
        }
    }

    /// Whether stored images are shown without waiting for the API.
    var showsStoredAtOnce: Bool {
        switch self {
        case .cacheFirst, .cacheAndNetwork, .cacheOnly, .preload: true
        case .networkFirst, .networkOnly, .cacheWithTimeout: false
        }
    }

    /// Whether the API may be called at all.
    var usesNetwork: Bool { self != .cacheOnly }
}

/// When the network is unreachable: intervals relative to each launch's start, and whole
/// launches. While offline, API calls and image downloads fail at once (as URLSession does with
/// no connection) and are retried later.
public struct OfflineSchedule: Sendable, Hashable {
    /// Intervals from each launch's start, in nanoseconds, end excluded.
    public var intervals: [Range<Int64>] = []
    /// Launches (1-based) offline from start to end.
    public var launches: Set<Int> = []

    public init(intervals: [Range<Int64>] = [], launches: Set<Int> = []) {
        self.intervals = intervals
        self.launches = launches
    }

    /// Adds one `--offline` value: `START-END` (durations from each launch's start, e.g.
    /// `0s-30s`) or `launch:N`.
    public mutating func add(_ text: String, source: String) throws {
        if text.hasPrefix("launch:") {
            guard let launch = Int(text.dropFirst("launch:".count)), launch >= 1 else {
                throw InputError(source: source, "expected launch:N with N ≥ 1, found \(InputError.quote(text))")
            }
            launches.insert(launch)
            return
        }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw InputError(source: source, "expected START-END (e.g. 0s-30s) or launch:N, found \(InputError.quote(text))")
        }
        let start = try Quantities.duration(String(parts[0]), source: source, allowZero: true)
        let end = try Quantities.duration(String(parts[1]), source: source)
        guard start < end else {
            throw InputError(source: source, "expected START before END, found \(InputError.quote(text))")
        }
        intervals.append(start..<end)
    }

    /// Whether the network is down at `elapsed` nanoseconds into launch `launch` (0-based).
    public func isOffline(launch: Int, elapsed: Int64) -> Bool {
        launches.contains(launch + 1) || intervals.contains { $0.contains(elapsed) }
    }

    /// The offline intervals of launch `launch` (0-based) in absolute time, for a launch that
    /// starts at `start`.
    func absoluteIntervals(launch: Int, start: Int64) -> [Range<Int64>] {
        if launches.contains(launch + 1) { return [start..<Int64.max] }
        return intervals.map { (start + $0.lowerBound)..<(start + $0.upperBound) }
    }
}
