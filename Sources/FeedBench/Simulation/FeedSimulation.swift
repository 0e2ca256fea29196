/// One run of the simulated feed app (DESIGN.md §1): frames of a scroll trace move a grid of
/// cells over a feed supplied by the mock API through the SQLite feed store; cells entering the
/// screen ask the image pipeline for their images, the prefetcher works ahead of them, memory
/// is tracked against the device's warning and jetsam limits. Everything happens on one event
/// queue in virtual time, so the same configuration always produces the same `RunResult`.
public struct FeedSimulation {
    /// A cell on screen: which item it shows and, until its image arrives, since when it waits.
    struct Cell {
        var url: UInt64
        var waitingSince: Int64?
        var bitmapBytes: Int64
    }

    let configuration: RunConfiguration
    var queue = EventQueue<SimulationEvent>()
    var pipeline: ImagePipeline
    var store: FeedStore
    var api: MockFeedAPI
    var result: RunResult
    var memory = MemoryMeter(startingAt: 0)

    // The current launch.
    var launch = -1
    var launchStart: Int64 = 0
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
    var apiResponse: FeedAPIResponse?
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
    static let moveBelow = 10
    var imageRequestsBeforeLaunch = 0

    /// One display, for callers that inspect a run request by request (tests, timelines).
    public struct DisplayRecord: Sendable, Equatable {
        public var time: Int64
        public var url: UInt64
        public var outcome: DisplayOutcome
    }

    /// Whether to keep `displayLog` (off by default: it grows with the run).
    public var recordsDisplays = false
    /// Every display in order, when `recordsDisplays` is on.
    public private(set) var displayLog: [DisplayRecord] = []
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

    /// Prepares a run; the feed store lives in memory unless `storePath` names a file. A file
    /// that earlier runs finished on is continued: the clock resumes `gap` after the last one
    /// ended, launches are numbered on from it (their scroll traces, the feed API and the network
    /// draw from the session's own streams of the seed), and images viewed then count as viewed
    /// earlier. A fresh file gives the same results as no file.
    public init(_ configuration: RunConfiguration, storePath: String? = nil) throws {
        self.configuration = configuration
        persistent = storePath != nil && storePath != ":memory:"
        store = try persistent ? FeedStore(path: storePath, maxRows: configuration.rules.maxRows)
                               : FeedStore.inMemory(maxRows: configuration.rules.maxRows)
        let previous = try persistent ? store.lastSession() : nil
        session = previous.map { $0.number + 1 } ?? 0
        startTime = previous.map { $0.endedAt + configuration.gap } ?? 0
        if previous != nil { viewedEarlier = Set(try store.viewedURLs()) }
        let seed = configuration.seed &+ UInt64(session) &* Self.sessionStride
        pipeline = try ImagePipeline(configuration: configuration.pipeline, profile: configuration.profile,
                                     network: configuration.network, seed: seed)
        api = try MockFeedAPI(configuration: configuration.api, seed: seed)
        result = configuration.emptyResult
    }

    /// Separates the seeds of successive sessions on one store (an odd 64-bit constant, apart
    /// from the launches' golden-ratio stride).
    static let sessionStride: UInt64 = 0xD1B5_4A32_D192_ED03

    /// Runs every launch to the end of its scroll trace and returns the results row.
    public static func run(_ configuration: RunConfiguration, storePath: String? = nil) throws -> RunResult {
        var simulation = try FeedSimulation(configuration, storePath: storePath)
        let result = try simulation.run()
        FeedStore.recycle(simulation.store)
        return result
    }

    public mutating func run() throws -> RunResult {
        queue.advance(to: startTime)
        memory = MemoryMeter(startingAt: startTime)
        if configuration.recordsRequests {
            pipeline.requestLog = RequestRecorder(connections: configuration.network.connectionsPerHost, origin: startTime)
        }
        try startLaunch(0)
        while !finished, let (now, event) = queue.next() {
            if configuration.recordsTimeline { timeline.advance(to: now, counters: timelineCounters) }
            switch event {
            case let .frame(index, launch):
                guard launch == self.launch else { continue }
                try frame(index, at: now)
            case let .apiResponse(launch):
                guard launch == self.launch else { continue }
                try receivePage(at: now)
            case let .deadline(launch):
                guard launch == self.launch, !feedShown else { continue }
                showFeed(with: [])
            case let .pipeline(event):
                pipeline.handle(event, at: now, queue: &queue)
                deliverImages(at: now)
            }
            // queue.now, not now: ending a launch may have moved the clock past the gap.
            try updateMemory(at: queue.now)
        }
        let end = queue.now
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
        launchStart = queue.now
        launchFigures = LaunchFigures(launch: index + 1)
        imageRequestsBeforeLaunch = pipeline.imageRequests
        pipeline.abandonAll(at: queue.now)
        if !warm { pipeline.memoryCache.removeAll() }
        queue.removeAll()
        pipeline.startSweeping(at: queue.now, queue: &queue)
        pipeline.offline = configuration.offline.absoluteIntervals(launch: index, start: launchStart)
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
        apiResponse = nil
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
            if rules.needsRefresh(newestCreatedAt: try store.newestCreatedAt(), now: queue.now) { apiCallsWanted = 1 }
            let unviewed = strategy == .networkOnly ? 0 : stored.count
            apiCallsWanted = max(apiCallsWanted, rules.callsToMake(unviewed: unviewed, on: .launch))
            if strategy == .cacheAndNetwork || strategy == .networkFirst || strategy == .networkOnly {
                apiCallsWanted = max(apiCallsWanted, 1)
            }
            if case .cacheWithTimeout = strategy { apiCallsWanted = max(apiCallsWanted, 1) }
            callAPIIfNeeded()
        }
        if case let .cacheWithTimeout(deadline) = strategy {
            queue.schedule(.deadline(launch: index), at: launchStart + deadline)
        }
        if strategy == .preload { startPreload() }
        if trace.offsets.isEmpty { try endLaunch() } else { queue.schedule(.frame(index: 0, launch: index), at: queue.now) }
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
        pipeline.startPrefetching(firstImages, at: queue.now, queue: &queue)
    }

    /// Ends the launch: the app goes to the background and, after the gap, comes back — warm
    /// if the gap is within `RunConfiguration.resumeWithin` (the memory cache keeps its
    /// background share), cold otherwise.
    mutating func endLaunch(killed: Bool = false) throws {
        // The session ends with these cells still waiting: their stalls count, as long as they were.
        endWaits(at: queue.now)
        try flushViewed()
        launchFigures.imageRequests = pipeline.imageRequests - imageRequestsBeforeLaunch
        result.launchFigures.append(launchFigures)
        let gap = configuration.gap
        let warm = !killed && gap <= RunConfiguration.resumeWithin
        if warm { pipeline.enterBackground() }
        // The timeline's last second of the launch includes what backgrounding evicted.
        if configuration.recordsTimeline { timeline.endLaunch(counters: timelineCounters) }
        if launch + 1 < configuration.launches {
            queue.removeAll()
            memory.pause(at: queue.now)
            queue.advance(to: queue.now + gap)
            memory.resume(at: queue.now)
            try startLaunch(launch + 1, warm: warm)
        } else {
            finished = true
        }
    }

    /// Jetsam: the app dies on the spot; the launch ends and the next one starts cold.
    mutating func kill() throws {
        result.jetsamKills += 1
        endWaits(at: queue.now)
        pipeline.abandonAll(at: queue.now)
        pipeline.memoryCache.removeAll()
        cells = Array(repeating: nil, count: items.count)
        visible = 0..<0
        try endLaunch(killed: true)
    }

    // MARK: Frames

    mutating func frame(_ index: Int, at now: Int64) throws {
        let profile = configuration.profile
        let desired = trace.offsets[index]
        // Until the feed is shown the user cannot scroll it.
        let delta = feedShown ? desired - lastDesired : 0
        lastDesired = desired
        if delta > 0 { forward = true } else if delta < 0 { forward = false }
        let rows = (items.count + profile.columns - 1) / profile.columns
        let maxOffset = max(0, Double(rows) * profile.cellSide - profile.screenHeight)
        let previous = offset
        offset = min(max(offset + delta, 0), maxOffset)
        speed = 0.85 * speed + 0.15 * abs(offset - previous) / (Double(trace.frameInterval) / 1e9)
        if !feedShown && !preloading.isEmpty && preloading.allSatisfy({ pipeline.memoryCache.contains($0) }) {
            preloading = []
            feedShown = true
        }
        adaptWindow(at: now)

        let newVisible = visibleItems()
        for index in visible where !newVisible.contains(index) { leave(index, at: now) }
        for index in newVisible where !visible.contains(index) { display(index, at: now) }
        visible = newVisible
        if configuration.bufferLimit > 0 { moveThroughBuffer() }
        updatePrefetch(at: now)
        refillIfLow(at: now)

        if index + 1 < trace.offsets.count {
            queue.schedule(.frame(index: index + 1, launch: launch), at: launchStart + Int64(index + 1) * trace.frameInterval)
        } else {
            try endLaunch()
        }
    }

    /// The items whose cells intersect the screen at the current offset.
    func visibleItems() -> Range<Int> {
        let profile = configuration.profile
        guard feedShown, !items.isEmpty else { return 0..<0 }
        let firstRow = Int(offset / profile.cellSide)
        let lastRow = Int((offset + profile.screenHeight - 0.001) / profile.cellSide)
        let lower = min(items.count, firstRow * profile.columns)
        let upper = min(items.count, (lastRow + 1) * profile.columns)
        return lower..<upper
    }

    mutating func display(_ index: Int, at now: Int64) {
        let image = items[index]
        result.displays += 1
        launchFigures.displays += 1
        if pipeline.isOffline(at: now) { launchFigures.displaysOffline += 1 }
        displayedURLs.insert(image.url)
        if viewedEarlier.contains(image.url) { result.reshownViewed += 1 }
        if viewedThisLaunch.insert(image.url).inserted { pendingViewed.append(FeedStore.View(url: image.url, time: now)) }
        furthestDisplayed = max(furthestDisplayed, index)
        let bitmap = pipeline.decodedBytes(image)
        let outcome = pipeline.requestDisplay(image, at: now, queue: &queue)
        if bufferHeld.remove(image.url) != nil, prefetchMarks[index] == 0 {
            pipeline.stopPrefetch(image.url, at: now, queue: &queue)
        }
        if recordsDisplays { displayLog.append(DisplayRecord(time: now, url: image.url, outcome: outcome)) }
        switch outcome {
        case .memoryHit:
            result.memoryHits += 1
            result.displayLatency.recordNoWait()
            cells[index] = Cell(url: image.url, waitingSince: nil, bitmapBytes: bitmap)
            showedImage(at: now)
        case .diskHit:
            result.diskHits += 1
            cells[index] = Cell(url: image.url, waitingSince: now, bitmapBytes: bitmap)
        case .inflightHit:
            result.inflightHits += 1
            cells[index] = Cell(url: image.url, waitingSince: now, bitmapBytes: bitmap)
        case .miss:
            result.misses += 1
            cells[index] = Cell(url: image.url, waitingSince: now, bitmapBytes: bitmap)
        }
        deliverImages(at: now)
    }

    /// A cell scrolled off: if it was still waiting, that wait was a stall cut short, and its
    /// request is withdrawn (cancelled if nobody else holds it).
    mutating func leave(_ index: Int, at now: Int64) {
        guard let cell = cells[index] else { return }
        cells[index] = nil
        if let since = cell.waitingSince {
            recordStall(since: since, at: now)
            pipeline.cancelDisplay(cell.url, at: now, queue: &queue)
        } else if configuration.pipeline.releaseViewed {
            pipeline.memoryCache.remove(cell.url)
        }
    }

    /// Hands decoded images to the cells waiting for them, recording each wait as a stall.
    mutating func deliverImages(at now: Int64) {
        for url in pipeline.takeReady() {
            guard let index = indexOf[url], var cell = cells[index], let since = cell.waitingSince else { continue }
            recordStall(since: since, at: now)
            cell.waitingSince = nil
            cells[index] = cell
            showedImage(at: now)
        }
        for url in pipeline.takeFailed() {
            guard let index = indexOf[url], var cell = cells[index], let since = cell.waitingSince else { continue }
            recordStall(since: since, at: now)
            cell.waitingSince = nil
            cell.bitmapBytes = 0
            cells[index] = cell
        }
    }

    /// Records the wait of every visible cell still waiting for its image as a stall lasting
    /// until `now`, and stops the wait (the launch is ending).
    mutating func endWaits(at now: Int64) {
        for index in visible {
            guard var cell = cells[index], let since = cell.waitingSince else { continue }
            recordStall(since: since, at: now)
            cell.waitingSince = nil
            cells[index] = cell
        }
    }

    mutating func showedImage(at now: Int64) {
        guard !firstImageShown else { return }
        firstImageShown = true
        result.firstImageTimes.append(now - launchStart)
        launchFigures.firstImage = now - launchStart
    }

    mutating func recordStall(since: Int64, at now: Int64) {
        result.stalls.record(nanoseconds: now - since)
        result.displayLatency.record(nanoseconds: now - since)
        launchFigures.stalls += 1
        stallsSinceAdaptation += 1
    }

    /// Moves the prefetch window: items entering it are prefetched, items leaving it released.
    mutating func updatePrefetch(at now: Int64) {
        // Most frames leave the window where it was (items are only ever appended, and the
        // launch reset clears `prefetchedFor`): nothing to stop or start.
        let request = PrefetchRequest(window: currentWindow(), visible: visible, forward: forward, itemCount: items.count)
        guard request != prefetchedFor else { return deliverImages(at: now) }
        prefetchedFor = request
        let wanted = request.window.items(visible: request.visible, forward: request.forward, itemCount: request.itemCount)
        guard wanted != prefetching else { return deliverImages(at: now) }
        // Items that left the window are released, in the old window's order, then items that
        // entered it are prefetched, nearest first. O(old + new window).
        for index in wanted { prefetchMarks[index] |= 2 }
        for index in prefetching where prefetchMarks[index] & 2 == 0 { pipeline.stopPrefetch(items[index].url, at: now, queue: &queue) }
        let items = items, marks = prefetchMarks
        pipeline.startPrefetching(wanted.lazy.filter { marks[$0] & 1 == 0 }.map { items[$0] }, at: now, queue: &queue)
        for index in prefetching { prefetchMarks[index] = 0 }
        for index in wanted { prefetchMarks[index] = 1 }
        prefetching = wanted
        deliverImages(at: now)
    }

    /// What decides the prefetch window's items: the window's size, the visible items, the
    /// scroll direction and how many items the feed holds.
    struct PrefetchRequest: Equatable {
        var window: PrefetchWindow
        var visible: Range<Int>
        var forward: Bool
        var itemCount: Int
    }

    /// The window the prefetcher uses now, by the configured mode (`WindowMode`).
    func currentWindow() -> PrefetchWindow {
        let profile = configuration.profile
        switch configuration.window {
        case let .items(window): return window
        case let .screens(count):
            return PrefetchWindow(ahead: Int((count * Double(WindowMode.itemsPerScreen(profile))).rounded(.up)))
        case .device: return PrefetchWindow(ahead: WindowMode.deviceCount(profile))
        case .velocity:
            let coveredRows = Int((speed / profile.cellSide).rounded(.up))
            return PrefetchWindow(ahead: min(100, WindowMode.itemsPerScreen(profile) + coveredRows * profile.columns))
        case .adaptive: return PrefetchWindow(ahead: adaptiveAhead)
        }
    }

    /// Seed 000's feedback loop, once per simulated second (see `WindowMode.adaptive`).
    mutating func adaptWindow(at now: Int64) {
        guard case let .adaptive(start) = configuration.window, now - lastAdaptation >= 1_000_000_000 else { return }
        let threshold = Double(configuration.profile.memoryWarningBytes)
        let level = Double(memory.current)
        if level > 0.8 * threshold {
            adaptiveAhead = max(2, adaptiveAhead / 2)
        } else if stallsSinceAdaptation > 2 {
            adaptiveAhead = max(2, adaptiveAhead - max(1, adaptiveAhead / 4))
        } else if level < 0.6 * threshold && stallsSinceAdaptation == 0 {
            adaptiveAhead = min(start, adaptiveAhead + max(1, start / 4))
        }
        lastAdaptation = now
        stallsSinceAdaptation = 0
    }

    // MARK: Feed supply

    /// Adds images to the feed, skipping any already in it: straight to the display list, or
    /// through the supply and the prefetch buffer when the buffer is on.
    mutating func append(_ images: [ImageDescriptor]) {
        guard configuration.bufferLimit > 0 else {
            for image in images { appendToDisplayList(image) }
            return
        }
        let known = Set(supply.map(\.url)).union(buffer.map(\.url))
        supply += images.filter { indexOf[$0.url] == nil && !known.contains($0.url) }
        moveThroughBuffer()
    }

    mutating func appendToDisplayList(_ image: ImageDescriptor) {
        guard indexOf[image.url] == nil else { return }
        indexOf[image.url] = items.count
        items.append(image)
        cells.append(nil)
        prefetchMarks.append(0)
    }

    /// Moves images to the display list when it runs low, then tops the buffer up from the
    /// supply, preloading each image that enters it. O(moved).
    mutating func moveThroughBuffer() {
        while items.count - (furthestDisplayed + 1) < Self.moveBelow, !buffer.isEmpty {
            appendToDisplayList(buffer.removeFirst())
        }
        while buffer.count < configuration.bufferLimit, !supply.isEmpty {
            let image = supply.removeFirst()
            buffer.append(image)
            bufferHeld.insert(image.url)
            pipeline.startPrefetching(CollectionOfOne(image), at: queue.now, queue: &queue)
        }
        if items.count - (furthestDisplayed + 1) < Self.moveBelow, !buffer.isEmpty { moveThroughBuffer() }
    }

    /// Images waiting ahead of the user: in the display list, the buffer and the supply.
    var unviewedAhead: Int { items.count - (furthestDisplayed + 1) + buffer.count + supply.count }

    /// Seed 000's refill rule: when fewer than `refillBelow` unviewed items remain ahead of the
    /// user, call the API (at most `maxCallsPerRefill` calls) unless a call is under way.
    mutating func refillIfLow(at now: Int64) {
        let rules = configuration.rules
        guard configuration.strategy.usesNetwork, apiCallsWanted == 0, apiResponse == nil, now >= refillPausedUntil,
              unviewedAhead < rules.refillBelow else { return }
        apiCallsWanted = max(feedShown ? 0 : 1, rules.callsToMake(unviewed: unviewedAhead, on: .browsing))
        callAPIIfNeeded()
    }

    mutating func callAPIIfNeeded() {
        guard apiResponse == nil, apiCallsWanted > 0 else { return }
        apiCallsWanted -= 1
        let response: FeedAPIResponse
        if pipeline.isOffline(at: queue.now) {
            // No connection: the call fails at once without reaching the server.
            response = FeedAPIResponse(completesAt: queue.now, outcome: .failure(.serverError))
            apiCallSentAt = nil
        } else {
            response = api.requestPage(at: queue.now)
            apiCallSentAt = queue.now
            result.apiRequests += 1
            launchFigures.apiRequests += 1
        }
        apiResponse = response
        queue.schedule(.apiResponse(launch: launch), at: max(queue.now, response.completesAt))
    }

    mutating func receivePage(at now: Int64) throws {
        guard let response = apiResponse else { return }
        apiResponse = nil
        if pipeline.requestLog != nil, let sentAt = apiCallSentAt {
            pipeline.requestLog!.apiCall(api.callCount, sentAt: sentAt, now: now, outcome: response.outcome)
        }
        switch response.outcome {
        case let .page(images):
            try flushViewed()
            let added = try store.insert(images, at: now)
            if feedShown || configuration.strategy == .preload { append(added) } else { showFeed(with: added) }
            if configuration.strategy == .preload && preloading.isEmpty && !feedShown { startPreload() }
            callAPIIfNeeded()
        case .failure:
            // Back off for a second before the next refill attempt.
            apiCallsWanted = 0
            refillPausedUntil = now + 1_000_000_000
        }
    }

    mutating func flushViewed() throws {
        guard !pendingViewed.isEmpty else { return }
        try store.markViewed(pendingViewed)
        pendingViewed.removeAll(keepingCapacity: true)
    }

    // MARK: Memory

    /// Tracked memory (DESIGN.md §1.8): memory-cache bytes, bitmaps of visible cells that the
    /// cache does not hold, download buffers. Above the warning threshold the memory cache is
    /// cleared (once per crossing); above the jetsam limit the app is killed.
    mutating func updateMemory(at now: Int64) throws {
        guard !finished else { return }
        let tracked = recordMemory(at: now)
        let profile = configuration.profile
        if tracked > profile.jetsamLimitBytes {
            try kill()
            recordMemory(at: queue.now)
            return
        }
        if tracked > profile.memoryWarningBytes, configuration.pipeline.respondsToMemoryWarnings {
            if !warned {
                warned = true
                result.memoryWarnings += 1
                pipeline.memoryCache.removeAll()
                recordMemory(at: now)
            }
        } else {
            warned = false
        }
    }

    /// Records the current level of tracked memory (and its parts in the timeline) and returns it.
    @discardableResult
    mutating func recordMemory(at now: Int64) -> Int64 {
        let parts = memoryParts()
        memory.record(parts.total, at: now)
        if configuration.recordsTimeline { timeline.observe(parts) }
        return parts.total
    }

    func memoryParts() -> MemoryParts {
        var bitmaps: Int64 = 0
        for index in visible {
            if let cell = cells[index], cell.waitingSince == nil, !pipeline.memoryCache.contains(cell.url) {
                bitmaps += cell.bitmapBytes
            }
        }
        return MemoryParts(memoryCache: pipeline.memoryCache.occupancy.bytes, bitmaps: bitmaps, inflight: pipeline.bytesInFlight)
    }

    /// The running totals a timeline's seconds are differences of.
    var timelineCounters: TimelineCounters {
        TimelineCounters(stalls: result.stalls.count, apiRequests: result.apiRequests, imageRequests: pipeline.imageRequests,
                         evictions: pipeline.memoryCache.occupancy.evictions, memoryWarnings: result.memoryWarnings,
                         jetsamKills: result.jetsamKills)
    }
}
