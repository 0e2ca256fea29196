/// The clock seam: what a run's app model reads the time from and schedules its events on, and
/// what hands it those events back one by one, earliest first.
///
/// Modelled on swift-nio's split between `EmbeddedEventLoop` and a real event loop. `EventQueue`
/// is the embedded one: virtual time that moves only when the next event is taken, so a run is a
/// pure function of its configuration. A wall clock is the real one: `now` reads the time since
/// the run started, `next()` waits until the earliest event is due, and work that finishes on
/// other threads (an HTTP response) is handed to the clock by its driver as an event scheduled
/// at its arrival time, so the app model sees every happening the same way in both.
///
/// Times are nanoseconds from the clock's origin. Events scheduled for the same instant are
/// taken in the order they were scheduled.
public protocol RunClock<Event> {
    /// What is scheduled: for a run, `SimulationEvent`.
    associatedtype Event

    /// The current time: the time of the event last taken, or last moved to by `advance(to:)`.
    var now: Int64 { get }

    /// Schedules `event` at `time`, which must not be before `now`.
    mutating func schedule(_ event: Event, at time: Int64)

    /// Schedules `event` `delay` (≥ 0) nanoseconds from `now`.
    mutating func schedule(_ event: Event, after delay: Int64)

    /// Takes the earliest pending event, once it is due, and moves `now` to its time; `nil` when
    /// nothing is pending.
    mutating func next() -> (time: Int64, event: Event)?

    /// Drops every pending event (the app was killed or went to the background); `now` stays.
    mutating func removeAll()

    /// Moves `now` forward to `time` with no event (the gap between two launches).
    mutating func advance(to time: Int64)
}

extension EventQueue: RunClock {}
