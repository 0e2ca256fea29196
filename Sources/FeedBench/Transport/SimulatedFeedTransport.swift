/// The feed API as the simulation models it, behind the feed transport seam: `MockFeedAPI` draws
/// the call's answer and the server's own time (its modelled latency), and the call crosses the
/// run's `SimulatedNetwork` — the API host's connection, its handshakes, the uplink, and the
/// shared downlink, where the answer queues behind image data. The network schedules
/// `.apiResponse` when the answer's last byte arrives. A call the API times out fails when the
/// timeout elapses, as the client gives up. While the network is down a call fails at once with a
/// server error, without reaching the API (which then draws nothing for it).
struct SimulatedFeedTransport: FeedTransport {
    var api: MockFeedAPI
    let network: SimulatedNetwork
    /// The run's outages, made absolute at each launch in `offline`.
    let outages: OfflineSchedule
    /// Absolute times when the network is down during the current launch.
    var offline: [Range<Int64>] = []
    /// The outcome of the call under way, given to the app when its answer arrives.
    var answer: (outcome: FeedAPIResponse.Outcome, reachedServer: Bool)?
    /// The connection and server time of the last call.
    private(set) var lastCall: SentCall?

    init(api: MockFeedAPI, network: SimulatedNetwork, outages: OfflineSchedule) {
        self.api = api
        self.network = network
        self.outages = outages
    }

    mutating func requestPage<Clock: RunClock<SimulationEvent>>(launch: Int, at now: Int64, clock: inout Clock) -> Bool {
        let reached = !offline.contains { $0.contains(now) }
        guard reached else {
            answer = (.failure(.serverError), false)
            lastCall = nil
            clock.schedule(.apiResponse(launch: launch), at: now)
            return false
        }
        let response = api.requestPage(at: now)
        answer = (response.outcome, true)
        if case .failure(.timeout) = response.outcome {
            lastCall = nil
            clock.schedule(.apiResponse(launch: launch), at: max(now, response.completesAt))
            return true
        }
        let think = max(0, response.completesAt - now)
        let use = network.send(.api(launch: launch), to: .api, responseBytes: Int64(FeedAPIBody.bytes(of: response.outcome)),
                               think: think, at: now)
        lastCall = SentCall(use: ConnectionUse(connection: use.connection, opened: use.opened), serverTime: think)
        network.scheduleCheck(clock: &clock)
        return true
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

/// The two transports of a simulated run, over one network.
enum SimulatedTransports {
    /// An image and a feed transport sharing one `SimulatedNetwork` drawn from `seed`.
    static func make(_ configuration: RunConfiguration, seed: UInt64) throws -> (SimulatedImageTransport, SimulatedFeedTransport) {
        let network = SimulatedNetwork(network: configuration.network, seed: seed)
        return (SimulatedImageTransport(network: network, outages: configuration.offline),
                SimulatedFeedTransport(api: try MockFeedAPI(configuration: configuration.api, seed: seed), network: network,
                                       outages: configuration.offline))
    }
}
