/// When a link's queued bytes leave it, in wire bytes and nanoseconds: a fixed rate, or a
/// recorded one (`DeliveryTrace`), whose opportunities each serve 1,500 bytes of what is queued
/// at that instant — an opportunity with nothing queued is lost, and bytes that arrive in a
/// silence wait for the next one (Mahimahi's `mm-link`). Times are the run's; a recording is
/// read from `offset` on (the point of the recording the run starts at).
enum ServiceSchedule: Sendable {
    /// Wire bytes served a nanosecond.
    case fixed(wirePerNanosecond: Double)
    /// The recording, read from `offset` nanoseconds into it.
    case recorded(DeliveryTrace, offset: Int64)

    init(bitsPerSecond: Int64) {
        self = .fixed(wirePerNanosecond: Double(bitsPerSecond) / 8e9)
    }

    /// The link's rate as the congestion rules that need one rate read it: a fixed link's, or
    /// a recording's mean over its period. O(1).
    var wirePerNanosecond: Double {
        switch self {
        case let .fixed(rate): rate
        case let .recorded(trace, _): Double(trace.count) * DeliveryTrace.opportunityWire / Double(trace.period)
        }
    }

    /// The wire bytes the link serves after `start` up to `end` (none when `end` is not later).
    /// O(1) (O(log n) on a recording longer than an hour).
    func capacity(from start: Int64, to end: Int64) -> Double {
        switch self {
        case let .fixed(rate):
            return rate * Double(max(0, end - start))
        case let .recorded(trace, offset):
            guard end > start else { return 0 }
            return DeliveryTrace.opportunityWire * Double(trace.opportunities(through: end + offset) - trace.opportunities(through: start + offset))
        }
    }

    /// When `wire` bytes whose service starts at `start` will have left: rounded up to the
    /// nanosecond on a fixed link, the opportunity that serves their last byte on a recorded
    /// one. O(1) (O(log n) on a recording longer than an hour).
    func departure(of wire: Double, from start: Int64) -> Int64 {
        switch self {
        case let .fixed(rate):
            return start + Int64((wire / rate).rounded(.up))
        case let .recorded(trace, offset):
            guard wire > 0 else { return start }
            let needed = max(1, Int64((wire / DeliveryTrace.opportunityWire - Self.slack).rounded(.up)))
            return trace.time(ofOpportunity: trace.opportunities(through: start + offset) + needed) - offset
        }
    }

    /// How long a byte arriving at `start` waits behind `wire` bytes queued before it: rounded
    /// down to the nanosecond on a fixed link; until the opportunity that serves it on a recorded
    /// one (in a silence, a byte waits with nothing before it). O(1) (O(log n) on a recording
    /// longer than an hour).
    func wait(behind wire: Double, from start: Int64) -> Int64 {
        switch self {
        case let .fixed(rate):
            return Int64(wire / rate)
        case let .recorded(trace, offset):
            let ahead = Int64((wire / DeliveryTrace.opportunityWire + Self.slack).rounded(.down))
            return trace.time(ofOpportunity: trace.opportunities(through: start + offset) + ahead + 1) - offset - start
        }
    }

    /// What is left of a chunk that counts as nothing: none on a fixed link (a byte left takes
    /// its nanosecond); on a recorded one the part of an opportunity `slack` forgives, which no
    /// opportunity would otherwise be spent on.
    var residue: Double {
        switch self {
        case .fixed: 0
        case .recorded: Self.slack * DeliveryTrace.opportunityWire
        }
    }

    /// How far a byte count may miss a whole number of opportunities and still count as it: the
    /// wire bytes are sums of fractions of segments.
    static let slack = 1e-9
}
