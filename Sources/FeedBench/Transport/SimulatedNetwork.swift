import Foundation

/// The radio link a simulated run's requests share, and the TCP connections over it: the image
/// host's and the feed API's (docs/network.md). Both transports of a run hold the same network,
/// so API responses queue behind image data as they do on a phone.
///
/// It is made of parts that each own what they know, and it keeps their agenda:
/// - the link: the uplink (`Uplink`: every client message in one FIFO) and the downlink's
///   bottleneck (`Bottleneck`: a drop-tail buffer served on its schedule, and what a round loses
///   at its door, `RoundLoss`);
/// - TCP: each connection (`TCPConnection`) with its handshake (`Handshake`: TCP's, then TLS
///   1.3's) and its sender (`TCPSender`: slow start and CUBIC a round trip at a time, loss
///   recovery, with the rules fitted to ns-3 in `FittedRecoveryRules`);
/// - HTTP: the exchanges under way (`Exchange`: request, server time, response, delivery) and
///   the pool that maps them onto connections (`ConnectionPool`: `HTTP11Pool`'s one response a
///   connection, or `HTTP2Connections`' streams, shared by `StreamScheduler`).
///
/// Time moves only when the run's clock says: the network keeps its own agenda (stage changes,
/// rounds, the next chunk to leave the buffer) and asks the clock for a check at its earliest
/// entry when that is earlier than the check the clock already holds (`scheduleCheck`); a check
/// that finds nothing due does nothing, and looking at the network between its events changes
/// nothing it will do. Every scan is over the exchanges under way (at most the connection limit,
/// the API's call and the cancelled responses still draining): O(connections).
///
/// A reference type on purpose: the one link both transports of a run share. Never shared
/// across runs or threads, and no method reenters another, so the hot stored properties skip
/// the runtime's exclusivity checks (they cost 8 % of a run).
final class SimulatedNetwork {
    let network: NetworkProfile
    @exclusivity(unchecked) var connections: [TCPConnection] = []
    /// The exchanges under way, in the order they were made: simultaneous events go in this order.
    @exclusivity(unchecked) var exchanges: [Exchange] = []
    @exclusivity(unchecked) var bottleneck: Bottleneck
    @exclusivity(unchecked) var uplink: Uplink
    @exclusivity(unchecked) var generator: SeededGenerator
    let pool: any ConnectionPool
    /// The pool's `streamsShareOneByteStream` (kept: the hot paths ask often).
    let streamsShareOneByteStream: Bool
    let path: Path
    @exclusivity(unchecked) private var exchangesMade = 0
    /// Connections opened so far (the next one's id is one more).
    @exclusivity(unchecked) private(set) var connectionsOpened: Int
    /// Payloads whose last byte arrived, in order, until taken.
    @exclusivity(unchecked) var delivered: [Payload] = []
    /// The exchanges' earliest stage change or round, and whose (`nil`: not known). Kept until
    /// an exchange's stage, its connection's round or its place in the list may change — only an
    /// event `advance` plays, `send`, `cancel` and `reset` change them, and each drops it — so a
    /// look that finds nothing due scans nothing.
    @exclusivity(unchecked) var agenda: (time: Int64, who: Int)?
    /// The earliest check the run's clock holds for the network, if any (`scheduleCheck`).
    @exclusivity(unchecked) private var pendingCheck: Int64?

    /// The network of a run drawing from `seed`; its connections are numbered from
    /// `connectionsOpened` + 1.
    init(network: NetworkProfile, seed: UInt64, connectionsOpened: Int = 0) {
        self.network = network
        self.connectionsOpened = connectionsOpened
        generator = SeededGenerator(seed: seed, stream: 0x7463_7069_702e_6e65)
        let segment = Double(network.maxSegmentBytes)
        let start = network.recordingStart(seed: seed)
        let downlink = network.downlinkTrace.map { ServiceSchedule.recorded($0, offset: start) }
            ?? ServiceSchedule(bitsPerSecond: network.bitsPerSecond)
        bottleneck = Bottleneck(schedule: downlink, packets: network.bufferPackets, packetWire: segment + Sizes.headers)
        uplink = Uplink(network: network, recording: network.uplinkTrace.map { .recorded($0, offset: start) })
        path = Path(network: network, bottleneck: bottleneck)
        pool = network.http == .http2 ? HTTP2Connections(network: network) : HTTP11Pool(network: network)
        streamsShareOneByteStream = pool.streamsShareOneByteStream
    }

    // MARK: Requests

    /// Sends a request to `host` at `now` whose response is `responseBytes` of body after
    /// `think` of the server's own time, `urgent` unless a prefetch's; returns the connection it
    /// went on and whether it opened it. O(connections).
    @discardableResult
    func send(_ payload: Payload, to host: Host, responseBytes: Int64, think: Int64 = 0, urgent: Bool = true,
              at now: Int64) -> (connection: Int, opened: Bool) {
        advance(to: now)
        let (index, opened) = pool.acquire(host, at: now, connections: &connections, exchanges: exchanges) { _ in
            connectionsOpened += 1
            let syn = uplink.arrival(of: Sizes.headers, sentAt: now, lossTimeout: 1_000_000_000, drawing: &generator)
            return TCPConnection(id: connectionsOpened, host: host, network: network, sentAt: now, synArrives: syn)
        }
        exchangesMade += 1
        let stage: Exchange.Stage = opened ? .opening
            : !connections[index].isEstablished ? .awaitingConnection
            : .request(arrives: requestArrival(on: index, at: now))
        exchanges.append(Exchange(id: exchangesMade, payload: payload, stage: stage, urgent: urgent, connection: index, think: think,
                                  responseBytes: Sizes.responseHeaders + Double(responseBytes)))
        agenda = nil
        return (connections[index].id, opened)
    }

    /// Stops the exchange of `payload`, and bytes already in the buffer still cross the link:
    /// HTTP/1.1 cancels by closing the connection, HTTP/2 by resetting the stream
    /// (`ConnectionPool.cancel`). Returns the response's payload bytes received. O(exchanges).
    @discardableResult
    func cancel(_ payload: Payload, at now: Int64) -> Int64 {
        advance(to: now)
        guard let index = exchanges.firstIndex(where: { $0.payload == payload }) else { return 0 }
        agenda = nil
        let exchange = exchanges[index]
        let received = exchange.hasResponse ? exchange.received : 0
        let bytes = Int64(min(max(0, received - Sizes.responseHeaders), exchange.responseBytes - Sizes.responseHeaders).rounded(.down))
        let ended = pool.cancel(index, at: now, connections: &connections, exchanges: &exchanges) { c in
            uplink.arrival(of: Sizes.resetStream + Sizes.headers, sentAt: now, lossTimeout: connections[c].sender.timeout, drawing: &generator)
        }
        guard ended else { return bytes }
        // A response (or the TLS flight it opened with) with bytes still queued stays until they
        // have crossed the link.
        if queuedChunks(of: exchanges[index]) > 0 {
            exchanges[index].payload = .discarded
        } else {
            exchanges.remove(at: index)
        }
        // A reset stream's losses no longer hold the others back.
        if streamsShareOneByteStream { emptied(at: now) }
        return bytes
    }

    /// Drops every exchange and closes every connection (the app was killed or relaunched).
    func reset(at now: Int64) {
        advance(to: now)
        exchanges.removeAll()
        agenda = nil
        bottleneck.empty()
        for i in connections.indices { connections[i].close() }
        delivered.removeAll()
        // The run's clock drops its events with the app: no check is pending any more.
        pendingCheck = nil
    }

    /// The payloads whose last byte has arrived by `now`, in the order they arrived. O(events).
    func takeDelivered(at now: Int64) -> [Payload] {
        advance(to: now, settling: false)
        guard !delivered.isEmpty else { return [] }
        defer { delivered.removeAll(keepingCapacity: true) }
        return delivered
    }

    /// When the network next needs to look at itself, if ever. O(exchanges).
    func nextTime() -> Int64? {
        let next = min(bottleneck.nextDeparture ?? .max, earliest().time)
        return next == .max ? nil : next
    }

    /// Asks `clock` for a look at the network when it next needs one, unless the clock already
    /// holds an earlier check: a change that makes the network's next time earlier asks for
    /// another, any other change asks for nothing (a check that finds nothing due is harmless), so
    /// the clock carries few checks. O(exchanges).
    func scheduleCheck<Clock: RunClock<SimulationEvent>>(clock: inout Clock) {
        guard let time = nextTime().map({ max($0, clock.now) }), time < pendingCheck ?? .max else { return }
        pendingCheck = time
        clock.schedule(.pipeline(.transport(.progress(generation: 0))), at: time)
    }

    /// The clock played the check due at or before `now`: the next one may be asked for. O(1).
    func checked(at now: Int64) {
        if pendingCheck.map({ $0 <= now }) == true { pendingCheck = nil }
    }

    // MARK: Time

    /// Plays the network's agenda up to `now`, in time order (ties in the exchanges' order);
    /// `settling`, it also serves the buffer up to `now`, as a change made then needs. A mere
    /// look (`takeDelivered`) does not: its state stays at the last event's, so looking at the
    /// network between its events changes nothing it will do.
    private func advance(to now: Int64, settling: Bool = true) {
        while true {
            let departure = bottleneck.nextDeparture ?? .max
            let (wake, who) = earliest()
            let next = min(departure, wake)
            guard next <= now else { break }
            drain(to: next)
            agenda = nil
            if departure <= wake {
                emptied(at: next)
            } else {
                step(who, at: next)
            }
        }
        if settling { drain(to: now) }
    }

    /// The exchanges' earliest stage change or round and whose, the first in the list on a tie
    /// (`.max` and -1 when none is due). O(1) when `agenda` holds it, else O(exchanges).
    private func earliest() -> (time: Int64, who: Int) {
        if let agenda { return agenda }
        var wake = Int64.max, who = -1
        for i in exchanges.indices {
            let t = min(nextEvent(of: i), connections[exchanges[i].connection].sender.nextRound ?? .max)
            if t < wake { (wake, who) = (t, i) }
        }
        agenda = (wake, who)
        return (wake, who)
    }

    /// When exchange `i`'s stage next changes by itself: its own time, or for the exchange
    /// opening its connection the handshake's (`.max`: none). O(1).
    func nextEvent(of i: Int) -> Int64 {
        if case .opening = exchanges[i].stage { return connections[exchanges[i].connection].handshake.nextChange ?? .max }
        return exchanges[i].wake ?? .max
    }

    /// The chunks in the buffer of exchange `exchange`'s response, or of the TLS flight of the
    /// connection it opens. O(1).
    func queuedChunks(of exchange: Exchange) -> Int {
        switch exchange.stage {
        case let .responding(response, _): response.queuedChunks
        case .opening: connections[exchange.connection].handshake.flight?.queuedChunks ?? 0
        default: 0
        }
    }

    /// When a request sent at `now` on connection `c` reaches the server: the uplink, then the
    /// downlink's jitter. O(1) per loss.
    func requestArrival(on c: Int, at now: Int64) -> Int64 {
        uplink.arrival(of: Sizes.request + Sizes.headers, sentAt: now, lossTimeout: connections[c].sender.timeout, drawing: &generator)
            + uplink.jitter(drawing: &generator)
    }

    /// A round trip for bytes sent now: the path's, plus the wait behind the buffer. O(1).
    func roundTripNow() -> Int64 { network.baseRoundTrip + bottleneck.queueDelay }
}
