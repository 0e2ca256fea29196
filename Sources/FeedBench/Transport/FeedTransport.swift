/// The feed transport seam: how the app's calls to the feed API travel. The app decides when to
/// call and what to do with the answer (the feed store, the supply rules, the launch strategies);
/// the transport carries the call and, when its answer arrives, schedules
/// `SimulationEvent.apiResponse` for the launch that made it, the outcome waiting in
/// `takeAnswer()`.
///
/// `SimulatedFeedTransport` answers from `MockFeedAPI` after its injected latency; the live one
/// (`FeedLive`'s `HTTPFeedTransport`) sends the HTTP request and posts the event to the wall
/// clock's inbox (`EventInbox`) when the response arrives.
public protocol FeedTransport {
    /// Calls the API for a page at `now` on behalf of launch `launch`. Returns whether the call
    /// reached the server (while the network is down it fails at once without).
    mutating func requestPage<Clock: RunClock<SimulationEvent>>(launch: Int, at now: Int64, clock: inout Clock) -> Bool

    /// The outcome of the call whose answer has arrived, once, and whether the call reached the
    /// server (a live server can say only in its answer that the network was down); `nil` if
    /// there is none.
    mutating func takeAnswer() -> (outcome: FeedAPIResponse.Outcome, reachedServer: Bool)?

    /// A launch starts at `start`: an earlier launch's answer is dropped, and the transport takes
    /// on this launch's network conditions.
    mutating func startLaunch(_ index: Int, at start: Int64)

    /// The last call's connection and server time, when the transport says (the request log's
    /// columns); `nil` otherwise.
    var lastCall: SentCall? { get }
}

extension FeedTransport {
    public var lastCall: SentCall? { nil }
}

/// How a call to the feed API went out: its connection, and the server's own time (the API's
/// modelled latency) before it answered.
public struct SentCall: Sendable, Equatable {
    public var use: ConnectionUse
    public var serverTime: Int64
}
