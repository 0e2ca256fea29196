import Dispatch

/// The real event loop of the clock seam (`RunClock`), as `EventQueue` is the embedded one: time
/// is the monotonic wall clock since the run started, `next()` blocks until the earliest event is
/// due or something arrives from another thread through `inbox` (an HTTP response), and events
/// are taken in the order of their times whichever way they came.
///
/// `now` is, as for every `RunClock`, the time of the event last taken: an event is taken once the
/// wall clock has reached its time, so `now` trails the wall clock by the driver's own delay,
/// which `framesLate` reports. Arrivals are scheduled at the wall time they were posted (or at
/// `now`, if the driver has already taken a later event).
public struct WallClock: RunClock {
    public typealias Event = SimulationEvent

    var queue = EventQueue<SimulationEvent>()
    /// Where other threads hand in what happened, stamped with the wall time it happened.
    public let inbox = EventInbox()
    /// How late a frame may be handled before it counts as late: one frame interval.
    let frameInterval: Int64
    /// Frames handled more than one frame interval after they were due.
    public private(set) var framesLate = 0

    /// A clock starting now, for a device that draws a frame every `frameInterval` ns.
    public init(frameInterval: Int64) {
        self.frameInterval = frameInterval
    }

    /// Starts the run's time again from zero, now: called once the run is set up and before its
    /// first request, so the wall time spent opening its SQLite store and making its client does
    /// not delay the first API call (which a simulation sends at zero) and does not move its
    /// frames against the server's answers. O(1).
    public mutating func start() { inbox.restart() }

    public var now: Int64 { queue.now }

    public mutating func schedule(_ event: SimulationEvent, at time: Int64) { queue.schedule(event, at: time) }

    public mutating func schedule(_ event: SimulationEvent, after delay: Int64) { queue.schedule(event, after: delay) }

    /// Takes the earliest event once the wall clock reaches its time, waiting for it or for an
    /// arrival meanwhile; `nil` when nothing is pending and no arrival is expected.
    public mutating func next() -> (time: Int64, event: SimulationEvent)? {
        while true {
            for (time, event) in inbox.take() { queue.schedule(event, at: max(time, queue.now)) }
            if let due = queue.nextTime {
                let elapsed = inbox.elapsed
                if due <= elapsed {
                    let taken = queue.next()!
                    if case .frame = taken.event, elapsed - due > frameInterval { framesLate += 1 }
                    return taken
                }
                inbox.wait(until: due)
            } else if inbox.expecting {
                inbox.wait(until: nil)
            } else {
                return nil
            }
        }
    }

    /// Drops the pending events; arrivals still expected come in and are judged stale by their
    /// launch and serial, as after `EventQueue.removeAll()`.
    public mutating func removeAll() { queue.removeAll() }

    /// Moves `now` to `time`, waiting until the wall clock gets there. (Live runs are one launch:
    /// this is the run's start, never a gap of hours.)
    public mutating func advance(to time: Int64) {
        while inbox.elapsed < time { inbox.wait(until: time) }
        queue.advance(to: time)
    }
}

/// What other threads hand the wall clock: events stamped with the wall time they arrived, and
/// how many more are expected (requests under way), so an empty agenda is not mistaken for the
/// end while a response is on its way. Thread-safe.
public final class EventInbox: Sendable {
    struct State {
        var arrivals: [(time: Int64, event: SimulationEvent)] = []
        var expected = 0
    }

    /// The monotonic clock's reading at the run's time zero.
    let origin = Locked(DispatchTime.now().uptimeNanoseconds)
    let state = Locked(State())
    /// Signalled on every arrival; the clock's waits end at their deadline or at the next signal.
    let arrived = DispatchSemaphore(value: 0)

    /// Nanoseconds of the monotonic clock since the run's time zero: when the inbox was made, or
    /// since `WallClock.start()`.
    public var elapsed: Int64 {
        let origin = origin.withLock { $0 }
        return Int64(bitPattern: DispatchTime.now().uptimeNanoseconds &- origin)
    }

    /// Time zero is now (`WallClock.start()`).
    func restart() { origin.withLock { $0 = DispatchTime.now().uptimeNanoseconds } }

    /// One more arrival is on its way: it comes through `post(_:)` or `forgo()`.
    public func expect() { state.withLock { $0.expected += 1 } }

    /// An expected arrival: `event` happened now. Any thread.
    public func post(_ event: SimulationEvent) {
        let time = elapsed
        state.withLock { state in
            state.arrivals.append((time, event))
            state.expected -= 1
        }
        arrived.signal()
    }

    /// An expected arrival came to nothing the run acts on (a cancelled request). Any thread.
    public func forgo() {
        state.withLock { $0.expected -= 1 }
        arrived.signal()
    }

    /// The arrivals since the last call, in the order they were posted.
    func take() -> [(time: Int64, event: SimulationEvent)] {
        state.withLock { state in
            var taken: [(time: Int64, event: SimulationEvent)] = []
            swap(&taken, &state.arrivals)
            return taken
        }
    }

    /// Whether an arrival is still on its way.
    var expecting: Bool { state.withLock { $0.expected > 0 || !$0.arrivals.isEmpty } }

    /// Waits until the clock reads `time` (for ever with `nil`) or something arrives.
    func wait(until time: Int64?) {
        guard let time else { return arrived.wait() }
        _ = arrived.wait(timeout: DispatchTime(uptimeNanoseconds: origin.withLock { $0 } + UInt64(max(0, time))))
    }
}
