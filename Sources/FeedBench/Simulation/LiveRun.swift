/// The wall-clock driver of a run: the same feed app as `FeedSimulation` (scroll trace, caches,
/// prefetcher, SQLite store, launch strategies) on a `WallClock`, its image downloads and feed
/// API calls carried by live transports (`FeedLive`'s HTTP ones against `bench serve` or any
/// server of the feed API). Disk reads and decodes keep their modelled durations — they are the
/// device's, not this machine's — while what the network does is measured.
///
/// A live run is one launch: the gap before a next launch is hours of wall time. Its results row
/// is `bench run`'s with `;mode=live` at the end of the `scenario` cell, so a live row is never
/// mistaken for the simulated row of the same configuration.
public struct LiveRun<Images: ImageTransport, Feed: FeedTransport> {
    var app: FeedApp<WallClock, Images, Feed>

    /// The `scenario` cell's tag of a live row.
    public static var modeTag: String { ";mode=live" }

    /// Prepares a run of `configuration` (one launch, no simulated outages: a live run's network
    /// is the server's, changed through it) over `images` and `feed`, whose arrivals go to the
    /// inbox of the clock made here (`clock` gives it to them).
    public init(_ configuration: RunConfiguration, transports: (_ inbox: EventInbox) throws -> (images: Images, feed: Feed)) throws {
        if let refusal = configuration.liveRefusal { throw InputError(source: "--live", refusal) }
        let clock = WallClock(frameInterval: configuration.profile.frameInterval)
        let (images, feed) = try transports(clock.inbox)
        app = try FeedApp(configuration, clock: clock) { _ in (images, feed) }
    }

    /// Runs the launch to the end of its scroll trace in real time and returns the results row.
    /// Every `interval` ns of wall time `progress` is told how far the run is; after every event
    /// `check` may end the run by throwing (the live transports' refusals: an unreachable
    /// server, a wrong-shaped answer).
    public mutating func run(reportingEvery interval: Int64, progress: (LiveProgress) -> Void, check: () throws -> Void) throws -> RunResult {
        app.clock.start()
        try app.begin()
        var nextReport = interval
        while try app.step() {
            try check()
            if app.clock.inbox.elapsed >= nextReport {
                progress(self.progress)
                nextReport += interval
            }
        }
        try check()
        var result = try app.end()
        progress(self.progress)
        result.scenario += Self.modeTag
        return result
    }

    /// How far the run is now.
    public var progress: LiveProgress {
        LiveProgress(elapsed: app.clock.inbox.elapsed, duration: app.viewport.traceDuration,
                     displays: app.tally.displays, stalls: app.tally.stalls.count, framesLate: app.clock.framesLate)
    }
}

/// A live run's progress: wall time since it started and the scroll session's length, displays
/// and stalls so far, and frames handled more than one frame interval after they were due.
public struct LiveProgress: Sendable, Equatable {
    public var elapsed: Int64
    public var duration: Int64
    public var displays: Int
    public var stalls: Int
    public var framesLate: Int

    /// `12.0/30.0 s, 412 displays, 3 stalls, 0 frames late`.
    public var line: String {
        func seconds(_ ns: Int64) -> String { FixedPoint.decimal(Double(ns) / 1e9, decimals: 1) }
        return "\(seconds(elapsed))/\(seconds(duration)) s, \(displays) displays, \(stalls) stalls, \(framesLate) frames late"
    }
}

extension RunConfiguration {
    /// Why this configuration cannot run live (`LiveRun`), if it cannot.
    public var liveRefusal: String? {
        if launches != 1 {
            return "expected one launch (a live run waits out the gap between launches in real time), found --launches \(launches)"
        }
        if !offline.intervals.isEmpty || !offline.launches.isEmpty {
            return "--offline is the simulated network's; take a live server offline through its conditions (PUT /_conditions {\"offline\": true})"
        }
        return nil
    }
}
