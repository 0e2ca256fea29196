import DequeModule

/// Each URL's one task, whatever it is doing, and the download queues in front of the shared
/// connection pool: queued tasks get a connection high priority first, in arrival order within
/// a priority, and never more than `connectionLimit` hold one at once. A display joining a
/// low-priority task raises it when the pipeline is set to (Nuke), moving a queued one to the
/// high queue.
///
/// Invariant: a task is in a download queue exactly when its phase is `.queued`, and then in
/// its priority's queue. Tasks are looked up by URL, never iterated, so their order cannot
/// reach an output. Serial numbers keep counting across `removeAll()`.
///
/// A task is updated by copying it out and storing it back: `tasks[url]?.field = value` goes
/// through the dictionary's modify coroutine, whose frame is a heap allocation per update.
struct TaskTable {
    enum Phase {
        case rateLimited, queued, downloading, readingDisk, waitingToDecode, decoding
    }

    struct Task {
        /// Tells this task's events from those of an earlier task for the same URL.
        let serial: Int
        let image: ImageDescriptor
        fileprivate(set) var phase: Phase
        fileprivate(set) var displayWaiting: Bool
        /// The prefetcher batch holding the task; `nil` when no prefetcher does.
        fileprivate(set) var prefetchBatch: Int?
        fileprivate(set) var highPriority: Bool
        /// Whether an attempt has left the device (counted once in the image requests).
        fileprivate(set) var sent = false
        /// When the first attempt left the device, and the connection it holds (1…), for the
        /// request log.
        fileprivate(set) var sentAt: Int64 = 0
        fileprivate(set) var connection = 0
        /// Started by the prefetcher (for wasted-prefetch accounting).
        let startedByPrefetch: Bool

        var prefetchHeld: Bool { prefetchBatch != nil }
    }

    let connectionLimit: Int
    let raisesPriorityOnJoin: Bool
    /// Whether prefetches queue behind displays or with them.
    let prefetchLowPriority: Bool
    private var tasks: [UInt64: Task] = [:]
    private var lastSerial = 0
    private(set) var highQueue = Deque<UInt64>()
    private(set) var lowQueue = Deque<UInt64>()
    private(set) var connectionsInUse = 0

    init(connectionLimit: Int, raisesPriorityOnJoin: Bool, prefetchLowPriority: Bool) {
        self.connectionLimit = connectionLimit
        self.raisesPriorityOnJoin = raisesPriorityOnJoin
        self.prefetchLowPriority = prefetchLowPriority
    }

    /// `url`'s task, if it has one. O(1).
    subscript(url: UInt64) -> Task? { tasks[url] }

    /// A new task for `image`, wanted by a display or by prefetcher batch `prefetchBatch`,
    /// starting in `phase`; a `.queued` one joins its priority's queue. Returns its serial. O(1).
    @discardableResult
    mutating func insert(_ image: ImageDescriptor, display: Bool, prefetchBatch: Int?, phase: Phase) -> Int {
        lastSerial += 1
        let task = Task(serial: lastSerial, image: image, phase: phase, displayWaiting: display, prefetchBatch: prefetchBatch,
                        highPriority: display || !prefetchLowPriority, startedByPrefetch: !display)
        tasks[image.url] = task
        if phase == .queued { joinQueue(task) }
        return task.serial
    }

    /// `url`'s task, waiting for the rate limiter, may download: it joins its priority's queue. O(1).
    mutating func enqueue(_ url: UInt64) {
        guard var task = tasks[url] else { return }
        task.phase = .queued
        tasks[url] = task
        joinQueue(task)
    }

    private mutating func joinQueue(_ task: Task) {
        if task.highPriority { highQueue.append(task.image.url) } else { lowQueue.append(task.image.url) }
    }

    /// A display now waits for `url`'s task, if it has one: returns the task's phase and whether
    /// the join raised its priority. O(queued) when it raises a queued task, else O(1).
    mutating func joinDisplay(_ url: UInt64) -> (phase: Phase, raised: Bool)? {
        guard var task = tasks[url] else { return nil }
        task.displayWaiting = true
        let raises = !task.highPriority && raisesPriorityOnJoin
        if raises {
            task.highPriority = true
            if task.phase == .queued, Self.remove(url, from: &lowQueue) { highQueue.append(url) }
        }
        tasks[url] = task
        return (task.phase, raises)
    }

    /// The display waiting for `url`'s task left; returns the task, if it has one. O(1).
    mutating func leaveDisplay(_ url: UInt64) -> Task? {
        guard var task = tasks[url] else { return nil }
        task.displayWaiting = false
        tasks[url] = task
        return task
    }

    /// Prefetcher batch `batch` now holds `url`'s task, or (`nil`) no batch does. O(1).
    mutating func setPrefetchBatch(_ batch: Int?, of url: UInt64) {
        guard var task = tasks[url] else { return }
        task.prefetchBatch = batch
        tasks[url] = task
    }

    /// Gives a free connection to the next queued task, high priority first, and returns it,
    /// now downloading; `nil` when every connection is in use or nothing is queued. O(1).
    mutating func nextDownload() -> Task? {
        while connectionsInUse < connectionLimit {
            guard let url = highQueue.popFirst() ?? lowQueue.popFirst() else { return nil }
            guard var task = tasks[url] else { continue }
            connectionsInUse += 1
            task.phase = .downloading
            tasks[url] = task
            return task
        }
        return nil
    }

    /// `url`'s download holds request-log connection `connection`. O(1).
    mutating func setConnection(_ connection: Int, of url: UInt64) {
        guard var task = tasks[url] else { return }
        task.connection = connection
        tasks[url] = task
    }

    /// An attempt of `url`'s download left the device at `now`; returns whether it is the
    /// first (a new request). O(1).
    mutating func markSent(_ url: UInt64, at now: Int64) -> Bool {
        guard var task = tasks[url], !task.sent else { return false }
        task.sent = true
        task.sentAt = now
        tasks[url] = task
        return true
    }

    /// `url`'s download turned out never to have left the device; returns whether it had
    /// counted as sent. O(1).
    mutating func markUnsent(_ url: UInt64) -> Bool {
        guard var task = tasks[url], task.sent else { return false }
        task.sent = false
        tasks[url] = task
        return true
    }

    /// A download ended (finished, cancelled or given up): its connection is free.
    mutating func releaseConnection() {
        connectionsInUse -= 1
    }

    /// `url`'s data is there: its task decodes now, or waits for a decode slot. O(1).
    mutating func markDecoding(_ url: UInt64, waiting: Bool) {
        guard var task = tasks[url] else { return }
        task.phase = waiting ? .waitingToDecode : .decoding
        tasks[url] = task
    }

    /// Forgets `url`'s task, taking a queued one off its queue. O(queued) for a queued task,
    /// else O(1).
    mutating func remove(_ url: UInt64) {
        guard let task = tasks.removeValue(forKey: url), task.phase == .queued else { return }
        if task.highPriority { Self.remove(url, from: &highQueue) } else { Self.remove(url, from: &lowQueue) }
    }

    /// Forgets every task and frees every connection (the app was killed or relaunched).
    mutating func removeAll() {
        tasks.removeAll()
        highQueue.removeAll()
        lowQueue.removeAll()
        connectionsInUse = 0
    }

    /// Takes `url` off `queue`; returns whether it was there. O(queue).
    @discardableResult
    private static func remove(_ url: UInt64, from queue: inout Deque<UInt64>) -> Bool {
        guard let index = queue.firstIndex(of: url) else { return false }
        queue.remove(at: index)
        return true
    }
}
