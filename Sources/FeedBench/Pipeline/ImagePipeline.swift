import DequeModule

/// Where a prefetched image goes: the disk cache only, or decoded into the memory cache too.
public enum PrefetchDestination: String, Sendable, CaseIterable {
    case disk
    case memoryAndDisk = "memory+disk"
}

/// How the image pipeline is set up for a run (DESIGN.md §1.4–§1.5).
public struct PipelineConfiguration: Sendable {
    public var memoryPolicy: PolicySpec
    public var memoryLimits: CacheLimits
    public var diskPolicy: PolicySpec
    public var diskLimits: CacheLimits
    /// Decode to the cell's pixel size (`true`) or to the image's full size.
    public var downsample: Bool
    /// Low-priority (prefetch) downloads allowed at once, within the connection limit.
    public var prefetchConcurrency: Int
    public var prefetchDestination: PrefetchDestination
    /// Whether prefetches queue behind visible cells (`true`) or with them, first come first
    /// served (Kingfisher's normal priority).
    public var prefetchLowPriority = true
    /// Whether a cell leaving the screen cancels its download when nobody else holds it
    /// (Nuke, SDWebImage) or lets it finish into the caches (Kingfisher).
    public var cancelsOnDisappear = true
    /// Images costing this share of the memory cost limit or more are not kept (Nuke: 0.1).
    public var maxEntryShare: Double?
    /// When the disk cache goes over its byte limit it trims to this share of it (Nuke 0.7,
    /// Kingfisher and SDWebImage 0.5); 1 evicts just enough.
    public var diskTrimRatio = 1.0
    /// The share of the memory cache kept when the app is backgrounded (Nuke 0.1, purge 0).
    public var backgroundKeeps = 0.0
    /// Seed 000's release-after-view: drop an image from the memory cache when its cell
    /// scrolls off.
    public var releaseViewed = false
    /// The `policy` column; the memory policy's spec unless a preset names it.
    public var label: String?

    /// Whether a memory warning clears the memory cache (every library does; seed 002's
    /// dictionary cache has no observer).
    public var respondsToMemoryWarnings: Bool { memoryPolicy.name != .unbounded }

    public init(memoryPolicy: PolicySpec, memoryLimits: CacheLimits, diskPolicy: PolicySpec = PolicySpec(.lru),
                diskLimits: CacheLimits, downsample: Bool = true, prefetchConcurrency: Int = 2,
                prefetchDestination: PrefetchDestination = .memoryAndDisk) {
        self.memoryPolicy = memoryPolicy
        self.memoryLimits = memoryLimits
        self.diskPolicy = diskPolicy
        self.diskLimits = diskLimits
        self.downsample = downsample
        self.prefetchConcurrency = prefetchConcurrency
        self.prefetchDestination = prefetchDestination
    }
}

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

/// The events the pipeline schedules on the simulator's queue. Each carries the serial number
/// of the task it belongs to, so an event for a cancelled task is recognised and dropped.
public enum PipelineEvent: Sendable {
    case responseStarted(url: UInt64, serial: Int)
    case attemptLost(url: UInt64, serial: Int)
    case retry(url: UInt64, serial: Int)
    case linkCheck(generation: Int)
    case diskReadDone(url: UInt64, serial: Int)
    case decodeDone(url: UInt64, serial: Int)
}

/// Seed 001's two-tier image pipeline: memory cache → disk cache → network, with coalesced
/// downloads, two priorities, a shared connection pool (6 per host) with its own limit for
/// prefetches, cancellation only when the last requester leaves, and disk-read and decode
/// delays from the device profile.
///
/// Each URL has at most one task. A task is held by a waiting display (the cell on screen)
/// and/or the prefetcher; it is cancelled when neither holds it any more — as in Nuke,
/// Kingfisher and SDWebImage. The pipeline is driven by its owner: calls return at once and
/// schedule `PipelineEvent`s, and images that become ready for a waiting display are reported
/// through `takeReady()`.
struct ImagePipeline {
    enum Phase {
        case queued, requesting, transferring, readingDisk, decoding
    }

    struct Task {
        var serial: Int
        var image: ImageDescriptor
        var phase: Phase
        var displayWaiting: Bool
        var prefetchHeld: Bool
        var highPriority: Bool
        /// Counted against the prefetch concurrency limit while on the network.
        var holdsPrefetchSlot = false
        var attempt = 0
        /// Whether an attempt has left the device (counted once in `imageRequests`).
        var sent = false
        /// Started by the prefetcher (for wasted-prefetch accounting).
        let startedByPrefetch: Bool
    }

    let configuration: PipelineConfiguration
    let profile: DeviceProfile
    let network: NetworkProfile
    var memoryCache: any EvictionPolicy
    var diskCache: any EvictionPolicy
    var link: NetworkLink
    var generator: SeededGenerator
    /// Tasks by URL: looked up, never iterated for output.
    var tasks: [UInt64: Task] = [:]
    var highQueue = Deque<UInt64>()
    var lowQueue = Deque<UInt64>()
    var connectionsInUse = 0
    var prefetchSlotsInUse = 0
    var nextSerial = 0
    var ready: [UInt64] = []
    var failed: [UInt64] = []
    /// Absolute times when the network is down (set by the owner at each launch).
    var offline: [Range<Int64>] = []

    func isOffline(at time: Int64) -> Bool { offline.contains { $0.contains(time) } }

    // Counters for the results row.
    var imageRequests = 0
    var cancelledRequests = 0
    var bytesDownloaded: Int64 = 0
    /// URLs downloaded by tasks the prefetcher started.
    var prefetchDownloads = Set<UInt64>()

    init(configuration: PipelineConfiguration, profile: DeviceProfile, network: NetworkProfile, seed: UInt64) throws {
        self.configuration = configuration
        self.profile = profile
        self.network = network
        // Policy ages are in seconds; the simulator's clock counts nanoseconds.
        memoryCache = try configuration.memoryPolicy.makePolicy(limits: configuration.memoryLimits, ageScale: 1_000_000_000, source: "--policy")
        // A disk cache that trims to a ratio is allowed over its limit for one insertion, then trimmed.
        let diskLimits = configuration.diskTrimRatio < 1 ? CacheLimits.unbounded : configuration.diskLimits
        diskCache = try configuration.diskPolicy.makePolicy(limits: diskLimits, ageScale: 1_000_000_000, source: "--disk-policy")
        link = NetworkLink(network: network)
        generator = SeededGenerator(seed: seed, stream: 0x6e65_7477_6f72_6b)
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
    mutating func requestDisplay(_ image: ImageDescriptor, at now: Int64, queue: inout EventQueue<SimulationEvent>) -> DisplayOutcome {
        if memoryCache.lookup(request(image, time: now, forMemory: true)) { return .memoryHit }
        if var task = tasks[image.url] {
            task.displayWaiting = true
            if !task.highPriority {
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
    mutating func cancelDisplay(_ url: UInt64, at now: Int64, queue: inout EventQueue<SimulationEvent>) {
        guard var task = tasks[url] else { return }
        task.displayWaiting = false
        tasks[url] = task
        if !task.prefetchHeld && configuration.cancelsOnDisappear { cancel(url, at: now, queue: &queue) }
    }

    /// The prefetcher wants `image` ready ahead of display.
    mutating func startPrefetch(_ image: ImageDescriptor, at now: Int64, queue: inout EventQueue<SimulationEvent>) {
        if var task = tasks[image.url] {
            task.prefetchHeld = true
            tasks[image.url] = task
            return
        }
        if memoryCache.contains(image.url) { return }
        if diskCache.contains(image.url) {
            if configuration.prefetchDestination == .memoryAndDisk {
                startDiskRead(image, display: false, at: now, queue: &queue)
            }
            return
        }
        startDownload(image, display: false, at: now, queue: &queue)
    }

    /// The prefetcher no longer wants `url` (it left the window).
    mutating func stopPrefetch(_ url: UInt64, at now: Int64, queue: inout EventQueue<SimulationEvent>) {
        guard var task = tasks[url] else { return }
        task.prefetchHeld = false
        tasks[url] = task
        if !task.displayWaiting { cancel(url, at: now, queue: &queue) }
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
        for url in link.transfers.map(\.url) { link.cancel(url, at: now) }
        tasks.removeAll()
        highQueue.removeAll()
        lowQueue.removeAll()
        connectionsInUse = 0
        prefetchSlotsInUse = 0
        ready.removeAll()
        failed.removeAll()
    }

    /// Bytes of downloads under way (app memory).
    var bytesInFlight: Int64 { link.bytesReceived }

    // MARK: Task life cycle

    mutating func newTask(_ image: ImageDescriptor, display: Bool, phase: Phase) -> Task {
        nextSerial += 1
        return Task(serial: nextSerial, image: image, phase: phase, displayWaiting: display, prefetchHeld: !display,
                    highPriority: display, startedByPrefetch: !display)
    }

    mutating func startDiskRead(_ image: ImageDescriptor, display: Bool, at now: Int64, queue: inout EventQueue<SimulationEvent>) {
        let task = newTask(image, display: display, phase: .readingDisk)
        tasks[image.url] = task
        let readTime = profile.diskReadLatency + image.encodedBytes * 1_000_000_000 / profile.diskReadBytesPerSecond
        queue.schedule(.pipeline(.diskReadDone(url: image.url, serial: task.serial)), after: readTime)
    }

    mutating func startDownload(_ image: ImageDescriptor, display: Bool, at now: Int64, queue: inout EventQueue<SimulationEvent>) {
        tasks[image.url] = newTask(image, display: display, phase: .queued)
        if display || !configuration.prefetchLowPriority { highQueue.append(image.url) } else { lowQueue.append(image.url) }
        dispatchQueued(at: now, queue: &queue)
    }

    /// Gives free connections to queued tasks: high priority first, prefetches only within
    /// their own limit (a normal-priority prefetch waits in the high queue for a slot).
    mutating func dispatchQueued(at now: Int64, queue: inout EventQueue<SimulationEvent>) {
        while connectionsInUse < network.connectionsPerHost {
            let url: UInt64
            var prefetchSlot = false
            let slotFree = prefetchSlotsInUse < configuration.prefetchConcurrency
            if let index = highQueue.firstIndex(where: { slotFree || tasks[$0]?.displayWaiting != false }) {
                url = highQueue.remove(at: index)
                prefetchSlot = tasks[url]?.displayWaiting == false
            } else if slotFree, let next = lowQueue.popFirst() {
                url = next
                prefetchSlot = true
            } else {
                return
            }
            guard var task = tasks[url] else { continue }
            connectionsInUse += 1
            if prefetchSlot { prefetchSlotsInUse += 1 }
            task.holdsPrefetchSlot = prefetchSlot
            task.phase = .requesting
            tasks[url] = task
            sendAttempt(url, at: now, queue: &queue)
        }
    }

    /// One attempt: a round trip to the first byte, or a loss noticed after the retry timeout.
    mutating func sendAttempt(_ url: UInt64, at now: Int64, queue: inout EventQueue<SimulationEvent>) {
        guard var task = tasks[url] else { return }
        if !isOffline(at: now), !task.sent {
            task.sent = true
            tasks[url] = task
            imageRequests += 1
        }
        if isOffline(at: now) {
            // No connection: the attempt fails at once and is retried after the timeout.
            queue.schedule(.pipeline(.attemptLost(url: url, serial: task.serial)), after: 0)
        } else if network.loss > 0, generator.chance(network.loss) {
            queue.schedule(.pipeline(.attemptLost(url: url, serial: task.serial)), after: network.retryTimeout)
        } else {
            let roundTrip = generator.next(in: network.oneWayDelay) + generator.next(in: network.oneWayDelay)
            queue.schedule(.pipeline(.responseStarted(url: url, serial: task.serial)), after: roundTrip)
        }
    }

    /// Frees the network resources a task holds.
    mutating func releaseConnection(_ task: Task) {
        connectionsInUse -= 1
        if task.holdsPrefetchSlot { prefetchSlotsInUse -= 1 }
    }

    mutating func cancel(_ url: UInt64, at now: Int64, queue: inout EventQueue<SimulationEvent>) {
        guard let task = tasks[url] else { return }
        switch task.phase {
        case .queued:
            if let i = highQueue.firstIndex(of: url) { highQueue.remove(at: i) }
            if let i = lowQueue.firstIndex(of: url) { lowQueue.remove(at: i) }
            tasks[url] = nil
        case .requesting, .transferring:
            if task.phase == .transferring { link.cancel(url, at: now); scheduleLinkCheck(queue: &queue) }
            releaseConnection(task)
            tasks[url] = nil
            if task.sent { cancelledRequests += 1 }
            dispatchQueued(at: now, queue: &queue)
        case .readingDisk, .decoding:
            break // local work finishes and lands in the caches
        }
    }

    mutating func scheduleLinkCheck(queue: inout EventQueue<SimulationEvent>) {
        if let finish = link.nextFinish() {
            queue.schedule(.pipeline(.linkCheck(generation: link.generation)), at: max(finish, queue.now))
        }
    }

    /// Handles one of the pipeline's own events.
    mutating func handle(_ event: PipelineEvent, at now: Int64, queue: inout EventQueue<SimulationEvent>) {
        switch event {
        case let .responseStarted(url, serial):
            guard var task = tasks[url], task.serial == serial, task.phase == .requesting else { return }
            task.phase = .transferring
            tasks[url] = task
            link.start(url, bytes: task.image.encodedBytes, at: now)
            scheduleLinkCheck(queue: &queue)
        case let .attemptLost(url, serial):
            guard var task = tasks[url], task.serial == serial, task.phase == .requesting else { return }
            task.attempt += 1
            tasks[url] = task
            if task.attempt <= network.maxRetries {
                let retryAt = now + (isOffline(at: now) ? network.retryTimeout : 0)
                queue.schedule(.pipeline(.retry(url: url, serial: serial)), at: retryAt)
            } else {
                releaseConnection(task)
                tasks[url] = nil
                if task.displayWaiting { failed.append(url) }
                dispatchQueued(at: now, queue: &queue)
            }
        case let .retry(url, serial):
            guard let task = tasks[url], task.serial == serial, task.phase == .requesting else { return }
            sendAttempt(url, at: now, queue: &queue)
        case let .linkCheck(generation):
            guard generation == link.generation else { return }
            for url in link.takeFinished(at: now) { finishDownload(url, at: now, queue: &queue) }
            scheduleLinkCheck(queue: &queue)
            dispatchQueued(at: now, queue: &queue)
        case let .diskReadDone(url, serial):
            guard let task = tasks[url], task.serial == serial else { return }
            startDecode(task, at: now, queue: &queue)
        case let .decodeDone(url, serial):
            guard let task = tasks[url], task.serial == serial else { return }
            tasks[url] = nil
            storeInMemory(task.image, at: now)
            if task.displayWaiting { ready.append(url) }
        }
    }

    mutating func finishDownload(_ url: UInt64, at now: Int64, queue: inout EventQueue<SimulationEvent>) {
        guard let task = tasks[url] else { return }
        releaseConnection(task)
        bytesDownloaded += task.image.encodedBytes
        if task.startedByPrefetch { prefetchDownloads.insert(url) }
        storeOnDisk(task.image, at: now)
        if task.displayWaiting || configuration.prefetchDestination == .memoryAndDisk {
            startDecode(task, at: now, queue: &queue)
        } else {
            tasks[url] = nil
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

    /// Writes downloaded data to the disk cache, trimming it to its ratio when it went over.
    mutating func storeOnDisk(_ image: ImageDescriptor, at now: Int64) {
        if diskCache.contains(image.url) { return }
        diskCache.insert(request(image, time: now, forMemory: false))
        if configuration.diskTrimRatio < 1, let limit = configuration.diskLimits.maxBytes, diskCache.occupancy.bytes > limit {
            diskCache.trim(toFraction: configuration.diskTrimRatio * Double(limit) / Double(diskCache.occupancy.bytes))
        }
    }

    mutating func startDecode(_ task: Task, at now: Int64, queue: inout EventQueue<SimulationEvent>) {
        var task = task
        task.phase = .decoding
        tasks[task.image.url] = task
        let sourceBytes = Int64(task.image.pixelWidth) * Int64(task.image.pixelHeight) * 4
        let decodeTime = sourceBytes * 1_000_000_000 / profile.decodeBytesPerSecond
        queue.schedule(.pipeline(.decodeDone(url: task.image.url, serial: task.serial)), after: decodeTime)
    }
}
