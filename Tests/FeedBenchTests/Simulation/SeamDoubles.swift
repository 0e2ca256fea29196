@testable import FeedBench

/// A virtual clock that records what the app asks of it: every event scheduled (when, and for
/// when), every event taken, and every jump of time without an event.
struct RecordingClock: RunClock {
    var queue = EventQueue<SimulationEvent>()
    /// (the clock's time when scheduled, the time scheduled for), in order.
    private(set) var scheduled: [(at: Int64, for: Int64)] = []
    /// The times of the events taken, in order.
    private(set) var taken: [Int64] = []
    /// The times moved to by `advance(to:)`.
    private(set) var advances: [Int64] = []
    private(set) var removals = 0

    var now: Int64 { queue.now }

    mutating func schedule(_ event: SimulationEvent, at time: Int64) {
        scheduled.append((now, time))
        queue.schedule(event, at: time)
    }

    mutating func schedule(_ event: SimulationEvent, after delay: Int64) { schedule(event, at: now + delay) }

    mutating func next() -> (time: Int64, event: SimulationEvent)? {
        guard let next = queue.next() else { return nil }
        taken.append(next.time)
        return next
    }

    mutating func removeAll() {
        removals += 1
        queue.removeAll()
    }

    mutating func advance(to time: Int64) {
        advances.append(time)
        queue.advance(to: time)
    }
}

/// An image transport whose every download is answered, whole, `answerAfter` after it starts
/// (`nil`: never), and whose requests leave the device only if `leavesDevice`.
struct ScriptedImageTransport: ImageTransport {
    var answerAfter: Int64?
    var leavesDevice = true
    private(set) var started: [UInt64] = []
    private(set) var cancelled: [UInt64] = []
    private(set) var answered: [UInt64] = []
    /// The serial of each download under way, by URL.
    private var underWay: [UInt64: Int] = [:]

    init(answerAfter: Int64?, leavesDevice: Bool = true) {
        self.answerAfter = answerAfter
        self.leavesDevice = leavesDevice
    }

    mutating func start<Clock: RunClock<SimulationEvent>>(_ image: ImageDescriptor, serial: Int, highPriority: Bool, at now: Int64, clock: inout Clock) -> Bool {
        started.append(image.url)
        underWay[image.url] = serial
        if let answerAfter { clock.schedule(.pipeline(.transport(.responseStarted(url: image.url, serial: serial))), after: answerAfter) }
        return leavesDevice
    }

    mutating func cancel<Clock: RunClock<SimulationEvent>>(_ url: UInt64, at now: Int64, clock: inout Clock) -> Int64 {
        cancelled.append(url)
        underWay[url] = nil
        return 0
    }

    mutating func cancelAll(at now: Int64) { underWay.removeAll() }

    mutating func handle<Clock: RunClock<SimulationEvent>>(_ event: TransportEvent, at now: Int64, clock: inout Clock) -> TransferNews {
        guard case let .responseStarted(url, serial) = event, underWay[url] == serial else { return .nothing }
        underWay[url] = nil
        answered.append(url)
        return .finished([url])
    }

    mutating func resume<Clock: RunClock<SimulationEvent>>(at now: Int64, clock: inout Clock) {}
    mutating func startLaunch(_ index: Int, at start: Int64) {}
    var bytesReceived: Int64 { 0 }
}

/// A feed API transport that answers the n-th call with the n-th page of its script after
/// `answerAfter`, and never answers a call past the script.
struct ScriptedFeedTransport: FeedTransport {
    var pages: [[ImageDescriptor]]
    var answerAfter: Int64
    var reachesServer = true
    /// The times of the calls made.
    private(set) var calls: [Int64] = []
    private var answer: FeedAPIResponse.Outcome?

    init(pages: [[ImageDescriptor]], answerAfter: Int64, reachesServer: Bool = true) {
        self.pages = pages
        self.answerAfter = answerAfter
        self.reachesServer = reachesServer
    }

    /// `count` pages of 10 distinct images, 1000 px square, 200 KB each.
    static func pages(_ count: Int) -> [[ImageDescriptor]] {
        (0..<count).map { page in
            (0..<10).map { ImageDescriptor(url: UInt64(1_000 * (page + 1) + $0), pixelWidth: 1000, pixelHeight: 1000, encodedBytes: 200_000) }
        }
    }

    mutating func requestPage<Clock: RunClock<SimulationEvent>>(launch: Int, at now: Int64, clock: inout Clock) -> Bool {
        calls.append(now)
        if calls.count <= pages.count {
            answer = .page(pages[calls.count - 1])
            clock.schedule(.apiResponse(launch: launch), after: answerAfter)
        }
        return reachesServer
    }

    mutating func takeAnswer() -> (outcome: FeedAPIResponse.Outcome, reachedServer: Bool)? {
        defer { answer = nil }
        return answer.map { ($0, reachesServer) }
    }

    mutating func startLaunch(_ index: Int, at start: Int64) { answer = nil }
}
