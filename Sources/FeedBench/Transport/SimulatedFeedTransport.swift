/// The feed API as the simulation models it, behind the feed transport seam: `MockFeedAPI`'s
/// answer arrives at its `completesAt`; while the network is down a call fails at once with a
/// server error, without reaching the API (which then draws nothing for it).
struct SimulatedFeedTransport: FeedTransport {
    var api: MockFeedAPI
    /// The run's outages, made absolute at each launch in `offline`.
    let outages: OfflineSchedule
    /// Absolute times when the network is down during the current launch.
    var offline: [Range<Int64>] = []
    /// The outcome of the call under way, given to the app when its answer arrives.
    var answer: (outcome: FeedAPIResponse.Outcome, reachedServer: Bool)?

    init(api: MockFeedAPI, outages: OfflineSchedule) {
        self.api = api
        self.outages = outages
    }

    mutating func requestPage<Clock: RunClock<SimulationEvent>>(launch: Int, at now: Int64, clock: inout Clock) -> Bool {
        let response: FeedAPIResponse
        let reached = !offline.contains { $0.contains(now) }
        if reached {
            response = api.requestPage(at: now)
        } else {
            response = FeedAPIResponse(completesAt: now, outcome: .failure(.serverError))
        }
        answer = (response.outcome, reached)
        clock.schedule(.apiResponse(launch: launch), at: max(now, response.completesAt))
        return reached
    }

    mutating func takeAnswer() -> (outcome: FeedAPIResponse.Outcome, reachedServer: Bool)? {
        defer { answer = nil }
        return answer
    }

    mutating func startLaunch(_ index: Int, at start: Int64) {
        answer = nil
        offline = outages.absoluteIntervals(launch: index, start: start)
    }
}
