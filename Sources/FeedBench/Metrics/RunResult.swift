import Foundation

/// One row of the results CSV (docs/results.md#what-feedbench-writes): a run's identity and every figure it produced.
/// Column names are a contract — CI scripts and `bench compare` key on them.
public struct RunResult: Sendable, Equatable {
    // Identity.
    public var profile: String
    public var network: String
    /// The HTTP version the network spoke (`HTTPVersion`'s name: "1.1" or "2").
    public var http = HTTPVersion.http2.rawValue
    public var policy: String
    public var memoryLimitBytes: Int64
    public var diskLimitBytes: Int64
    public var prefetchWindow: String
    public var trace: String
    public var seed: UInt64
    public var launches: Int
    // Display.
    public var displays = 0
    public var memoryHits = 0
    public var diskHits = 0
    public var inflightHits = 0
    public var misses = 0
    /// How long each stalled display waited for its image (a stall: the image was not on
    /// screen on the frame its cell appeared). A wait still under way when its cell leaves the
    /// screen, the app is killed or the session ends counts with its length so far.
    public var stalls = StallHistogram()
    /// Every display's wait for its image: 0 for a memory hit, the stall's length otherwise.
    public var displayLatency = StallHistogram()
    /// Time to first image of each launch that showed one, in nanoseconds.
    public var firstImageTimes: [Int64] = []
    // Network.
    public var apiRequests = 0
    public var imageRequests = 0
    public var cancelledRequests = 0
    public var wastedPrefetches = 0
    public var bytesDownloaded: Int64 = 0
    // Memory.
    public var peakMemoryBytes: Int64 = 0
    public var meanMemoryBytes: Int64 = 0
    public var memoryWarnings = 0
    public var jetsamKills = 0
    public var evictions = 0
    // Feed.
    public var reshownViewed = 0
    /// The main thread's frames while the feed scrolled.
    public var frames = FrameFigures()
    /// How the app behaved (launch strategy, offline spans, release-after-view): identity.
    public var scenario = "cacheFirst"
    /// Each launch's own figures (`--per-launch`), in launch order.
    public var launchFigures: [LaunchFigures] = []
    /// Each simulated second (`--timeline`), when the configuration asked for them.
    public var timeline: [TimelineSecond] = []
    /// The requests sent (`--requests`), when the configuration asked for them.
    public var requests: [RequestLogFile.Record] = []
    /// Every display (`--displays`), when the configuration asked for them.
    public var displayLog: [DisplayRecord] = []
    /// Whether the row is another run's, written for this configuration because that run is the
    /// one this would have made (`RunSharing`; not a column).
    public var isShared = false

    public static func == (a: RunResult, b: RunResult) -> Bool { a.csvRow == b.csvRow }

    /// The header line, in column order.
    public static let columns = [
        "profile", "network", "http", "policy", "memory_limit_bytes", "disk_limit_bytes", "prefetch_window", "trace", "seed",
        "launches", "scenario",
        "displays", "memory_hits", "disk_hits", "inflight_hits", "misses", "hit_rate", "memory_hit_rate",
        "display_latency_ms_p50", "display_latency_ms_p95", "display_latency_ms_p99",
        "stalls", "stall_ms_p50", "stall_ms_p95", "stall_ms_p99", "first_image_ms",
        "api_requests", "image_requests", "cancelled_requests", "wasted_prefetches", "bytes_downloaded",
        "peak_memory_bytes", "mean_memory_bytes", "memory_warnings", "jetsam_kills", "evictions",
        "reshown_viewed",
        "frames", "frames_late", "hitch_time_ms", "hitch_time_ratio_ms_per_s", "longest_hitch_ms",
        "stall_rate", "stalls_per_minute",
    ]

    /// The header of results files written before the display-latency columns (schema 1: stall
    /// percentiles only over stalled displays, waits under way at a session's end not counted,
    /// `first_image_ms` 0 when no image was shown), so readers can say why they refuse one.
    public static let schema1Columns = schema2Columns.filter { !$0.hasPrefix("display_latency_ms_") }

    /// The header of results files written before the frame columns (schema 2: no main thread,
    /// no hitches), so readers can say why they refuse one.
    public static let schema2Columns = Array(schema3Columns.prefix { $0 != "frames" })

    /// The header of results files written before the `http` column (schema 3, until
    /// 2026-12-01): read still, their rows' HTTP version unknown (empty), so that `bench
    /// compare` joins them to newer rows without it.
    public static let schema3Columns = schema4Columns.filter { $0 != "http" }

    /// The header of results files written before `stall_rate` and `stalls_per_minute` (schema
    /// 4, until 2026-12-02): read still (`ResultMetric.addedInSchema5` says how).
    public static let schema4Columns = columns.filter { !ResultMetric.addedInSchema5.contains($0) }

    /// The identity columns: two rows with equal values here describe the same experiment.
    public static let identityColumns = Array(columns.prefix(11))

    /// Where the identity column `name` is among `identityColumns`.
    static func identityIndex(_ name: String) -> Int { identityColumns.firstIndex(of: name)! }

    public static var csvHeader: String { columns.joined(separator: ",") }

    /// A whole results CSV: the header, then one line per result, each ended by `\n`.
    public static func csv(_ results: [RunResult]) -> String {
        ([csvHeader] + results.map(\.csvRow)).joined(separator: "\n") + "\n"
    }

    /// The identity columns' values (unquoted), in `identityColumns` order.
    public var identity: [String] {
        [profile, network, http, policy, String(memoryLimitBytes), String(diskLimitBytes), prefetchWindow, trace,
         String(seed), String(launches), scenario]
    }

    /// (memory hits + disk hits) / displays.
    public var hitRate: String { FixedPoint.ratio(Int64(memoryHits + diskHits), Int64(displays), decimals: 6) }
    public var memoryHitRate: String { FixedPoint.ratio(Int64(memoryHits), Int64(displays), decimals: 6) }

    /// Mean time to first image over the launches that showed one, in milliseconds with 3
    /// decimals; empty when no launch showed an image.
    public var firstImageMilliseconds: String {
        guard !firstImageTimes.isEmpty else { return "" }
        let total = firstImageTimes.reduce(0, +)
        return FixedPoint.ratio(total, Int64(firstImageTimes.count) * 1_000_000, decimals: 3)
    }

    /// The CSV line, without its line end. Every value is an integer or a fixed-decimal number,
    /// so the same run always prints the same bytes.
    public var csvRow: String { (identityCells + metricCells).joined(separator: ",") }

    /// The identity columns' cells, CSV-quoted where needed: how every file about this run
    /// (results, per-launch figures, timeline, sweep) names it.
    public var identityCells: [String] { identity.map(CSVText.field) }

    /// The figure columns' cells, in `ResultMetric.all` order.
    public var metricCells: [String] {
        let percentiles: [Double] = [50, 95, 99]
        return [String(displays), String(memoryHits), String(diskHits), String(inflightHits), String(misses), hitRate,
                memoryHitRate] + displayLatency.milliseconds(atPercentiles: percentiles) + [String(stalls.count)]
                + stalls.milliseconds(atPercentiles: percentiles) + [firstImageMilliseconds,
                String(apiRequests), String(imageRequests), String(cancelledRequests), String(wastedPrefetches),
                String(bytesDownloaded),
                String(peakMemoryBytes), String(meanMemoryBytes), String(memoryWarnings), String(jetsamKills),
                String(evictions), String(reshownViewed)] + frameCells + [stallRate, stallsPerMinute]
    }

    /// stalls / displays: the share of displays that waited for their image.
    public var stallRate: String { FixedPoint.ratio(Int64(stalls.count), Int64(displays), decimals: 6) }

    /// Stalls per minute the feed scrolled (`frames.scrollingTime`), 3 decimals; 0 when it never
    /// scrolled.
    public var stallsPerMinute: String { FixedPoint.ratio(Int64(stalls.count) * 60_000_000_000, frames.scrollingTime, decimals: 3) }

    /// The frame columns' cells.
    var frameCells: [String] {
        [String(frames.frames), String(frames.framesLate), FixedPoint.ratio(frames.hitchTime, 1_000_000, decimals: 3),
         frames.hitchRatio, FixedPoint.ratio(frames.longestHitch, 1_000_000, decimals: 3)]
    }

    /// The figures as `ResultsFile` reads them back: one integer per `ResultMetric.all`, scaled
    /// by 10^decimals of its kind (`ResultMetric.absent` for an empty cell).
    public var metricValues: [Int64] {
        zip(ResultMetric.all, metricCells).map { metric, cell in
            guard let value = metric.parse(Substring(cell)) else { preconditionFailure("RunResult: \(metric.name) cell \(cell) is not in its column's form") }
            return value
        }
    }
}

/// CSV quoting for text fields (RFC 4180): quoted only when they hold a comma, quote or line end.
public enum CSVText {
    public static func field(_ text: String) -> String {
        // By bytes: "\r\n" is one Character, equal to neither "\r" nor "\n".
        guard text.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }) else {
            return text
        }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// One launch of a run: what `--per-launch` writes, one row each.
public struct LaunchFigures: Sendable, Equatable {
    /// 1-based.
    public var launch: Int
    /// Time from launch to the first image on screen, if one was shown.
    public var firstImage: Int64?
    public var displays = 0
    /// Displays while the network was down.
    public var displaysOffline = 0
    public var apiRequests = 0
    public var imageRequests = 0
    public var stalls = 0

    public init(launch: Int) { self.launch = launch }

    /// The columns after the run's identity columns.
    public static let columns = ["launch", "first_image_ms", "displays", "displays_offline", "api_requests",
                                 "image_requests", "stalls"]

    /// The per-launch CSV: the run's identity, then this launch's figures (`first_image_ms`
    /// empty when the launch showed no image).
    public static func csv(_ results: [RunResult]) -> String {
        var lines = [(RunResult.identityColumns + columns).joined(separator: ",")]
        for result in results {
            let identity = result.identityCells
            for figures in result.launchFigures {
                let values = [String(figures.launch), figures.firstImage.map { FixedPoint.ratio($0, 1_000_000, decimals: 3) } ?? "",
                              String(figures.displays), String(figures.displaysOffline), String(figures.apiRequests),
                              String(figures.imageRequests), String(figures.stalls)]
                lines.append((identity + values).joined(separator: ","))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
