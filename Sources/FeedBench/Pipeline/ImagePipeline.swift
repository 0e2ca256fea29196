import DequeModule

/// How a display request was served (DESIGN.md §1.4's four cases).
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
struct ImageLoadingPipeline<Transport: ImageTransport> {
    enum Phase {
        case rateLimited, queued, downloading, readingDisk, waitingToDecode, decoding
    }

    struct Task {
        var serial: Int
        var image: ImageDescriptor
        var phase: Phase
        var displayWaiting: Bool
        /// The prefetcher batch holding the task; `nil` when no prefetcher does.
        var prefetchBatch: Int?
        var highPriority: Bool
        /// Whether an attempt has left the device (counted once in `imageRequests`).
        var sent = false
        /// When the first attempt left the device, and the connection it holds (1…), for the
        /// request log.
        var sentAt: Int64 = 0
        var connection = 0
        /// Started by the prefetcher (for wasted-prefetch accounting).
        let startedByPrefetch: Bool

        var prefetchHeld: Bool { prefetchBatch != nil }
    }

    let configuration: PipelineConfiguration
    let profile: DeviceProfile
    let network: NetworkProfile
    var memoryCache: any EvictionPolicy
    var diskCache: any EvictionPolicy
    var transport: Transport
    /// Tasks by URL: looked up, never iterated for output.
    var tasks: [UInt64: Task] = [:]
    var highQueue = Deque<UInt64>()
    var lowQueue = Deque<UInt64>()
    var connectionsInUse = 0
    var prefetcher: PrefetchBatches
    var rateLimiter: TokenBucket?
    /// Downloads waiting for a token, in arrival order.
    var rateLimited = Deque<UInt64>()
    var rateRetryScheduled = false
    /// Tasks whose data is there, waiting for a decode slot, in arrival order.
    var decodeQueue = Deque<UInt64>()
    var decodesRunning = 0
    /// Bitmap bytes of the images being decoded (app memory).
    var bytesDecoding: Int64 = 0
    var nextSerial = 0
    var ready: [UInt64] = []
    var failed: [UInt64] = []

    // Counters for the results row.
    var imageRequests = 0
    var cancelledRequests = 0
    var bytesDownloaded: Int64 = 0
    /// URLs downloaded by tasks the prefetcher started.
    var prefetchDownloads = Set<UInt64>()
    /// The requests sent, when the run records them (`bench run --requests`).
    var requestLog: RequestRecorder?

    init(configuration: PipelineConfiguration, profile: DeviceProfile, network: NetworkProfile, transport: Transport) throws {
        self.configuration = configuration
        self.profile = profile
        self.network = network
        // Policy ages are in seconds; the simulator's clock counts nanoseconds.
        memoryCache = try configuration.memoryPolicy.makePolicy(limits: configuration.memoryLimits, ageScale: 1_000_000_000, source: "--policy")
        diskCache = try configuration.diskPolicy.makePolicy(limits: configuration.diskLimits, ageScale: 1_000_000_000, source: "--disk-policy")
        self.transport = transport
        prefetcher = PrefetchBatches(limit: configuration.prefetchConcurrency, perBatch: configuration.prefetchPerBatch)
        rateLimiter = configuration.downloadRateLimit.map(TokenBucket.init)
    }

    /// The bitmap bytes an image costs once decoded (DESIGN.md §1.4).
    func decodedBytes(_ image: ImageDescriptor) -> Int64 {
        if configuration.downsample {
            let side = Int64(profile.cellPixels)
            return side * side * 4
        }
        return Int64(image.pixelWidth) * Int64(image.pixelHeight) * 4
    }

    func request(_ image: ImageDescriptor, time: Int64, forMemory: Bool) -> CacheRequest {
        CacheRequest(key: image.url, size: forMemory ? decodedBytes(image) : image.encodedBytes, time: time)
    }

    // MARK: Requests

    /// A cell needs `image` now. Memory hits are served at once; otherwise a task is joined or
    /// started and the image is reported by `takeReady()` when it is decoded.
    mutating func requestDisplay<Clock: RunClock<SimulationEvent>>(_ image: ImageDescriptor, at now: Int64, queue: inout Clock) -> DisplayOutcome {
        if memoryCache.lookup(request(image, time: now, forMemory: true)) { return .memoryHit }
        if var task = tasks[image.url] {
            task.displayWaiting = true
            if !task.highPriority && configuration.raisesPriorityOnJoin {
                task.highPriority = true
                if task.phase == .queued, let index = lowQueue.firstIndex(of: image.url) {
                    lowQueue.remove(at: index)
                    highQueue.append(image.url)
                }
            }
            tasks[image.url] = task
            return .inflightHit
        }
        if diskCache.lookup(request(image, time: now, forMemory: false)) {
            startDiskRead(image, display: true, at: now, queue: &queue)
            return .diskHit
        }
        startDownload(image, display: true, at: now, queue: &queue)
        return .miss
    }

    /// The cell showing `url` left the screen before its image arrived.
    mutating func cancelDisplay<Clock: RunClock<SimulationEvent>>(_ url: UInt64, at now: Int64, queue: inout Clock) {
        guard var task = tasks[url] else { return }
        task.displayWaiting = false
        tasks[url] = task
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
        if var task = tasks[image.url] {
            guard task.prefetchBatch == nil else { return false }
            task.prefetchBatch = batch
            tasks[image.url] = task
            return true
        }
        if memoryCache.contains(image.url) { return false }
        if diskCache.contains(image.url) {
            guard configuration.prefetchDestination == .memoryAndDisk && configuration.prefetchLoadsDiskHits else { return false }
            startDiskRead(image, display: false, batch: batch, at: now, queue: &queue)
            return true
        }
        startDownload(image, display: false, batch: batch, at: now, queue: &queue)
        return true
    }

    /// The prefetcher no longer wants `url` (it left the window): taken off the waiting list, or
    /// released (and cancelled if no display waits for it). A prefetcher per batch is never stopped.
    mutating func stopPrefetch<Clock: RunClock<SimulationEvent>>(_ url: UInt64, at now: Int64, queue: inout Clock) {
        guard !prefetcher.perBatch, !prefetcher.withdraw(url), var task = tasks[url], let batch = task.prefetchBatch else { return }
        task.prefetchBatch = nil
        tasks[url] = task
        if !task.displayWaiting { cancel(url, at: now, queue: &queue) }
        prefetchEnded(batch, at: now, queue: &queue)
    }

    /// A prefetch of `batch` is over: the batch may request its next image.
    mutating func prefetchEnded<Clock: RunClock<SimulationEvent>>(_ batch: Int?, at now: Int64, queue: inout Clock) {
        guard let batch else { return }
        prefetcher.finished(in: batch)
        issuePrefetches(in: batch, at: now, queue: &queue)
    }

    /// The images decoded for a waiting display since the last call, in completion order.
    mutating func takeReady() -> [UInt64] {
        // Most calls find nothing: returning `ready` and then emptying it in place would copy
        // its (shared) buffer every time.
        guard !ready.isEmpty else { return [] }
        defer { ready = [] }
        return ready
    }

    /// The downloads that failed for a waiting display since the last call.
    mutating func takeFailed() -> [UInt64] {
        guard !failed.isEmpty else { return [] }
        defer { failed = [] }
        return failed
    }

    /// Drops every task (the app was killed or relaunched); caches are the owner's business.
    mutating func abandonAll(at now: Int64) {
        transport.cancelAll(at: now)
        tasks.removeAll()
        highQueue.removeAll()
        lowQueue.removeAll()
        connectionsInUse = 0
        prefetcher.removeAll()
        rateLimited.removeAll()
        rateRetryScheduled = false
        decodeQueue.removeAll()
        decodesRunning = 0
        bytesDecoding = 0
        ready.removeAll()
        failed.removeAll()
    }

    /// Bytes of downloads under way and of bitmaps being decoded (app memory).
    var bytesInFlight: Int64 { transport.bytesReceived + bytesDecoding }

    /// Schedules the memory cache's periodic sweep, if it has one, from `now` (a launch starts).
    mutating func startSweeping<Clock: RunClock<SimulationEvent>>(at now: Int64, queue: inout Clock) {
        if let interval = configuration.memorySweepInterval { queue.schedule(.pipeline(.memorySweep), at: now + interval) }
    }

    /// Trims the memory cache as the app goes to the background.
    mutating func enterBackground() {
        switch configuration.background {
        case .purge:
            memoryCache.trim(toFraction: 0)
        case let .toShareOfLimit(share):
            if let limit = configuration.memoryLimits.maxBytes {
                memoryCache.trim(toBytes: Int64(Double(limit) * share))
            } else {
                memoryCache.trim(toFraction: 0)
            }
        }
    }

    // MARK: Task life cycle

    mutating func newTask(_ image: ImageDescriptor, display: Bool, batch: Int?, phase: Phase) -> Task {
        nextSerial += 1
        return Task(serial: nextSerial, image: image, phase: phase, displayWaiting: display, prefetchBatch: batch,
                    highPriority: display || !configuration.prefetchLowPriority, startedByPrefetch: !display)
    }

    mutating func startDiskRead<Clock: RunClock<SimulationEvent>>(_ image: ImageDescriptor, display: Bool, batch: Int? = nil,
                                                                  at now: Int64, queue: inout Clock) {
        let task = newTask(image, display: display, batch: batch, phase: .readingDisk)
        tasks[image.url] = task
        let readTime = profile.diskReadLatency + image.encodedBytes * 1_000_000_000 / profile.diskReadBytesPerSecond
        queue.schedule(.pipeline(.diskReadDone(url: image.url, serial: task.serial)), after: readTime)
    }

    /// A new download: through the rate limiter when there is one, then into its priority's queue.
    mutating func startDownload<Clock: RunClock<SimulationEvent>>(_ image: ImageDescriptor, display: Bool, batch: Int? = nil,
                                                                  at now: Int64, queue: inout Clock) {
        tasks[image.url] = newTask(image, display: display, batch: batch, phase: .queued)
        if rateLimiter != nil, !rateLimited.isEmpty || !rateLimiter!.take(at: now) {
            tasks[image.url]?.phase = .rateLimited
            rateLimited.append(image.url)
            scheduleRateRetry(queue: &queue)
            return
        }
        enqueue(image.url)
        dispatchQueued(at: now, queue: &queue)
    }

    /// Puts a task that may download into its priority's queue.
    mutating func enqueue(_ url: UInt64) {
        guard var task = tasks[url] else { return }
        task.phase = .queued
        tasks[url] = task
        if task.highPriority { highQueue.append(url) } else { lowQueue.append(url) }
    }

    mutating func scheduleRateRetry<Clock: RunClock<SimulationEvent>>(queue: inout Clock) {
        guard !rateRetryScheduled, let delay = rateLimiter?.retryDelay else { return }
        rateRetryScheduled = true
        queue.schedule(.pipeline(.rateLimiterRetry), after: delay)
    }

    /// Gives free connections to queued tasks, high priority first.
    mutating func dispatchQueued<Clock: RunClock<SimulationEvent>>(at now: Int64, queue: inout Clock) {
        while connectionsInUse < network.connectionsPerHost {
            guard let url = highQueue.popFirst() ?? lowQueue.popFirst() else { return }
            guard var task = tasks[url] else { continue }
            connectionsInUse += 1
            task.phase = .downloading
            if requestLog != nil { task.connection = requestLog!.takeConnection() }
            if transport.start(task.image, serial: task.serial, at: now, clock: &queue) { markSent(&task, at: now) }
            tasks[url] = task
        }
    }

    /// The first attempt of `task`'s download to leave the device did so at `now`.
    mutating func markSent(_ task: inout Task, at now: Int64) {
        guard !task.sent else { return }
        task.sent = true
        task.sentAt = now
        imageRequests += 1
    }

    /// `url`'s download gave up after its retries: its connection is freed for the next.
    mutating func giveUp<Clock: RunClock<SimulationEvent>>(_ url: UInt64, at now: Int64, queue: inout Clock) {
        guard let task = tasks[url] else { return }
        releaseConnection(of: task)
        tasks[url] = nil
        if task.displayWaiting { failed.append(url) }
        prefetchEnded(task.prefetchBatch, at: now, queue: &queue)
        dispatchQueued(at: now, queue: &queue)
    }

    /// The connection `task`'s download went on, as its transport says, else its slot.
    func connectionUse(of task: Task) -> ConnectionUse {
        transport.connectionUse(task.image.url) ?? ConnectionUse(connection: task.connection, opened: false)
    }

    /// Frees the connection `task` holds.
    mutating func releaseConnection(of task: Task) {
        connectionsInUse -= 1
        requestLog?.releaseConnection(task.connection)
    }

    mutating func cancel<Clock: RunClock<SimulationEvent>>(_ url: UInt64, at now: Int64, queue: inout Clock) {
        guard let task = tasks[url] else { return }
        switch task.phase {
        case .rateLimited:
            if let i = rateLimited.firstIndex(of: url) { rateLimited.remove(at: i) }
            tasks[url] = nil
        case .queued:
            if let i = highQueue.firstIndex(of: url) { highQueue.remove(at: i) }
            if let i = lowQueue.firstIndex(of: url) { lowQueue.remove(at: i) }
            tasks[url] = nil
        case .downloading:
            let use = connectionUse(of: task)
            let received = transport.cancel(url, at: now, clock: &queue)
            if task.sent {
                cancelledRequests += 1
                requestLog?.download(task.image, sentAt: task.sentAt, now: now, use: use, cancelledAfter: received)
            }
            releaseConnection(of: task)
            tasks[url] = nil
            dispatchQueued(at: now, queue: &queue)
        case .readingDisk, .waitingToDecode, .decoding:
            break // local work finishes and lands in the caches
        }
    }

    /// Handles one of the pipeline's own events.
    mutating func handle<Clock: RunClock<SimulationEvent>>(_ event: PipelineEvent, at now: Int64, queue: inout Clock) {
        switch event {
        case let .transport(event):
            switch transport.handle(event, at: now, clock: &queue) {
            case .nothing:
                break
            case let .sent(url):
                guard var task = tasks[url] else { return }
                markSent(&task, at: now)
                tasks[url] = task
            case let .failed(url):
                giveUp(url, at: now, queue: &queue)
            case let .unsent(url, gaveUp):
                guard var task = tasks[url] else { return }
                if task.sent {
                    task.sent = false
                    imageRequests -= 1
                    tasks[url] = task
                }
                if gaveUp { giveUp(url, at: now, queue: &queue) }
            case let .finished(urls):
                for url in urls { finishDownload(url, at: now, queue: &queue) }
                transport.resume(at: now, clock: &queue)
                dispatchQueued(at: now, queue: &queue)
            }
        case let .diskReadDone(url, serial):
            guard let task = tasks[url], task.serial == serial else { return }
            startDecode(task, at: now, queue: &queue)
        case let .decodeDone(url, serial):
            guard let task = tasks[url], task.serial == serial else { return }
            tasks[url] = nil
            decodesRunning -= 1
            bytesDecoding -= decodedBytes(task.image)
            storeInMemory(task.image, at: now)
            if task.displayWaiting { ready.append(url) }
            startNextDecode(at: now, queue: &queue)
            prefetchEnded(task.prefetchBatch, at: now, queue: &queue)
        case .rateLimiterRetry:
            rateRetryScheduled = false
            while let url = rateLimited.first, rateLimiter!.take(at: now) {
                rateLimited.removeFirst()
                enqueue(url)
            }
            if !rateLimited.isEmpty { scheduleRateRetry(queue: &queue) }
            dispatchQueued(at: now, queue: &queue)
        case .memorySweep:
            memoryCache.removeExpired(at: now)
            startSweeping(at: now, queue: &queue)
        }
    }

    mutating func finishDownload<Clock: RunClock<SimulationEvent>>(_ url: UInt64, at now: Int64, queue: inout Clock) {
        guard let task = tasks[url] else { return }
        releaseConnection(of: task)
        if requestLog != nil { requestLog!.download(task.image, sentAt: task.sentAt, now: now, use: connectionUse(of: task)) }
        bytesDownloaded += task.image.encodedBytes
        if task.startedByPrefetch { prefetchDownloads.insert(url) }
        storeOnDisk(task.image, at: now)
        if task.displayWaiting || configuration.prefetchDestination == .memoryAndDisk {
            startDecode(task, at: now, queue: &queue)
        } else {
            tasks[url] = nil
            prefetchEnded(task.prefetchBatch, at: now, queue: &queue)
        }
    }

    /// Puts a decoded image in the memory cache unless it is too large an entry for it.
    mutating func storeInMemory(_ image: ImageDescriptor, at now: Int64) {
        let bytes = decodedBytes(image)
        if let share = configuration.maxEntryShare, let limit = configuration.memoryLimits.maxBytes,
           Double(bytes) >= share * Double(limit) { return }
        if memoryCache.contains(image.url) { return }
        memoryCache.insert(request(image, time: now, forMemory: true))
    }

    /// Writes downloaded data to the disk cache.
    mutating func storeOnDisk(_ image: ImageDescriptor, at now: Int64) {
        if diskCache.contains(image.url) { return }
        diskCache.insert(request(image, time: now, forMemory: false))
    }

    /// Decodes the task's image now, or queues it when the decode queue is full.
    mutating func startDecode<Clock: RunClock<SimulationEvent>>(_ task: Task, at now: Int64, queue: inout Clock) {
        var task = task
        if let limit = configuration.decodeConcurrency, decodesRunning >= limit {
            task.phase = .waitingToDecode
            tasks[task.image.url] = task
            decodeQueue.append(task.image.url)
            return
        }
        task.phase = .decoding
        tasks[task.image.url] = task
        decodesRunning += 1
        bytesDecoding += decodedBytes(task.image)
        let sourceBytes = Int64(task.image.pixelWidth) * Int64(task.image.pixelHeight) * 4
        let decodeTime = sourceBytes * 1_000_000_000 / profile.decodeBytesPerSecond
        queue.schedule(.pipeline(.decodeDone(url: task.image.url, serial: task.serial)), after: decodeTime)
    }

    /// Starts the next queued decode, a high-priority one first. O(queued decodes).
    mutating func startNextDecode<Clock: RunClock<SimulationEvent>>(at now: Int64, queue: inout Clock) {
        guard !decodeQueue.isEmpty else { return }
        let index = decodeQueue.firstIndex { tasks[$0]?.highPriority == true } ?? decodeQueue.startIndex
        let url = decodeQueue.remove(at: index)
        if let task = tasks[url] { startDecode(task, at: now, queue: &queue) }
    }
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
