/// `bench serve`'s network: one `SimulatedNetwork` — the simulation's own model, connections,
/// handshakes, congestion windows and the shared bottleneck — that the server's requests cross
/// on the wall clock, in nanoseconds since the server started, so that each response's bytes
/// reach a client on loopback when the model delivers them to the simulated app.
///
/// A request is sent when it arrives (on loopback its arrival is the client's send time); the
/// model opens or reuses a connection of its own idle pool, so a real socket is never mapped to
/// a model connection. The server then asks `progress` what has reached the client by now and
/// when to look again, writes that much, and `end`s the request when done. The model's bytes
/// reach the client one downlink delay after they leave the buffer, so the wrapper keeps each
/// response's departures of the last delay (exact: between two of the model's events only the
/// chunk at the head of the buffer moves, at the link's rate).
///
/// Shared by the server's requests: every call holds the lock. Each call first plays the model
/// up to its time, event by event: O(events × exchanges) in all, as in a simulated run.
public final class ServedNetwork: Sendable {
    /// Which server a request goes to: the image host's connections or the API's.
    public enum Host: Sendable { case images, api }

    /// A request as the model took it: its number for `progress` and `end`, the connection it
    /// went on (as the model numbers them, from 1) and whether it opened it, and when the model
    /// took it (the time asked for, or the model's own time when another call had played it
    /// further).
    public struct Sent: Sendable, Equatable {
        public let id: Int
        public let connection: Int
        public let opened: Bool
        public let at: Int64
    }

    /// How far a response has come at the client.
    public struct Progress: Sendable, Equatable {
        /// Whether the response's headers have arrived.
        public var headersArrived: Bool
        /// The body bytes that have arrived.
        public var bodyBytes: Int64
        /// Whether the last byte has arrived.
        public var isComplete: Bool
        /// When to look again (nanoseconds since the server started): when the body bytes asked
        /// for may have arrived, or the model may change its plans for them.
        public var nextLook: Int64
    }

    /// One response under way: its departures from the buffer in payload bytes (headers
    /// included), as the points of a piecewise-linear curve from one downlink delay ago to the
    /// model's last update.
    struct Response {
        let payload: SimulatedNetwork.Payload
        let bytes: Double
        var departures: [(time: Int64, bytes: Double)]
        /// Whether the model has delivered its last byte.
        var delivered = false
    }

    struct State {
        let model: SimulatedNetwork
        /// The latest time asked about (the model is played to its last check before it).
        var now: Int64 = 0
        var sent = 0
        var responses: [Int: Response] = [:]
    }

    private let state: Locked<State>
    /// The conditions the model runs.
    public let profile: NetworkProfile
    /// The downlink's propagation delay: a byte reaches the client this long after it leaves
    /// the buffer.
    private let delay: Int64

    /// A model of `profile` whose draws (loss, jitter) come from `seed`, as a simulated run's
    /// network for the same seed; its connections are numbered from `connectionsOpened` + 1 (the
    /// connections an earlier model of the same server opened).
    public init(profile: NetworkProfile, seed: UInt64, connectionsOpened: Int = 0) {
        self.profile = profile
        delay = profile.oneWayDelay.lowerBound
        state = Locked(State(model: SimulatedNetwork(network: profile, seed: seed, connectionsOpened: connectionsOpened)))
    }

    /// The connections the model has opened so far (the last one's number). O(1).
    public var connectionsOpened: Int {
        state.withLock { $0.model.connectionsOpened }
    }

    /// Sends a request to `host` at `now`, whose response is `bodyBytes` of body after `think`
    /// of the server's own time; over HTTP/2 an `urgent` stream's share of the connection comes
    /// before the others'. O(events × exchanges) to play the model to `now`.
    public func send(_ host: Host, bodyBytes: Int64, think: Int64 = 0, urgent: Bool = true, at now: Int64) -> Sent {
        state.withLock { state in
            advance(&state, to: now)
            state.sent += 1
            let id = state.sent
            let payload: SimulatedNetwork.Payload = host == .api ? .api(launch: id) : .image(url: UInt64(id), serial: id)
            let use = state.model.send(payload, to: host == .api ? .api : .images, responseBytes: bodyBytes, think: think, urgent: urgent,
                                         at: state.now)
            state.responses[id] = Response(payload: payload, bytes: SimulatedNetwork.Sizes.responseHeaders + Double(bodyBytes),
                                           departures: [(state.now, 0)])
            note(&state, at: state.now, delivered: [])
            return Sent(id: id, connection: use.connection, opened: use.opened, at: state.now)
        }
    }

    /// What of request `id`'s response has reached the client at `now`, and when to look again
    /// for its first `awaitedBody` body bytes (0: its headers). O(events × exchanges + chunks).
    public func progress(_ id: Int, at now: Int64, awaitingBody awaitedBody: Int64) -> Progress {
        state.withLock { state in
            advance(&state, to: now)
            let now = state.now
            let headers = SimulatedNetwork.Sizes.responseHeaders
            guard let response = state.responses[id] else { preconditionFailure("request \(id) was ended") }
            let body = Int64(response.bytes - headers)
            if response.delivered { return Progress(headersArrived: true, bodyBytes: body, isComplete: true, nextLook: now) }
            // The bytes that left the buffer one delay ago: on the curve, or since its last point
            // as the buffer stands.
            let left = now - delay
            let schedule = state.model.downlinkSchedule
            let arrived = left <= response.departures.last!.time ? Self.departed(response.departures, by: left, on: schedule)
                : state.model.departed(response.payload, by: left) ?? response.departures.last!.bytes
            let target = min(response.bytes, headers + Double(max(0, awaitedBody)))
            var look = Self.reaching(response.departures, target, on: schedule).map { $0 + delay }
            if look == nil || look! <= now { look = state.model.arrival(of: response.payload, reaching: target) }
            return Progress(headersArrived: arrived >= headers, bodyBytes: min(body, Int64(max(0, arrived - headers))),
                            isComplete: false, nextLook: max(now + 1, look == .max ? now + 10_000_000 : look ?? now))
        }
    }

    /// The server is done with request `id` at `now` (it is forgotten). When its response has
    /// not wholly arrived, the client gave up on it: the model stops its exchange and closes its
    /// connection (HTTP/1.1 cancels by closing) or resets its stream (HTTP/2).
    /// O(events × exchanges).
    public func end(_ id: Int, at now: Int64) {
        state.withLock { state in
            advance(&state, to: now)
            guard let response = state.responses.removeValue(forKey: id), !response.delivered else { return }
            state.model.cancel(response.payload, at: state.now)
            note(&state, at: state.now, delivered: [])
        }
    }

    // MARK: Playing the model

    /// Plays the model's checks up to `time` (never back), noting every response's departures
    /// at each and the responses it delivers. Between checks only the chunk at the head of the
    /// buffer moves, so the curves are exact; the model itself is moved only where a simulated
    /// run moves it: to its checks, and to the times requests are sent and cancelled.
    private func advance(_ state: inout State, to time: Int64) {
        while let next = state.model.nextTime(), next <= time {
            note(&state, at: next, delivered: state.model.takeDelivered(at: next))
        }
        state.now = max(state.now, time)
    }

    /// Adds each response's departures at `time` to its curve, forgetting the points the client
    /// can no longer be behind (older than a downlink delay, but for the last of them), and marks
    /// the ones `delivered`. A response that has not moved since its last two points only moves
    /// its last point to `time` (the curve is the same; most responses wait behind the head of
    /// the buffer, so their curves stay a few points however many events pass). Each curve is
    /// changed in place, never copied. O(responses + exchanges).
    private func note(_ state: inout State, at time: Int64, delivered: [SimulatedNetwork.Payload]) {
        guard !state.responses.isEmpty else { return }
        var departed: [Int: Double] = [:]
        for response in state.model.responsesReceived {
            if let id = Self.id(response.payload) { departed[id] = response.received }
        }
        for id in delivered.compactMap(Self.id) { state.responses[id]?.delivered = true }
        let horizon = time - delay
        var index = state.responses.values.startIndex
        while index != state.responses.values.endIndex {
            defer { index = state.responses.values.index(after: index) }
            guard !state.responses.values[index].delivered else { continue }
            let id = state.responses.keys[index]
            Self.extend(&state.responses.values[index], at: time, to: departed[id], horizon: horizon)
        }
    }

    /// Adds the point (`time`, `bytes`, else the last point's) to the response's curve, in place.
    private static func extend(_ response: inout Response, at time: Int64, to bytes: Double?, horizon: Int64) {
        let last = response.departures.last!
        let point = (time: time, bytes: min(response.bytes, bytes ?? last.bytes))
        let count = response.departures.count
        if count >= 2 && response.departures[count - 2].bytes == last.bytes && point.bytes == last.bytes {
            response.departures[count - 1].time = time
        } else {
            response.departures.append(point)
        }
        // The points before the last one at or before the horizon (a loop, not `prefix(while:)`:
        // this runs for every response at every event).
        var stale = 0
        while stale + 1 < response.departures.count && response.departures[stale + 1].time <= horizon { stale += 1 }
        if stale > 0 { response.departures.removeFirst(stale) }
    }

    static func id(_ payload: SimulatedNetwork.Payload) -> Int? {
        switch payload {
        case let .image(_, serial): return serial
        case let .api(launch): return launch
        case .discarded: return nil
        }
    }

    /// The bytes `departures` had left the buffer by `time` on `schedule`: between two points
    /// only one chunk moves, as the link serves it — evenly on a fixed link, an opportunity at a
    /// time on a recorded one. O(points).
    static func departed(_ departures: [(time: Int64, bytes: Double)], by time: Int64, on schedule: ServiceSchedule) -> Double {
        guard let after = departures.firstIndex(where: { $0.time > time }) else { return departures.last!.bytes }
        guard after > 0 else { return departures[0].bytes }
        let (a, b) = (departures[after - 1], departures[after])
        switch schedule {
        case .fixed:
            return a.bytes + (b.bytes - a.bytes) * Double(time - a.time) / Double(b.time - a.time)
        case .recorded:
            let served = schedule.capacity(from: a.time, to: b.time)
            guard served > 0 else { return a.bytes }
            return a.bytes + (b.bytes - a.bytes) * schedule.capacity(from: a.time, to: time) / served
        }
    }

    /// When `departures` reached `bytes` on `schedule`, if they have. O(points).
    static func reaching(_ departures: [(time: Int64, bytes: Double)], _ bytes: Double, on schedule: ServiceSchedule) -> Int64? {
        guard let index = departures.firstIndex(where: { $0.bytes >= bytes }) else { return nil }
        guard index > 0 else { return departures[0].time }
        let (a, b) = (departures[index - 1], departures[index])
        switch schedule {
        case .fixed:
            return a.time + Int64((Double(b.time - a.time) * (bytes - a.bytes) / (b.bytes - a.bytes)).rounded())
        case .recorded:
            let share = (bytes - a.bytes) / (b.bytes - a.bytes)
            return min(b.time, schedule.departure(of: share * schedule.capacity(from: a.time, to: b.time), from: a.time))
        }
    }
}
