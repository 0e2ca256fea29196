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
    var cells: [Int: Cell] = [:]
    var prefetching: [UInt64] = []
    var furthestDisplayed = -1
    var apiCallsWanted = 0
    var apiResponse: FeedAPIResponse?
    var refillPausedUntil: Int64 = 0
    var firstImageShown = false
    var pendingViewed: [UInt64] = []
    var viewedThisLaunch = Set<UInt64>()

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

    // Across launches.
    var viewedEarlier = Set<UInt64>()
    var displayedURLs = Set<UInt64>()
    var warned = false
    var finished = false

    /// Prepares a run; the feed store lives in memory unless `storePath` names a file.
    public init(_ configuration: RunConfiguration, storePath: String? = nil) throws {
        self.configuration = configuration
        pipeline = try ImagePipeline(configuration: configuration.pipeline, profile: configuration.profile,
                                     network: configuration.network, seed: configuration.seed)
        store = try FeedStore(path: storePath, maxRows: configuration.rules.maxRows)
        api = try MockFeedAPI(configuration: configuration.api, seed: configuration.seed)
        let pipelineSetup = configuration.pipeline
        result = RunResult(
            profile: configuration.profile.name, network: configuration.network.name,
            policy: pipelineSetup.memoryPolicy.description,
            memoryLimitBytes: pipelineSetup.memoryLimits.maxBytes ?? 0,
            diskLimitBytes: pipelineSetup.diskLimits.maxBytes ?? 0,
            prefetchWindow: configuration.window.description, trace: configuration.workload.name,
            seed: configuration.seed, launches: configuration.launches)
    }

    /// Runs every launch to the end of its scroll trace and returns the results row.
    public static func run(_ configuration: RunConfiguration, storePath: String? = nil) throws -> RunResult {
        var simulation = try FeedSimulation(configuration, storePath: storePath)
        return try simulation.run()
    }

    public mutating func run() throws -> RunResult {
        try startLaunch(0)
        while !finished, let (now, event) = queue.next() {
            switch event {
            case let .frame(index, launch):
                guard launch == self.launch else { continue }
                try frame(index, at: now)
            case let .apiResponse(launch):
                guard launch == self.launch else { continue }
                try receivePage(at: now)
            case let .pipeline(event):
                pipeline.handle(event, at: now, queue: &queue)
                deliverImages(at: now)
            }
            try updateMemory(at: now)
        }
        let end = queue.now
        result.peakMemoryBytes = memory.peak
        result.meanMemoryBytes = memory.mean(upTo: end)
        result.evictions = pipeline.memoryCache.occupancy.evictions
        result.imageRequests = pipeline.imageRequests
        result.cancelledRequests = pipeline.cancelledRequests
        result.bytesDownloaded = pipeline.bytesDownloaded
        result.wastedPrefetches = pipeline.prefetchDownloads.filter { !displayedURLs.contains($0) }.count
        return result
    }

    // MARK: Launches

    mutating func startLaunch(_ index: Int) throws {
        launch = index
        launchStart = queue.now
        pipeline.abandonAll(at: queue.now)
        pipeline.memoryCache.removeAll()
        queue.removeAll()
        viewedEarlier.formUnion(viewedThisLaunch)
        viewedThisLaunch.removeAll()
        trace = configuration.workload.trace(profile: configuration.profile,
                                             seed: configuration.seed &+ UInt64(index) &* 0x9e37_79b9_7f4a_7c15)
        items = []
        indexOf = [:]
        offset = 0
        lastDesired = trace.offsets.first ?? 0
        forward = true
        visible = 0..<0
        cells = [:]
        prefetching = []
        furthestDisplayed = -1
        apiCallsWanted = 0
        apiResponse = nil
        refillPausedUntil = 0
        firstImageShown = false
        // Stored unviewed images are shown at once; the API tops the store up.
        append(try store.unviewed(limit: configuration.rules.maxRows))
        let rules = configuration.rules
        if rules.needsRefresh(newestCreatedAt: try store.newestCreatedAt(), now: queue.now) { apiCallsWanted = 1 }
        apiCallsWanted = max(apiCallsWanted, rules.callsToMake(unviewed: try store.unviewedCount(), on: .launch))
        callAPIIfNeeded()
        if trace.offsets.isEmpty { try endLaunch() } else { queue.schedule(.frame(index: 0, launch: index), at: queue.now) }
    }

    mutating func endLaunch() throws {
        try flushViewed()
        if launch + 1 < configuration.launches {
            queue.removeAll()
            queue.advance(to: queue.now + configuration.gap)
            try startLaunch(launch + 1)
        } else {
            finished = true
        }
    }

    /// Jetsam: the app dies on the spot; the launch ends and the next one starts cold.
    mutating func kill() throws {
        result.jetsamKills += 1
        for index in visible { if let since = cells[index]?.waitingSince { result.stalls.record(nanoseconds: queue.now - since) } }
        pipeline.abandonAll(at: queue.now)
        pipeline.memoryCache.removeAll()
        cells = [:]
        visible = 0..<0
        try endLaunch()
    }

    // MARK: Frames

    mutating func frame(_ index: Int, at now: Int64) throws {
        let profile = configuration.profile
        let desired = trace.offsets[index]
        let delta = desired - lastDesired
        lastDesired = desired
        if delta > 0 { forward = true } else if delta < 0 { forward = false }
        let rows = (items.count + profile.columns - 1) / profile.columns
        let maxOffset = max(0, Double(rows) * profile.cellSide - profile.screenHeight)
        offset = min(max(offset + delta, 0), maxOffset)

        let newVisible = visibleItems()
        for index in visible where !newVisible.contains(index) { leave(index, at: now) }
        for index in newVisible where !visible.contains(index) { display(index, at: now) }
        visible = newVisible
        updatePrefetch(at: now)
        refillIfLow(at: now)
        try flushViewed()

        if index + 1 < trace.offsets.count {
            queue.schedule(.frame(index: index + 1, launch: launch), at: launchStart + Int64(index + 1) * trace.frameInterval)
        } else {
            try endLaunch()
        }
    }

    /// The items whose cells intersect the screen at the current offset.
    func visibleItems() -> Range<Int> {
        let profile = configuration.profile
        guard !items.isEmpty else { return 0..<0 }
        let firstRow = Int(offset / profile.cellSide)
        let lastRow = Int((offset + profile.screenHeight - 0.001) / profile.cellSide)
        let lower = min(items.count, firstRow * profile.columns)
        let upper = min(items.count, (lastRow + 1) * profile.columns)
        return lower..<upper
    }

    mutating func display(_ index: Int, at now: Int64) {
        let image = items[index]
        result.displays += 1
        displayedURLs.insert(image.url)
        if viewedEarlier.contains(image.url) { result.reshownViewed += 1 }
        if viewedThisLaunch.insert(image.url).inserted { pendingViewed.append(image.url) }
        furthestDisplayed = max(furthestDisplayed, index)
        let bitmap = pipeline.decodedBytes(image)
        let outcome = pipeline.requestDisplay(image, at: now, queue: &queue)
        if recordsDisplays { displayLog.append(DisplayRecord(time: now, url: image.url, outcome: outcome)) }
        switch outcome {
        case .memoryHit:
            result.memoryHits += 1
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
        guard let cell = cells.removeValue(forKey: index) else { return }
        if let since = cell.waitingSince {
            result.stalls.record(nanoseconds: now - since)
            pipeline.cancelDisplay(cell.url, at: now, queue: &queue)
        }
    }

    /// Hands decoded images to the cells waiting for them, recording each wait as a stall.
    mutating func deliverImages(at now: Int64) {
        for url in pipeline.takeReady() {
            guard let index = indexOf[url], var cell = cells[index], let since = cell.waitingSince else { continue }
            result.stalls.record(nanoseconds: now - since)
            cell.waitingSince = nil
            cells[index] = cell
            showedImage(at: now)
        }
        for url in pipeline.takeFailed() {
            guard let index = indexOf[url], var cell = cells[index], let since = cell.waitingSince else { continue }
            result.stalls.record(nanoseconds: now - since)
            cell.waitingSince = nil
            cell.bitmapBytes = 0
            cells[index] = cell
        }
    }

    mutating func showedImage(at now: Int64) {
        guard !firstImageShown else { return }
        firstImageShown = true
        result.firstImageTimes.append(now - launchStart)
    }

    /// Moves the prefetch window: items entering it are prefetched, items leaving it released.
    mutating func updatePrefetch(at now: Int64) {
        let wanted = configuration.window.items(visible: visible, forward: forward, itemCount: items.count).map { items[$0].url }
        let wantedSet = Set(wanted)
        let current = Set(prefetching)
        for url in prefetching where !wantedSet.contains(url) { pipeline.stopPrefetch(url, at: now, queue: &queue) }
        for url in wanted where !current.contains(url) { pipeline.startPrefetch(items[indexOf[url]!], at: now, queue: &queue) }
        prefetching = wanted
        deliverImages(at: now)
    }

    // MARK: Feed supply

    /// Appends images to the display list, skipping any already in it.
    mutating func append(_ images: [ImageDescriptor]) {
        for image in images where indexOf[image.url] == nil {
            indexOf[image.url] = items.count
            items.append(image)
        }
    }

    /// Seed 000's refill rule: when fewer than `refillBelow` unviewed items remain ahead of the
    /// user, call the API (at most `maxCallsPerRefill` calls) unless a call is under way.
    mutating func refillIfLow(at now: Int64) {
        let rules = configuration.rules
        guard apiCallsWanted == 0, apiResponse == nil, now >= refillPausedUntil,
              items.count - (furthestDisplayed + 1) < rules.refillBelow else { return }
        apiCallsWanted = rules.callsToMake(unviewed: items.count - (furthestDisplayed + 1), on: .browsing)
        callAPIIfNeeded()
    }

    mutating func callAPIIfNeeded() {
        guard apiResponse == nil, apiCallsWanted > 0 else { return }
        apiCallsWanted -= 1
        let response = api.requestPage(at: queue.now)
        result.apiRequests += 1
        apiResponse = response
        queue.schedule(.apiResponse(launch: launch), at: max(queue.now, response.completesAt))
    }

    mutating func receivePage(at now: Int64) throws {
        guard let response = apiResponse else { return }
        apiResponse = nil
        switch response.outcome {
        case let .page(images):
            append(try store.insert(images, at: now))
            callAPIIfNeeded()
        case .failure:
            // Back off for a second before the next refill attempt.
            apiCallsWanted = 0
            refillPausedUntil = now + 1_000_000_000
        }
    }

    mutating func flushViewed() throws {
        guard !pendingViewed.isEmpty else { return }
        try store.markViewed(pendingViewed, at: queue.now)
        pendingViewed.removeAll(keepingCapacity: true)
    }

    // MARK: Memory

    /// Tracked memory (DESIGN.md §1.8): memory-cache bytes, bitmaps of visible cells that the
    /// cache does not hold, download buffers. Above the warning threshold the memory cache is
    /// cleared (once per crossing); above the jetsam limit the app is killed.
    mutating func updateMemory(at now: Int64) throws {
        guard !finished else { return }
        var tracked = currentMemory()
        memory.record(tracked, at: now)
        let profile = configuration.profile
        if tracked > profile.jetsamLimitBytes {
            try kill()
            memory.record(currentMemory(), at: now)
            return
        }
        if tracked > profile.memoryWarningBytes {
            if !warned {
                warned = true
                result.memoryWarnings += 1
                pipeline.memoryCache.removeAll()
                tracked = currentMemory()
                memory.record(tracked, at: now)
            }
        } else {
            warned = false
        }
    }

    func currentMemory() -> Int64 {
        var bitmaps: Int64 = 0
        for index in visible {
            if let cell = cells[index], cell.waitingSince == nil, !pipeline.memoryCache.contains(cell.url) {
                bitmaps += cell.bitmapBytes
            }
        }
        return pipeline.memoryCache.occupancy.bytes + bitmaps + pipeline.bytesInFlight
    }
}
