import DequeModule

/// How a display request was served (docs/model.md#the-image-pipeline: its four cases).
public enum DisplayOutcome: Sendable, Equatable {
    /// Decoded image in the memory cache: shown on the frame it was needed.
    case memoryHit
    /// On disk: shown after a disk read and a decode.
    case diskHit
    /// Already being loaded (a prefetch): joined it, at high priority.
    case inflightHit
    /// Nowhere: a new high-priority download.
    case miss
}

/// The events the pipeline schedules on the run's clock. Each carries the serial number of the
/// task it belongs to, so an event for a cancelled task is recognised and dropped.
public enum PipelineEvent: Sendable {
    /// The image transport's own events (see `ImageTransport`).
    case transport(TransportEvent)
    case diskReadDone(url: UInt64, serial: Int)
    case decodeDone(url: UInt64, serial: Int)
    /// The rate limiter tries its waiting downloads again.
    case rateLimiterRetry
    /// The memory cache's periodic sweep of expired entries.
    case memorySweep
}

/// Seed 001's two-tier image pipeline: memory cache → disk cache → network, with coalesced
/// downloads, two priorities, a shared connection pool (6 per host), cancellation only when the
/// last requester leaves, and disk-read and decode delays from the device profile. The
/// mechanisms the libraries differ by are built here once and set by `PipelineConfiguration`:
/// the prefetcher's batches and limit (`PrefetchBatches`), a rate limiter in front of the
/// download queue (`TokenBucket`), a decode queue of limited concurrency, whether a joining
/// display raises a download's priority, and a periodic sweep of expired memory entries.
///
/// Each URL has at most one task. A task is held by a waiting display (the cell on screen)
/// and/or the prefetcher; it is cancelled when neither holds it any more — as in Nuke,
/// Kingfisher and SDWebImage. The pipeline is driven by its owner: calls return at once and
/// schedule `PipelineEvent`s, and images that become ready for a waiting display are reported
/// through `takeReady()`.
///
/// Downloads travel through `Transport` (the image transport seam): the pipeline gives a task a
/// connection and the transport moves its bytes, telling the pipeline when a request leaves the
/// device and when a download finishes or gives up.
///
/// The pipeline composes parts that each own their state: the caches (`CacheTiers`), the tasks
/// and download queues (`TaskTable`), the rate limiter (`RateLimitFront`), the decoder
/// (`DecodeQueue`), the prefetcher (`PrefetchBatches`) and what it reports (`PipelineOutputs`).
/// It routes requests and events between them, passing values, in an order that fixes every
/// run's results: when the caches are looked up and written, what goes on the clock and to the
/// transport, and what the request log records.
struct ImageLoadingPipeline<Transport: ImageTransport> {
    let configuration: PipelineConfiguration
    private(set) var transport: Transport
    var caches: CacheTiers
    var tasks: TaskTable
    var rateLimit: RateLimitFront
    var decodes: DecodeQueue
    var prefetcher: PrefetchBatches
    private var outputs: PipelineOutputs

    /// A pipeline set up as `configuration` says, over `transport`; its memory cache followed
    /// by one for each of `followers` (`MemoryCaches`).
    init(configuration: PipelineConfiguration, profile: DeviceProfile, network: NetworkProfile, transport: Transport,
         followers: [PipelineConfiguration] = []) throws {
        self.configuration = configuration
        caches = try CacheTiers(configuration: configuration, profile: profile, followers: followers)
        self.transport = transport
        tasks = TaskTable(connectionLimit: network.requestsPerHost, raisesPriorityOnJoin: configuration.raisesPriorityOnJoin,
                          prefetchLowPriority: configuration.prefetch.lowPriority)
        rateLimit = RateLimitFront(configuration.downloadRateLimit)
        decodes = DecodeQueue(limit: configuration.decodeConcurrency, bytesPerSecond: profile.decodeBytesPerSecond,
                              onMainThread: configuration.decodesOnMainThread)
        prefetcher = PrefetchBatches(limit: configuration.prefetch.concurrency, perBatch: configuration.prefetch.perBatch)
        outputs = PipelineOutputs()
    }

    // MARK: The owner's view

    /// Whether `url`'s decoded image is in the memory cache (asked of the followers too). O(followers).
    mutating func isInMemory(_ url: UInt64) -> Bool { caches.memory.contains(url) }

    /// The memory cache's bytes, entries and evictions so far. O(1).
    var memoryOccupancy: CacheOccupancy { caches.memory.own.cache.occupancy }

    /// The memory caches following the run's own, still answering as it does (`MemoryCaches`). O(1).
    var memoryFollowers: [Int] { caches.memory.following }

    /// The app's memory that memory cache `tier` accounts for (0: the run's own): its bytes and
    /// the bitmaps on screen it does not hold. O(1).
    func memoryHeld(byTier tier: Int) -> Int64 { caches.memory.heldBytes[tier] }

    /// The bytes in the run's memory cache. O(1).
    var memoryCacheBytes: Int64 { caches.memory.ownCacheBytes }

    /// Memory cache `tier`'s entries evicted so far. O(1).
    func memoryEvictions(ofTier tier: Int) -> Int { caches.memory.tiers[tier].cache.occupancy.evictions }

    /// Follower `tier` stops following: its run would go another way from here. O(followers).
    mutating func dropMemoryFollower(_ tier: Int) { caches.memory.drop(tier) }

    /// The screen's changes since the last call (`Viewport.shownChanges`), in order. O(changes × tiers).
    mutating func shownChanged(_ changes: [Viewport.ShownChange]) { caches.memory.shownChanged(changes) }

    /// Takes `url` out of the memory cache (its cell scrolled off and the app releases what it
    /// viewed). O(followers).
    mutating func evictFromMemory(_ url: UInt64) { caches.memory.remove(url) }

    /// Empties the memory cache (a memory warning, a kill, a cold launch). O(entries).
    mutating func clearMemory() { caches.memory.removeAll() }

    /// Records the requests sent from now on (`bench run --requests`), numbering `connections`
    /// per host when the transport does not say, times from `origin`, over `httpProtocol`, images
    /// asked `imageWidth` pixels wide. O(1).
    mutating func recordRequests(connections: Int, origin: Int64, httpProtocol: String, imageWidth: Int?) {
        outputs.requestLog = RequestRecorder(connections: connections, origin: origin, httpProtocol: httpProtocol, imageWidth: imageWidth)
    }

    /// Whether the requests are recorded (`recordRequests`). O(1).
    var recordsRequests: Bool { outputs.isRecording }

    /// Logs the app's `number`th API call, sent at `sentAt` and answered at `now` after the
    /// server's own `serverTime`, with its `outcome` and connection, when requests are recorded.
    /// O(1).
    mutating func logAPICall(_ number: Int, sentAt: Int64, now: Int64, serverTime: Int64, outcome: FeedAPIResponse.Outcome,
                             use: ConnectionUse?) {
        outputs.requestLog?.apiCall(number, sentAt: sentAt, now: now, serverTime: serverTime, outcome: outcome, use: use)
    }

    /// The figures of its downloads so far, for the results row. O(1).
    var figures: PipelineFigures {
        PipelineFigures(imageRequests: outputs.imageRequests, cancelledRequests: outputs.cancelledRequests,
                        bytesDownloaded: outputs.bytesDownloaded, prefetchDownloads: outputs.prefetchDownloads,
                        evictions: memoryOccupancy.evictions, requests: outputs.requestLog?.records ?? [])
    }

    /// Image requests sent so far.
    var imageRequests: Int { outputs.imageRequests }

    /// The bitmap bytes an image costs once decoded (docs/model.md#the-image-pipeline).
    func decodedBytes(_ image: ImageDescriptor) -> Int64 { caches.decodedBytes(image) }

    /// The main thread's time to decode `image` as it is drawn now: the decode of an image the
    /// pipeline left undecoded, the first time it is drawn since it came from the network or
    /// the disk (`fresh`: handed to a waiting cell) or into the memory cache; 0 when the
    /// pipeline decodes off the main thread. O(1).
    mutating func drawDecodeTime(_ image: ImageDescriptor, fresh: Bool) -> Int64 {
        guard decodes.onMainThread, caches.drawn(image.url) || fresh else { return 0 }
        return decodes.duration(of: image)
    }

    /// How long reading `image` from the disk cache takes. O(1).
    func diskReadTime(of image: ImageDescriptor) -> Int64 { caches.diskReadTime(of: image) }

    /// Bytes of downloads under way and of bitmaps being decoded (app memory).
    var bytesInFlight: Int64 { transport.bytesReceived + decodes.bytesDecoding }

    /// The images decoded for a waiting display since the last call, in completion order.
    mutating func takeReady() -> [UInt64] { outputs.takeReady() }

    /// The downloads that failed for a waiting display since the last call.
    mutating func takeFailed() -> [UInt64] { outputs.takeFailed() }

    // MARK: Requests

    /// A cell needs `image` now. Memory hits are served at once, and so are disk hits when the
    /// library reads them on the calling thread (`readsDiskOnMainThread`: the image is in the
    /// memory cache on return, and the caller's thread paid `diskReadTime`); otherwise a task is
    /// joined or started and the image is reported by `takeReady()` when it is decoded.
    mutating func requestDisplay<Clock: RunClock<SimulationEvent>>(_ image: ImageDescriptor, at now: Int64, queue: inout Clock) -> DisplayOutcome {
        if caches.lookUpInMemory(image, at: now) { return .memoryHit }
        if let joined = tasks.joinDisplay(image.url) {
            if joined.raised && joined.phase == .waitingToDecode { decodes.raisePriority(of: image.url) }
            return .inflightHit
        }
        if caches.lookUpOnDisk(image, at: now) {
            if configuration.readsDiskOnMainThread {
                caches.storeInMemory(image, at: now)
            } else {
                startDiskRead(image, display: true, at: now, queue: &queue)
            }
            return .diskHit
        }
        startDownload(image, display: true, at: now, queue: &queue)
        return .miss
    }

    /// The cell showing `url` left the screen before its image arrived.
    mutating func cancelDisplay<Clock: RunClock<SimulationEvent>>(_ url: UInt64, at now: Int64, queue: inout Clock) {
        guard let task = tasks.leaveDisplay(url) else { return }
        if !task.prefetchHeld && configuration.cancelsOnDisappear { cancel(url, at: now, queue: &queue) }
    }

    /// The prefetcher is given `images` (items entering the window, nearest first) as one batch
    /// (UIKit's `prefetchItemsAt`); it requests them within its limit.
    mutating func startPrefetching<Clock: RunClock<SimulationEvent>, Images: Sequence<ImageDescriptor>>(
        _ images: Images, at now: Int64, queue: inout Clock) {
        issuePrefetches(in: prefetcher.add(images), at: now, queue: &queue)
    }

    /// Requests `batch`'s waiting images while it is under its limit.
    mutating func issuePrefetches<Clock: RunClock<SimulationEvent>>(in batch: Int, at now: Int64, queue: inout Clock) {
        while let image = prefetcher.next(in: batch) {
            if !issuePrefetch(image, batch: batch, at: now, queue: &queue) { prefetcher.finished(in: batch) }
        }
    }

    /// One prefetch: joins a task under way, or reads the disk, or downloads; returns `false`
    /// when there is nothing to do (in memory, on disk and not to be loaded, already prefetched).
    mutating func issuePrefetch<Clock: RunClock<SimulationEvent>>(_ image: ImageDescriptor, batch: Int, at now: Int64, queue: inout Clock) -> Bool {
        if let task = tasks[image.url] {
            guard !task.prefetchHeld else { return false }
            tasks.setPrefetchBatch(batch, of: image.url)
            return true
        }
        if caches.memory.contains(image.url) { return false }
        if caches.disk.contains(image.url) {
            guard configuration.prefetch.destination == .memoryAndDisk && configuration.prefetch.loadsDiskHits else { return false }
            startDiskRead(image, display: false, batch: batch, at: now, queue: &queue)
            return true
        }
        startDownload(image, display: false, batch: batch, at: now, queue: &queue)
        return true
    }

    /// The prefetcher no longer wants `url` (it left the window): taken off the waiting list, or
    /// released (and cancelled if no display waits for it). A prefetcher per batch is never stopped.
    mutating func stopPrefetch<Clock: RunClock<SimulationEvent>>(_ url: UInt64, at now: Int64, queue: inout Clock) {
        guard !prefetcher.perBatch, !prefetcher.withdraw(url), let task = tasks[url], let batch = task.prefetchBatch else { return }
        tasks.setPrefetchBatch(nil, of: url)
        if !task.displayWaiting { cancel(url, at: now, queue: &queue) }
        prefetchEnded(batch, at: now, queue: &queue)
    }

    /// A prefetch of `batch` is over: the batch may request its next image.
    mutating func prefetchEnded<Clock: RunClock<SimulationEvent>>(_ batch: Int?, at now: Int64, queue: inout Clock) {
        guard let batch else { return }
        prefetcher.finished(in: batch)
        issuePrefetches(in: batch, at: now, queue: &queue)
    }

    /// Drops every task (the app was killed or relaunched); caches are the owner's business.
    mutating func abandonAll(at now: Int64) {
        transport.cancelAll(at: now)
        tasks.removeAll()
        prefetcher.removeAll()
        rateLimit.removeAll()
        decodes.removeAll()
        outputs.dropUntaken()
    }

    /// Launch `index` starts at `now`: the memory cache's periodic sweep, if it has one, is
    /// scheduled from then, and the transport takes on the launch's network conditions.
    mutating func startLaunch<Clock: RunClock<SimulationEvent>>(_ index: Int, at now: Int64, queue: inout Clock) {
        startSweeping(at: now, queue: &queue)
        transport.startLaunch(index, at: now)
    }

    /// Schedules the memory cache's periodic sweep, if it has one, from `now`.
    private mutating func startSweeping<Clock: RunClock<SimulationEvent>>(at now: Int64, queue: inout Clock) {
        if let interval = caches.sweepInterval { queue.schedule(.pipeline(.memorySweep), at: now + interval) }
    }

    /// Trims the memory cache as the app goes to the background.
    mutating func enterBackground() {
        caches.enterBackground()
    }

    // MARK: Task life cycle

    mutating func startDiskRead<Clock: RunClock<SimulationEvent>>(_ image: ImageDescriptor, display: Bool, batch: Int? = nil,
                                                                  at now: Int64, queue: inout Clock) {
        let serial = tasks.insert(image, display: display, prefetchBatch: batch, phase: .readingDisk)
        queue.schedule(.pipeline(.diskReadDone(url: image.url, serial: serial)), after: caches.diskReadTime(of: image))
    }

    /// A new download: through the rate limiter, then into its priority's queue.
    mutating func startDownload<Clock: RunClock<SimulationEvent>>(_ image: ImageDescriptor, display: Bool, batch: Int? = nil,
                                                                  at now: Int64, queue: inout Clock) {
        let admitted = rateLimit.admit(image.url, at: now)
        tasks.insert(image, display: display, prefetchBatch: batch, phase: admitted ? .queued : .rateLimited)
        if admitted {
            dispatchQueued(at: now, queue: &queue)
        } else {
            scheduleRateRetry(queue: &queue)
        }
    }

    /// Puts the rate limiter's retry on the clock when downloads wait for it and it is not there.
    mutating func scheduleRateRetry<Clock: RunClock<SimulationEvent>>(queue: inout Clock) {
        if let delay = rateLimit.retryToSchedule() { queue.schedule(.pipeline(.rateLimiterRetry), after: delay) }
    }

    /// Gives free connections to queued tasks, high priority first.
    mutating func dispatchQueued<Clock: RunClock<SimulationEvent>>(at now: Int64, queue: inout Clock) {
        while let task = tasks.nextDownload() {
            let url = task.image.url
            if outputs.isRecording { tasks.setConnection(outputs.takeConnection(), of: url) }
            if transport.start(task.image, serial: task.serial, highPriority: taskPriorityHigh(task), at: now, clock: &queue), tasks.markSent(url, at: now) {
                outputs.requestSent()
            }
        }
    }

    /// `url`'s download gave up after its retries: its connection is freed for the next.
    mutating func giveUp<Clock: RunClock<SimulationEvent>>(_ url: UInt64, at now: Int64, queue: inout Clock) {
        guard let task = tasks[url] else { return }
        releaseConnection(of: task)
        tasks.remove(url)
        if task.displayWaiting { outputs.imageFailed(url) }
        prefetchEnded(task.prefetchBatch, at: now, queue: &queue)
        dispatchQueued(at: now, queue: &queue)
    }

    /// The connection `task`'s download went on, as its transport says, else its slot.
    func connectionUse(of task: TaskTable.Task) -> ConnectionUse {
        transport.connectionUse(task.image.url) ?? ConnectionUse(connection: task.connection, opened: false, highPriority: taskPriorityHigh(task))
    }

    /// Whether `task`'s `URLSessionTask` has a cell's priority rather than a prefetch's, as the
    /// host sees it (its HTTP/2 stream's urgency, the request log's `priority`): the task's own
    /// when the pipeline sets it, else URLSession's default for every task. O(1).
    func taskPriorityHigh(_ task: TaskTable.Task) -> Bool {
        !configuration.setsTaskPriority || task.highPriority
    }

    /// Frees the connection `task` holds.
    mutating func releaseConnection(of task: TaskTable.Task) {
        tasks.releaseConnection()
        outputs.releaseConnection(task.connection)
    }

    mutating func cancel<Clock: RunClock<SimulationEvent>>(_ url: UInt64, at now: Int64, queue: inout Clock) {
        guard let task = tasks[url] else { return }
        switch task.phase {
        case .rateLimited:
            rateLimit.withdraw(url)
            tasks.remove(url)
        case .queued:
            tasks.remove(url)
        case .downloading:
            let use = connectionUse(of: task)
            let received = transport.cancel(url, at: now, clock: &queue)
            if task.sent { outputs.downloadCancelled(task.image, sentAt: task.sentAt, now: now, use: use, received: received) }
            releaseConnection(of: task)
            tasks.remove(url)
            dispatchQueued(at: now, queue: &queue)
        case .readingDisk, .waitingToDecode, .decoding:
            break // local work finishes and lands in the caches
        }
    }

    // MARK: Events

    /// Handles one of the pipeline's own events.
    mutating func handle<Clock: RunClock<SimulationEvent>>(_ event: PipelineEvent, at now: Int64, queue: inout Clock) {
        switch event {
        case let .transport(event):
            act(on: transport.handle(event, at: now, clock: &queue), at: now, queue: &queue)
        case let .diskReadDone(url, serial):
            guard let task = tasks[url], task.serial == serial else { return }
            startDecode(task, at: now, queue: &queue)
        case let .decodeDone(url, serial):
            guard let task = tasks[url], task.serial == serial else { return }
            finishDecode(task, at: now, queue: &queue)
        case .rateLimiterRetry:
            rateLimit.retryDue()
            while let url = rateLimit.release(at: now) { tasks.enqueue(url) }
            scheduleRateRetry(queue: &queue)
            dispatchQueued(at: now, queue: &queue)
        case .memorySweep:
            caches.sweep(at: now)
            startSweeping(at: now, queue: &queue)
        }
    }

    /// Acts on what the transport made of one of its events.
    mutating func act<Clock: RunClock<SimulationEvent>>(on news: TransferNews, at now: Int64, queue: inout Clock) {
        switch news {
        case .nothing:
            break
        case let .sent(url):
            if tasks.markSent(url, at: now) { outputs.requestSent() }
        case let .failed(url):
            giveUp(url, at: now, queue: &queue)
        case let .unsent(url, gaveUp):
            if tasks.markUnsent(url) { outputs.requestUnsent() }
            if gaveUp { giveUp(url, at: now, queue: &queue) }
        case let .finished(urls):
            for url in urls { finishDownload(url, at: now, queue: &queue) }
            transport.resume(at: now, clock: &queue)
            dispatchQueued(at: now, queue: &queue)
        }
    }

    mutating func finishDownload<Clock: RunClock<SimulationEvent>>(_ url: UInt64, at now: Int64, queue: inout Clock) {
        guard let task = tasks[url] else { return }
        releaseConnection(of: task)
        if outputs.isRecording { outputs.logDownload(task.image, sentAt: task.sentAt, now: now, use: connectionUse(of: task)) }
        outputs.downloaded(task.image, startedByPrefetch: task.startedByPrefetch)
        caches.storeOnDisk(task.image, at: now)
        if task.displayWaiting || configuration.prefetch.destination == .memoryAndDisk {
            startDecode(task, at: now, queue: &queue)
        } else {
            tasks.remove(url)
            prefetchEnded(task.prefetchBatch, at: now, queue: &queue)
        }
    }

    /// Decodes the task's image now, or queues it when the decoder is busy.
    mutating func startDecode<Clock: RunClock<SimulationEvent>>(_ task: TaskTable.Task, at now: Int64, queue: inout Clock) {
        let url = task.image.url
        let duration = decodes.start(task.image, highPriority: task.highPriority, bitmapBytes: caches.decodedBytes(task.image))
        tasks.markDecoding(url, waiting: duration == nil)
        if let duration { queue.schedule(.pipeline(.decodeDone(url: url, serial: task.serial)), after: duration) }
    }

    /// The task's image is decoded: into the memory cache, to its display, and the decoder and
    /// the prefetcher go on.
    mutating func finishDecode<Clock: RunClock<SimulationEvent>>(_ task: TaskTable.Task, at now: Int64, queue: inout Clock) {
        let url = task.image.url
        tasks.remove(url)
        decodes.finished(bitmapBytes: caches.decodedBytes(task.image))
        caches.storeInMemory(task.image, at: now)
        if task.displayWaiting { outputs.imageReady(url) }
        if let next = decodes.next(), let waiting = tasks[next] { startDecode(waiting, at: now, queue: &queue) }
        prefetchEnded(task.prefetchBatch, at: now, queue: &queue)
    }
}

/// What a run's image pipeline did, for its results row: image requests sent and cancelled,
/// bytes downloaded, the URLs prefetches downloaded, memory-cache evictions and the requests
/// logged.
struct PipelineFigures: Sendable {
    var imageRequests: Int
    var cancelledRequests: Int
    var bytesDownloaded: Int64
    var prefetchDownloads: Set<UInt64>
    var evictions: Int
    var requests: [RequestLogFile.Record]
}

/// The pipeline over the simulated network, as simulated runs use it.
typealias ImagePipeline = ImageLoadingPipeline<SimulatedImageTransport>

extension ImageLoadingPipeline where Transport == SimulatedImageTransport {
    /// A pipeline whose downloads cross the simulated `network`, never down, drawing from `seed`
    /// (the pipeline on its own, as its tests drive it).
    init(configuration: PipelineConfiguration, profile: DeviceProfile, network: NetworkProfile, seed: UInt64) throws {
        try self.init(configuration: configuration, profile: profile, network: network,
                      transport: SimulatedImageTransport(network: network, seed: seed))
    }
}
