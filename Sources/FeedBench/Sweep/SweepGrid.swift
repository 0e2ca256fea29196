import Foundation

/// The axes of an experiment as the user wrote them — in a sweep config file or on the command
/// line — before they are checked: every list is one axis of a cartesian product, and an empty
/// list takes the default. `plan()` checks every value and returns the runs.
///
/// Defaults: the four built-in profiles; each profile's own network, memory-cache and disk-cache
/// limits; images at their original width; the standard matrix's policies, windows and
/// behaviours (`StandardMatrix`); the `cacheFirst` strategy; seed 1.
public struct SweepGrid: Sendable, Equatable {
    /// One value as written, and where it came from, so a refusal can point at it.
    public struct Value: Sendable, Equatable {
        public var text: String
        /// The file, or the option (`--policy`), it came from.
        public var source: String
        /// The line in `source`, when it is a file.
        public var line: Int?
        /// The config key, when it is a file.
        public var field: String?

        public init(_ text: String, source: String, line: Int? = nil, field: String? = nil) {
            self.text = text
            self.source = source
            self.line = line
            self.field = field
        }

        /// A refusal pointing at this value.
        public func error(_ message: String) -> InputError {
            InputError(source: source, line: line, field: field, message)
        }

        /// Runs a parser that reports errors against `source` alone (or the option it parses),
        /// and points its refusal at this value's file, line and key instead — unless the
        /// refusal is about a file (the profile JSON the value names, the recording a network
        /// file names), which keeps its own place.
        func parse<T>(_ parser: (String, String) throws -> T) throws -> T {
            do {
                return try parser(text, source)
            } catch let refusal as InputError where refusal.source != text && (refusal.source == source || refusal.source.hasPrefix("--")) {
                throw error(refusal.message)
            }
        }
    }

    public var profiles: [Value] = []
    public var networks: [Value] = []
    /// The widths the feed asks its images at (`ImageWidth`: `full`, `cell`, pixels).
    public var imageWidths: [Value] = []
    public var policies: [Value] = []
    public var presets: [Value] = []
    public var memoryLimits: [Value] = []
    public var diskLimits: [Value] = []
    public var windows: [Value] = []
    public var behaviors: [Value] = []
    /// Recorded scroll traces (`t_ms,offset_pt` CSV files); they follow the behaviours on the
    /// workload axis.
    public var traces: [Value] = []
    public var strategies: [Value] = []
    public var seeds: [Value] = []
    /// What every run shares.
    public var session = Session()

    /// The settings every run of a grid shares.
    public struct Session: Sendable, Equatable {
        /// App launches per run.
        public var launches = 1
        /// Simulated time between launches, in nanoseconds.
        public var gap = RunConfiguration.defaultGap
        /// Length of each launch's session for built-in behaviours, in nanoseconds.
        public var duration = RunConfiguration.defaultDuration
        public var offline = OfflineSchedule()
        public var releaseViewed = false
        public var bufferLimit = 0
        /// A `bench calibrate` fit replacing the network, the API's models and the images' sizes.
        public var workload: Workload?
        /// The HTTP version every run's network speaks (`--http`); `nil`: each network's own.
        public var http: HTTPVersion?

        public init() {}

        /// Refuses settings no run can honour, once they are all known (the launches may come
        /// from a config file, `--offline` from the command line): an offline launch beyond
        /// the launches of a run, and launches so far apart that the run's clock (nanoseconds
        /// in 64 bits) would overflow.
        public func check() throws {
            if let launch = offline.launches.max(), launch > launches {
                throw InputError(source: "--offline", "expected launch:N with N at most the \(launches) launch\(launches == 1 ? "" : "es") of a run (--launches), found \"launch:\(launch)\"")
            }
            if Double(launches) * (Double(gap) + Double(ScrollTrace.maximumDuration)) > Self.longestSpan {
                throw InputError(source: "--gap", "expected \(launches) launches of up to 24h, --gap apart, to span at most 100 years, found a gap of \(gap / 3_600_000_000_000)h")
            }
        }

        /// The longest a run may span, launches and gaps included: 100 years of nanoseconds.
        static let longestSpan = 100 * 365.25 * 24 * 3600e9
    }

    public init() {}

    /// The axes in the config file's key order, each with its key.
    var axes: [(key: String, values: [Value])] {
        [("profiles", profiles), ("networks", networks), ("image_widths", imageWidths), ("policies", policies), ("presets", presets),
         ("memory_limits", memoryLimits), ("disk_limits", diskLimits), ("windows", windows),
         ("behaviors", behaviors), ("traces", traces), ("strategies", strategies), ("seeds", seeds)]
    }

    /// Replaces every axis `other` sets (a non-empty list) with `other`'s: command-line flags
    /// over a config file.
    public mutating func override(with other: SweepGrid) {
        func take(_ mine: inout [Value], _ theirs: [Value]) { if !theirs.isEmpty { mine = theirs } }
        take(&profiles, other.profiles)
        take(&networks, other.networks)
        take(&imageWidths, other.imageWidths)
        take(&policies, other.policies)
        take(&presets, other.presets)
        take(&memoryLimits, other.memoryLimits)
        take(&diskLimits, other.diskLimits)
        take(&windows, other.windows)
        take(&behaviors, other.behaviors)
        take(&traces, other.traces)
        take(&strategies, other.strategies)
        take(&seeds, other.seeds)
    }

    /// Adds `--trace` values as `bench run`, `sweep` and `tune` all take them: a behaviour's
    /// name to `behaviors`, a recorded trace (a `.csv` name, or any file that exists) to
    /// `traces`; anything else is refused.
    public mutating func addTraces(_ values: [Value]) throws {
        for value in values {
            if ScrollBehavior(rawValue: value.text) != nil {
                behaviors.append(value)
            } else if value.text.hasSuffix(".csv") || FileManager.default.fileExists(atPath: value.text) {
                traces.append(value)
            } else {
                throw value.error("unknown behaviour \(InputError.quote(value.text)); expected one of \(ScrollBehavior.allCases.map(\.rawValue).joined(separator: ", ")) or a .csv file")
            }
        }
    }

    /// Splits command-line values on commas (`--policy lru,lfu --policy fifo` is three values),
    /// each remembered as coming from `option`.
    public static func values(_ lists: [String], option: String) -> [Value] {
        lists.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }.map { Value(String($0), source: option) }
    }

    /// The values of an option given at most once: none when it was not given.
    public static func values(_ list: String?, option: String) -> [Value] {
        values(list.map { [$0] } ?? [], option: option)
    }
}
