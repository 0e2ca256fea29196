import HeapModule

/// The simulator's clock and agenda: events ordered by (time, insertion sequence), so events
/// at the same instant run in the order they were scheduled, and a run is the same sequence of
/// steps every time. Time is integer virtual nanoseconds; nothing reads the wall clock.
///
/// Modelled on swift-nio's `EmbeddedEventLoop`: time moves only when the next event is taken.
public struct EventQueue<Event> {
    struct Entry: Comparable {
        var time: Int64
        var sequence: UInt64
        var event: Event

        static func < (a: Entry, b: Entry) -> Bool { (a.time, a.sequence) < (b.time, b.sequence) }
        static func == (a: Entry, b: Entry) -> Bool { a.time == b.time && a.sequence == b.sequence }
    }

    var heap = Heap<Entry>()
    var nextSequence: UInt64 = 0
    /// The current virtual time: the time of the event last taken.
    public private(set) var now: Int64

    public init(startingAt time: Int64 = 0) { now = time }

    /// The number of pending events.
    public var count: Int { heap.count }

    /// The time of the earliest pending event, if any. O(1).
    public var nextTime: Int64? { heap.min?.time }

    /// Schedules `event` at `time`, which must not be in the past. O(log n).
    public mutating func schedule(_ event: Event, at time: Int64) {
        precondition(time >= now, "EventQueue: an event cannot be scheduled in the past")
        heap.insert(Entry(time: time, sequence: nextSequence, event: event))
        nextSequence += 1
    }

    /// Schedules `event` `delay` nanoseconds from now. O(log n).
    public mutating func schedule(_ event: Event, after delay: Int64) {
        precondition(delay >= 0, "EventQueue: negative delay")
        schedule(event, at: now + delay)
    }

    /// Takes the earliest event and moves the clock to its time. O(log n).
    public mutating func next() -> (time: Int64, event: Event)? {
        guard let entry = heap.popMin() else { return nil }
        now = entry.time
        return (entry.time, entry.event)
    }

    /// Drops every pending event (the app was killed); the clock stays. O(n).
    public mutating func removeAll() { heap = Heap() }

    /// Moves the clock forward to `time` with no event (a gap between launches). O(1).
    public mutating func advance(to time: Int64) {
        precondition(time >= now, "EventQueue: time cannot go backwards")
        now = time
    }
}
