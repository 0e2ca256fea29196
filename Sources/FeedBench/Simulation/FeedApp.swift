/// One display, for callers that inspect a run request by request (tests, timelines).
public struct DisplayRecord: Sendable, Equatable {
    public var time: Int64
    public var url: UInt64
    public var outcome: DisplayOutcome
}

/// The feed app of one run (DESIGN.md §1): frames of a scroll trace move a grid of cells over a
/// feed supplied by the feed API through the SQLite feed store; cells entering the screen ask the
/// image pipeline for their images, the prefetcher works ahead of them, the launch strategies
/// decide what is shown first, memory is tracked against the device's warning and jetsam limits.
///
/// The app meets its engine only through two seams: `Clock` (`RunClock`), which it reads the
/// time from and schedules its events on, and the transports that carry its image downloads
/// (`Images`, inside the pipeline) and its feed API calls (`Feed`). A driver picks the engine:
/// `FeedSimulation` runs the app in virtual time over the simulated network, so the same
/// configuration always produces the same `RunResult`.
struct FeedApp<Clock: RunClock<SimulationEvent>, Images: ImageTransport, Feed: FeedTransport> {
    /// A cell on screen: which item it shows and, until its image arrives, since when it waits.
    struct Cell {
        var url: UInt64
        var waitingSince: Int64?
        var bitmapBytes: Int64
    }

    let configuration: RunConfiguration
    var clock: Clock
    var pipeline: ImageLoadingPipeline<Images>
    var store: FeedStore
    var feed: Feed
    var result: RunResult
    var memory = MemoryMeter(startingAt: 0)

    // The current launch.
    var launch = -1
    var launchStart: Int64 = 0
    /// Absolute times when the network is down during the launch (for `displaysOffline`).
    var offline: [Range<Int64>] = []
    var trace = ScrollTrace(name: "", frameInterval: 1, offsets: [])
    var items: [ImageDescriptor] = []
    var indexOf: [UInt64: Int] = [:]
    var offset = 0.0
    var lastDesired = 0.0
    var forward = true
    var visible = 0..<0
    /// The cell showing each item (`nil` while the item is off screen), indexed as `items`:
    /// looked up several times an event, so an array rather than a dictionary.
    var cells: [Cell?] = []
    /// The items the prefetcher holds, nearest first (indices into `items`).
    var prefetching: [Int] = []
    /// Per item (indexed as `items`), 1 while it is in `prefetching`; `updatePrefetch` also
    /// marks the items it wants with 2 while it compares. The window moves every few frames
    /// while scrolling, and comparing it through sets of URLs was a tenth of a run.
    var prefetchMarks: [UInt8] = []
    /// What `prefetching` was last computed from; while it stays the same, so does the window.
    var prefetchedFor: PrefetchRequest?
    var furthestDisplayed = -1
    var apiCallsWanted = 0
    var apiCallUnderWay = false
    /// When the call under way reached the server (`nil`: it failed offline), for the request log.
    var apiCallSentAt: Int64?
    var refillPausedUntil: Int64 = 0
    var firstImageShown = false
    /// Images shown but not yet marked viewed in the store: written in one transaction before
    /// the store is next written or read (a page arrives, the launch ends), each with the time
    /// it was shown — what the store holds whenever it is consulted is as if each were written
    /// at once, at a fraction of the transactions.
    var pendingViewed: [FeedStore.View] = []
    var viewedThisLaunch = Set<UInt64>()
    /// Whether the feed is on screen yet (network-first, timeout and preload strategies hold it).
    var feedShown = true
    /// Stored images a strategy holds back until the API answers or its deadline passes.
    var heldBack: [ImageDescriptor] = []
    /// The items whose images `preload` waits for before showing the feed.
    var preloading: [UInt64] = []
    /// Smoothed scroll speed in points per second (for the velocity window).
    var speed = 0.0
    /// The adaptive window's current size, and the stalls since it last adapted.
    var adaptiveAhead = 0
    var lastAdaptation: Int64 = 0
    var stallsSinceAdaptation = 0
    var launchFigures = LaunchFigures(launch: 0)
    /// Seed 000's supply → move → consume flow (when `bufferLimit` > 0): images wait in
    /// `supply`, up to `bufferLimit` of them are preloaded in `buffer`, and they move to the
    /// display list when fewer than `moveBelow` remain ahead of the user.
    var supply: [ImageDescriptor] = []
    var buffer: [ImageDescriptor] = []
    var bufferHeld = Set<UInt64>()
    static var moveBelow: Int { 10 }
    var imageRequestsBeforeLaunch = 0

    /// Whether to keep `displayLog` (off by default: it grows with the run).
    var recordsDisplays = false
    /// Every display in order, when `recordsDisplays` is on.
    var displayLog: [DisplayRecord] = []
    /// The run's seconds, when the configuration asks for a timeline.
    var timeline = TimelineRecorder()

    // Across launches.
    var viewedEarlier = Set<UInt64>()
    var displayedURLs = Set<UInt64>()
    var warned = false
    var finished = false

    /// The run's session on its feed store: 0 on a fresh store, n + 1 after a store whose last
    /// finished run was session n (`bench run --store`).
    let session: Int
    /// Whether the store is a file, whose history the run continues and records.
    let persistent: Bool
    /// The virtual time the first launch starts: 0, or for a later session the previous
    /// session's end plus the gap between launches.
    let startTime: Int64

    /// Prepares a run on `clock`, with the transports `transports` makes from the session's
    /// seed; the feed store lives in memory unless `storePath` names a file. A file that earlier
    /// runs finished on is continued: the clock resumes `gap` after the last one ended, launches
    /// are numbered on from it (their scroll traces, the feed API and the network draw from the
    /// session's own streams of the seed), and images viewed then count as viewed earlier. A
    /// fresh file gives the same results as no file.
    init(_ configuration: RunConfiguration, storePath: String? = nil, clock: Clock,
         transports: (_ seed: UInt64) throws -> (images: Images, feed: Feed)) throws {
        self.configuration = configuration
        persistent = storePath != nil && storePath != ":memory:"
        store = try persistent ? FeedStore(path: storePath, maxRows: configuration.rules.maxRows)
                               : FeedStore.inMemory(maxRows: configuration.rules.maxRows)
        let previous = try persistent ? store.lastSession() : nil
        session = previous.map { $0.number + 1 } ?? 0
        startTime = previous.map { $0.endedAt + configuration.gap } ?? 0
        if previous != nil { viewedEarlier = Set(try store.viewedURLs()) }
        let seed = configuration.seed &+ UInt64(session) &* Self.sessionStride
        let (images, feed) = try transports(seed)
        pipeline = try ImageLoadingPipeline(configuration: configuration.pipeline, profile: configuration.profile,
                                            network: configuration.network, transport: images)
        self.feed = feed
        self.clock = clock
        result = configuration.emptyResult
    }

    /// Separates the seeds of successive sessions on one store (an odd 64-bit constant, apart
    /// from the launches' golden-ratio stride).
    static var sessionStride: UInt64 { 0xD1B5_4A32_D192_ED03 }

    /// Runs every launch to the end of its scroll trace, taking events from the clock until the
    /// last launch ends, and returns the results row.
    mutating func run() throws -> RunResult {
        try begin()
        while try step() {}
        return try end()
    }

    /// Starts the run: the clock at the session's start, the first launch under way.
    mutating func begin() throws {
        clock.advance(to: startTime)
        memory = MemoryMeter(startingAt: startTime)
        if configuration.recordsRequests {
            pipeline.requestLog = RequestRecorder(connections: configuration.network.connectionsPerHost, origin: startTime)
        }
        try startLaunch(0)
    }

    /// Takes the next event from the clock and handles it; `false` once the last launch has
    /// ended or nothing is pending. (A driver that reports progress steps the run itself.)
    mutating func step() throws -> Bool {
        guard !finished, let (now, event) = clock.next() else { return false }
        if configuration.recordsTimeline { timeline.advance(to: now, counters: timelineCounters) }
        switch event {
        case let .frame(index, launch):
            guard launch == self.launch else { return true }
            try frame(index, at: now)
        case let .apiResponse(launch):
            guard launch == self.launch else { return true }
            try receivePage(at: now)
        case let .deadline(launch):
            guard launch == self.launch, !feedShown else { return true }
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
        result.peakMemoryBytes = memory.peak
        result.meanMemoryBytes = memory.mean(upTo: end)
        result.evictions = pipeline.memoryCache.occupancy.evictions
        result.imageRequests = pipeline.imageRequests
        result.cancelledRequests = pipeline.cancelledRequests
        result.bytesDownloaded = pipeline.bytesDownloaded
        result.wastedPrefetches = pipeline.prefetchDownloads.filter { !displayedURLs.contains($0) }.count
        result.timeline = timeline.seconds
        result.requests = pipeline.requestLog?.records ?? []
        if persistent { try store.recordSession(number: session, endedAt: end) }
        return result
    }

    // MARK: Launches

    /// Starts launch `index`: cold (memory cache empty) unless it is a warm resume from the
    /// background, in which case the memory cache keeps what backgrounding left of it.
    mutating func startLaunch(_ index: Int, warm: Bool = false) throws {
        launch = index
        launchStart = clock.now
        launchFigures = LaunchFigures(launch: index + 1)
        imageRequestsBeforeLaunch = pipeline.imageRequests
        pipeline.abandonAll(at: clock.now)
        if !warm { pipeline.memoryCache.removeAll() }
        clock.removeAll()
        pipeline.startSweeping(at: clock.now, queue: &clock)
        offline = configuration.offline.absoluteIntervals(launch: index, start: launchStart)
        pipeline.transport.startLaunch(index, at: launchStart)
        feed.startLaunch(index, at: launchStart)
        viewedEarlier.formUnion(viewedThisLaunch)
        viewedThisLaunch.removeAll()
        trace = configuration.workload.trace(profile: configuration.profile,
                                             seed: configuration.seed &+ UInt64(session * configuration.launches + index) &* 0x9e37_79b9_7f4a_7c15)
        items = []
        indexOf = [:]
        offset = 0
        lastDesired = trace.offsets.first ?? 0
        forward = true
        visible = 0..<0
        cells = []
        prefetching = []
        prefetchMarks = []
        prefetchedFor = nil
        furthestDisplayed = -1
        apiCallsWanted = 0
        apiCallUnderWay = false
        refillPausedUntil = 0
        firstImageShown = false
        heldBack = []
        preloading = []
        supply = []
        buffer = []
        bufferHeld = []
        speed = 0
        adaptiveAhead = { if case let .adaptive(start) = configuration.window { return start } else { return 0 } }()
        lastAdaptation = launchStart
        stallsSinceAdaptation = 0
        if configuration.recordsTimeline {
            timeline.startLaunch(index, at: launchStart, counters: timelineCounters, parts: memoryParts())
        }

        let rules = configuration.rules
        let strategy = configuration.strategy
        let stored = try store.unviewed(limit: rules.maxRows)
        feedShown = strategy.showsStoredAtOnce && strategy != .preload
        switch strategy {
        case .cacheFirst, .cacheAndNetwork, .cacheOnly, .preload: append(stored)
        case .networkFirst, .cacheWithTimeout: heldBack = stored
        case .networkOnly: break
        }
        if strategy.usesNetwork {
            if rules.needsRefresh(newestCreatedAt: try store.newestCreatedAt(), now: clock.now) { apiCallsWanted = 1 }
            let unviewed = strategy == .networkOnly ? 0 : stored.count
            apiCallsWanted = max(apiCallsWanted, rules.callsToMake(unviewed: unviewed, on: .launch))
            if strategy == .cacheAndNetwork || strategy == .networkFirst || strategy == .networkOnly {
                apiCallsWanted = max(apiCallsWanted, 1)
            }
            if case .cacheWithTimeout = strategy { apiCallsWanted = max(apiCallsWanted, 1) }
            callAPIIfNeeded()
        }
        if case let .cacheWithTimeout(deadline) = strategy {
            clock.schedule(.deadline(launch: index), at: launchStart + deadline)
        }
        if strategy == .preload { startPreload() }
        if trace.offsets.isEmpty { try endLaunch() } else { clock.schedule(.frame(index: 0, launch: index), at: clock.now) }
    }

    /// Shows the feed a strategy was holding: `first` (the API's images), then the held-back
    /// stored ones.
    mutating func showFeed(with first: [ImageDescriptor]) {
        append(first)
        append(heldBack)
        heldBack = []
        feedShown = true
    }

    /// Seed 002's preload: fetch the first screen's images; the feed appears when all are decoded.
    mutating func startPreload() {
        let firstScreen = WindowMode.itemsPerScreen(configuration.profile)
        let firstImages = items.prefix(firstScreen)
        preloading = firstImages.map(\.url)
        pipeline.startPrefetching(firstImages, at: clock.now, queue: &clock)
    }

    /// Ends the launch: the app goes to the background and, after the gap, comes back — warm
    /// if the gap is within `RunConfiguration.resumeWithin` (the memory cache keeps its
    /// background share), cold otherwise.
    mutating func endLaunch(killed: Bool = false) throws {
        // The session ends with these cells still waiting: their stalls count, as long as they were.
        endWaits(at: clock.now)
        try flushViewed()
        launchFigures.imageRequests = pipeline.imageRequests - imageRequestsBeforeLaunch
        result.launchFigures.append(launchFigures)
        let gap = configuration.gap
        let warm = !killed && gap <= RunConfiguration.resumeWithin
        if warm { pipeline.enterBackground() }
        // The timeline's last second of the launch includes what backgrounding evicted.
        if configuration.recordsTimeline { timeline.endLaunch(counters: timelineCounters) }
        if launch + 1 < configuration.launches {
            clock.removeAll()
            memory.pause(at: clock.now)
            clock.advance(to: clock.now + gap)
            memory.resume(at: clock.now)
            try startLaunch(launch + 1, warm: warm)
        } else {
            finished = true
        }
    }

    /// Jetsam: the app dies on the spot; the launch ends and the next one starts cold.
    mutating func kill() throws {
        result.jetsamKills += 1
        endWaits(at: clock.now)
        pipeline.abandonAll(at: clock.now)
        pipeline.memoryCache.removeAll()
        cells = Array(repeating: nil, count: items.count)
        visible = 0..<0
        try endLaunch(killed: true)
    }
}
