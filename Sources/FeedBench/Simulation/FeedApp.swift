/// One display, for callers that inspect a run display by display (tests, `bench run --displays`).
public struct DisplayRecord: Sendable, Equatable {
    /// When the cell came on screen.
    public var time: Int64
    public var url: UInt64
    public var outcome: DisplayOutcome
    /// When the cell showed its image: `time` when on its frame, later after a wait; `nil` when
    /// it never did (it scrolled off, the download failed, or the launch ended first).
    public var shown: Int64?
    /// Whether the display counts as a stall (it waited, however briefly).
    public var stalled: Bool
}

/// The feed app of one run (docs/model.md#the-simulated-world): frames of a scroll trace move a grid of cells over a
/// feed supplied by the feed API through the SQLite feed store; cells entering the screen ask the
/// image pipeline for their images, the prefetcher works ahead of them, the launch strategies
/// decide what is shown first, memory is tracked against the device's warning and jetsam limits.
///
/// The app is its parts, each a value that owns its state (docs/architecture.md): the
/// `Viewport` (trace → offsets → visible cells), the `Prefetcher` (the window and its changes),
/// the `FeedList` and the `FeedSupply` (the display list, API calls, refills, seed 000's
/// buffer), the `LaunchController` (strategies, outages, what is shown first), the
/// `MemoryGuard`, the `ViewHistory`, the `RunRecorders` and the `MainThread` (frames, hitches). The app routes the events between
/// them and the image pipeline: parts answer in values (the cells that entered and left, the
/// loads to start and stop) and the app turns those into calls; it holds no state a part owns.
///
/// The app meets its engine only through two seams: `Clock` (`RunClock`), which it reads the
/// time from and schedules its events on, and the transports that carry its image downloads
/// (`Images`, inside the pipeline) and its feed API calls (`Feed`). A driver picks the engine:
/// `FeedSimulation` runs the app in virtual time over the simulated network, so the same
/// configuration always produces the same `RunResult`.
struct FeedApp<Clock: RunClock<SimulationEvent>, Images: ImageTransport, Feed: FeedTransport> {
    let configuration: RunConfiguration
    var clock: Clock
    var pipeline: ImageLoadingPipeline<Images>
    let store: FeedStore
    var feed: Feed
    var tally = RunTally()
    let session: StoreSession
    var launch: LaunchController
    var list = FeedList()
    var viewport: Viewport
    var prefetcher: Prefetcher
    var supply: FeedSupply
    var memory: MemoryGuard
    /// The guards of the memory caches following the run's own (`MemoryCaches`), follower `i`'s
    /// at `i - 1`.
    var followerMemory: [MemoryGuard]
    var history: ViewHistory
    var recorders: RunRecorders
    var mainThread: MainThread

    /// Prepares a run on `clock`, with the transports `transports` makes from the session's
    /// seed; the feed store lives in memory unless `storePath` names a file. A file that earlier
    /// runs finished on is continued: the clock resumes `gap` after the last one ended, launches
    /// are numbered on from it (their scroll traces, the feed API and the network draw from the
    /// session's own streams of the seed), and images viewed then count as viewed earlier. A
    /// fresh file gives the same results as no file. `followers` are pipelines that differ from
    /// the configuration's only in the memory cache's policy and limit, whose caches follow the
    /// run's own (`MemoryCaches`); not with a timeline, which records the run's own memory only.
    init(_ configuration: RunConfiguration, storePath: String? = nil, clock: Clock, followers: [PipelineConfiguration] = [],
         transports: (_ seed: UInt64) throws -> (images: Images, feed: Feed)) throws {
        precondition(followers.isEmpty || !configuration.recording.timeline, "FeedApp: followers are not recorded in a timeline")
        self.configuration = configuration
        let persistent = storePath != nil && storePath != ":memory:"
        store = try persistent ? FeedStore(path: storePath, maxRows: configuration.rules.maxRows)
                               : FeedStore.inMemory(maxRows: configuration.rules.maxRows)
        session = try StoreSession(store: store, persistent: persistent, gap: configuration.gap)
        history = ViewHistory(viewedEarlier: session.continues ? Set(try store.viewedURLs()) : [])
        let (images, feed) = try transports(session.seed(configuration.seed))
        pipeline = try ImageLoadingPipeline(configuration: configuration.pipeline, profile: configuration.profile,
                                            network: configuration.network, transport: images, followers: followers)
        self.feed = feed
        self.clock = clock
        launch = LaunchController(strategy: configuration.strategy)
        viewport = Viewport(profile: configuration.profile)
        prefetcher = Prefetcher(mode: configuration.window, profile: configuration.profile)
        supply = FeedSupply(rules: configuration.rules, bufferLimit: configuration.bufferLimit)
        memory = MemoryGuard(profile: configuration.profile, respondsToWarnings: configuration.pipeline.respondsToMemoryWarnings)
        followerMemory = followers.map { MemoryGuard(profile: configuration.profile, respondsToWarnings: $0.respondsToMemoryWarnings) }
        recorders = RunRecorders(recordsTimeline: configuration.recording.timeline)
        recorders.recordsDisplays = configuration.recording.displays
        mainThread = MainThread(budget: configuration.profile.frameInterval)
    }

    /// Runs every launch to the end of its scroll trace, taking events from the clock until the
    /// last launch ends, and returns the results row.
    mutating func run() throws -> RunResult {
        try begin()
        while try step() {}
        return try end()
    }

    /// Starts the run: the clock at the session's start, the first launch under way.
    mutating func begin() throws {
        clock.advance(to: session.startTime)
        memory.start(at: session.startTime)
        for position in followerMemory.indices { followerMemory[position].start(at: session.startTime) }
        if configuration.recording.requests {
            pipeline.recordRequests(connections: configuration.network.connectionsPerHost, origin: session.startTime,
                                    httpProtocol: configuration.network.alpn, imageWidth: configuration.imageWidth)
        }
        try startLaunch(0)
    }

    /// Takes the next event from the clock and handles it; `false` once the last launch has
    /// ended or nothing is pending. (A driver that reports progress steps the run itself.)
    mutating func step() throws -> Bool {
        guard !launch.finished, let (now, event) = clock.next() else { return false }
        if recorders.recordsTimeline { recorders.advance(to: now, counters: timelineCounters) }
        switch event {
        case let .frame(index, launch):
            guard launch == self.launch.index else { return true }
            try frame(index, at: now)
        case let .apiResponse(launch):
            guard launch == self.launch.index else { return true }
            try receivePage(at: now)
        case let .deadline(launch):
            guard launch == self.launch.index, !self.launch.feedShown else { return true }
            showFeed(with: [])
        case let .pipeline(event):
            pipeline.handle(event, at: now, queue: &clock)
            deliverImages(at: now)
        }
        // clock.now, not now: ending a launch may have moved the clock past the gap.
        try updateMemory(at: clock.now)
        return true
    }

    /// Ends the run once `step()` has returned `false`: the results row.
    mutating func end() throws -> RunResult {
        let end = clock.now
        var result = configuration.emptyResult
        let history = history
        tally.finish(into: &result, memory: memory.meter, until: end, frames: mainThread.figures, downloads: pipeline.figures,
                     wasDisplayed: { history.wasDisplayed($0) }, seconds: recorders.seconds)
        if session.persistent { try store.recordSession(number: session.number, endedAt: end) }
        if configuration.recording.displays {
            // Timed from the session's start, as the request log is.
            let origin = session.startTime
            result.displayLog = recorders.displayLog.map { record in
                var record = record
                record.time -= origin
                record.shown = record.shown.map { $0 - origin }
                return record
            }
        }
        return result
    }
}
