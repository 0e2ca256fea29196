/// One simulated second of one launch of a run: what `bench run --timeline` writes, one row
/// each (docs/results.md#what-feedbench-writes).
///
/// Memory is the three parts of tracked memory (docs/model.md#memory-warnings-and-the-os) at the moment tracked memory
/// was highest in that second, so their sum is the second's peak (a second with no event
/// carries the level it started with). Counts are what happened in the second: stalls that
/// ended in it, API calls and image downloads started in it, memory-cache evictions (a launch's
/// last second includes what going to the background trimmed), memory warnings and jetsam kills.
public struct TimelineSecond: Sendable, Equatable {
    /// 1-based, as in `--per-launch`.
    public var launch: Int
    /// Seconds since the launch started: the row covers [second, second + 1).
    public var second: Int
    public var memoryCacheBytes: Int64 = 0
    public var bitmapBytes: Int64 = 0
    public var inflightBytes: Int64 = 0
    public var stalls = 0
    public var apiRequests = 0
    public var imageRequests = 0
    public var evictions = 0
    public var memoryWarnings = 0
    public var jetsamKills = 0

    public init(launch: Int, second: Int) {
        self.launch = launch
        self.second = second
    }

    /// The columns after the run's identity columns.
    public static let columns = ["launch", "second", "memory_cache_bytes", "bitmap_bytes", "inflight_bytes", "stalls",
                                 "api_requests", "image_requests", "evictions", "memory_warnings", "jetsam_kills"]

    /// The figures in `columns` order (after `launch` and `second`).
    var figures: [Int64] {
        [memoryCacheBytes, bitmapBytes, inflightBytes, Int64(stalls), Int64(apiRequests), Int64(imageRequests),
         Int64(evictions), Int64(memoryWarnings), Int64(jetsamKills)]
    }

    /// The timeline CSV of `results`: the header, then every second of every launch of each
    /// run in order, each line starting with the run's identity.
    public static func csv(_ results: [RunResult]) -> String {
        var lines = [(RunResult.identityColumns + columns).joined(separator: ",")]
        for result in results {
            let identity = result.identityCells.joined(separator: ",")
            for row in result.timeline {
                lines.append(identity + ",\(row.launch),\(row.second)," + row.figures.map(String.init).joined(separator: ","))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// Tracked memory split into its three parts (docs/model.md#memory-warnings-and-the-os).
struct MemoryParts: Sendable, Equatable {
    var memoryCache: Int64 = 0
    var bitmaps: Int64 = 0
    var inflight: Int64 = 0

    var total: Int64 { memoryCache + bitmaps + inflight }
}

/// Running totals of the counts a timeline reports per second; a second's counts are the
/// difference between the totals at its end and at its start.
struct TimelineCounters: Sendable, Equatable {
    var stalls = 0
    var apiRequests = 0
    var imageRequests = 0
    var evictions = 0
    var memoryWarnings = 0
    var jetsamKills = 0
}

/// Builds a run's timeline while it runs: the simulation reports the time of each event before
/// handling it (`advance`), every memory level it records (`observe`) and launch boundaries.
/// O(1) per event plus O(1) per simulated second; the simulation calls it only when the
/// configuration asks for a timeline.
struct TimelineRecorder: Sendable {
    private(set) var seconds: [TimelineSecond] = []
    private var launch = 0
    private var launchStart: Int64 = 0
    private var current = 0
    private var atSecondStart = TimelineCounters()
    private var peak = MemoryParts()
    private var last = MemoryParts()
    private var open = false

    /// Starts launch `index` (0-based) at `time`, with memory `parts`.
    mutating func startLaunch(_ index: Int, at time: Int64, counters: TimelineCounters, parts: MemoryParts) {
        launch = index
        launchStart = time
        current = 0
        atSecondStart = counters
        last = parts
        peak = parts
        open = true
    }

    /// Closes every second of the launch before the one holding `time`, with the totals before
    /// the event at `time` is handled.
    mutating func advance(to time: Int64, counters: TimelineCounters) {
        guard open else { return }
        let second = Int((time - launchStart) / 1_000_000_000)
        while current < second { close(counters: counters) }
    }

    /// A new level of tracked memory.
    mutating func observe(_ parts: MemoryParts) {
        last = parts
        if parts.total > peak.total { peak = parts }
    }

    /// Closes the launch's last second with the totals at its end.
    mutating func endLaunch(counters: TimelineCounters) {
        guard open else { return }
        close(counters: counters)
        open = false
    }

    private mutating func close(counters: TimelineCounters) {
        var row = TimelineSecond(launch: launch + 1, second: current)
        row.memoryCacheBytes = peak.memoryCache
        row.bitmapBytes = peak.bitmaps
        row.inflightBytes = peak.inflight
        row.stalls = counters.stalls - atSecondStart.stalls
        row.apiRequests = counters.apiRequests - atSecondStart.apiRequests
        row.imageRequests = counters.imageRequests - atSecondStart.imageRequests
        row.evictions = counters.evictions - atSecondStart.evictions
        row.memoryWarnings = counters.memoryWarnings - atSecondStart.memoryWarnings
        row.jetsamKills = counters.jetsamKills - atSecondStart.jetsamKills
        seconds.append(row)
        atSecondStart = counters
        current += 1
        peak = last
    }
}
