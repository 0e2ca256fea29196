/// The virtual-time driver of a run: the feed app (`FeedApp`) on an `EventQueue`, its downloads
/// over `SimulatedImageTransport` and its feed API calls answered by `SimulatedFeedTransport`
/// (`MockFeedAPI`). Nothing reads the wall clock and every draw comes from the run's seed, so the
/// same configuration always produces the same `RunResult`.
public struct FeedSimulation {
    typealias App = FeedApp<EventQueue<SimulationEvent>, SimulatedImageTransport, SimulatedFeedTransport>

    var app: App

    /// Prepares a run; the feed store lives in memory unless `storePath` names a file. A file
    /// that earlier runs finished on is continued: the clock resumes `gap` after the last one
    /// ended, launches are numbered on from it (their scroll traces, the feed API and the network
    /// draw from the session's own streams of the seed), and images viewed then count as viewed
    /// earlier. A fresh file gives the same results as no file.
    public init(_ configuration: RunConfiguration, storePath: String? = nil) throws {
        try self.init(configuration, storePath: storePath, followers: [])
    }

    /// A run whose memory cache is followed by one for each of `followers` (pipelines differing
    /// from the configuration's only in the memory cache's policy and limit; `MemoryCaches`).
    init(_ configuration: RunConfiguration, storePath: String? = nil, followers: [PipelineConfiguration]) throws {
        app = try App(configuration, storePath: storePath, clock: EventQueue(), followers: followers) { seed in
            try SimulatedTransports.make(configuration, seed: seed)
        }
    }

    /// Runs every launch to the end of its scroll trace and returns the results row.
    public static func run(_ configuration: RunConfiguration, storePath: String? = nil) throws -> RunResult {
        var simulation = try FeedSimulation(configuration, storePath: storePath)
        let result = try simulation.run()
        FeedStore.recycle(simulation.app.store)
        return result
    }

    /// Runs `configuration` in memory with `followers` following its memory cache: its row, and
    /// for each follower what its cache measured if it followed to the end (`nil` if it stopped).
    static func run(_ configuration: RunConfiguration, followers: [PipelineConfiguration]) throws -> (RunResult, [FollowerFigures?]) {
        var simulation = try FeedSimulation(configuration, followers: followers)
        let result = try simulation.run()
        FeedStore.recycle(simulation.app.store)
        return (result, simulation.app.followerFigures(until: simulation.app.clock.now))
    }

    /// Runs every launch to the end of its scroll trace and returns the results row.
    public mutating func run() throws -> RunResult { try app.run() }

    /// Whether to keep `displayLog` (off by default: it grows with the run).
    public var recordsDisplays: Bool {
        get { app.recorders.recordsDisplays }
        set { app.recorders.recordsDisplays = newValue }
    }

    /// Every display in order, when `recordsDisplays` is on.
    public var displayLog: [DisplayRecord] { app.recorders.displayLog }

    /// Seed 000's supply rule: images move from the prefetch buffer to the display list when
    /// fewer than this many remain ahead of the user.
    static var moveBelow: Int { FeedSupply.moveBelow }
}
