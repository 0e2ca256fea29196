import Foundation

/// The radio link a simulated run's requests share, and the TCP connections over it: the image
/// host's and the feed API's (docs/network.md, "The network"). Both transports of a run hold the same
/// network, so API responses queue behind image data as they do on a phone.
///
/// - **Connections** (`TCPConnection`): opening one costs the TCP handshake (a round trip) and,
///   with TLS 1.3, one more (a 517-byte ClientHello up, a 4,000-byte server flight down); an idle
///   one is reused until the idle timeout; HTTP/1.1 carries one response at a time, and a response
///   cancelled mid-transfer closes its connection (the next request opens a new one).
/// - **HTTP/2** (`NetworkProfile.http` "2") opens one connection a host and carries every response
///   on it as a stream: a request made while the handshake is under way goes when it is done;
///   each round's bytes are shared among the streams with bytes to send, the urgent ones (a
///   visible cell's, the API's) before the others, equally within an urgency, none beyond its
///   flow-control window (`streamWindowBytes` unread), all of them together none beyond the
///   connection's (`connectionWindowBytes`); a loss holds back every stream's delivery until it
///   is repaired (TCP's head-of-line blocking); a cancel resets its stream and keeps the
///   connection: the server sends the stream's bytes until the reset crosses the uplink, and
///   its queued bytes still drain.
/// - **The uplink** is a FIFO at the uplink rate: every client message (SYN, ClientHello, the
///   400-byte request) waits for the ones before it, then crosses the uplink delay.
/// - **The downlink** is the bottleneck: a drop-tail FIFO buffer of `bufferPackets` packets
///   served at the downlink rate, each response's bytes entering it a round trip at a time as its
///   connection's window (`CongestionWindow`) allows; a small answer waits behind the image data
///   queued before it. A round that would overflow the buffer loses its excess (a burst all of
///   it; slow start's rounds arrive at twice the rate they leave, so a burst meets only the part
///   of the clocked rounds that has arrived: `Transfer.Arrival`); random loss strikes packets
///   with the network's probability. Fast retransmit repairs a loss a round later when three
///   packets follow it; a burst's lost tail and a loss in the recovery round wait for the
///   retransmission timeout. Fast retransmit's retransmissions go out when the recovery starts:
///   a buffer without room for them then loses them, and the recovery goes on sending new data
///   at its cut window, as SACK's proportional rate reduction does, while the lost bytes wait for
///   the one retransmission timer (`Transfer.timeoutAt`); when it fires the threshold stays the
///   recovery's, as Linux's does (`NetworkProfile.recoveryTimeoutKeepsThreshold`). Bytes on the
///   wire carry 52 bytes of headers a segment.
///
/// Time moves only when the run's clock says: the network keeps its own agenda (stage changes,
/// rounds, the next chunk to leave the buffer) and asks the clock for a check at its earliest
/// entry when that is earlier than the check the clock already holds (`pendingCheck`); a check
/// that finds nothing due does nothing, and looking at the network between its events changes
/// nothing it will do. Every scan is over the exchanges under way (at most the connection limit,
/// the API's call and the cancelled responses still draining): O(connections).
///
/// A reference type on purpose: the one link both transports of a run share. Never shared
/// across runs or threads, and no method reenters another, so the hot stored properties skip
/// the runtime's exclusivity checks (they cost 8 % of a run).
final class SimulatedNetwork {
    /// Which server a request goes to.
    enum Host: Int, Sendable { case images, api }

    /// Who is told when a response's last byte arrives.
    enum Payload: Hashable, Sendable {
        case image(url: UInt64, serial: Int)
        case api(launch: Int)
        /// A cancelled response whose queued bytes still cross the link.
        case discarded
    }

    /// Message sizes, shared with the ns-3 reference check (`Validation/ns3/replay.cc`).
    enum Sizes {
        static let request = 400.0
        static let responseHeaders = 300.0
        static let clientHello = 517.0
        /// HTTP/2's RST_STREAM: a 9-byte frame header and a 4-byte error code.
        static let resetStream = 13.0
        static let serverFlight = 4_000.0
        /// IPv4 + TCP + timestamps, a segment (and a bare SYN or ACK).
        static let headers = 52.0
    }

    /// Where an exchange is.
    enum Stage: Sendable {
        /// The SYN is on its way; at `wake` the server has it.
        case synSent
        /// The SYN-ACK is on its way; at `wake` the client has it (the connection is open).
        case synAckSent
        /// The ClientHello is on its way; at `wake` the server starts its flight.
        case helloSent
        /// The server's TLS flight crosses the downlink.
        case serverFlight
        /// The flight's last byte has left the buffer; at `wake` the client has it and sends its
        /// request.
        case flightArriving
        /// The request is on its way; at `wake` the server has it and starts thinking.
        case requestSent
        /// The server's own time (the API's latency); at `wake` the response starts.
        case thinking
        /// The response crosses the downlink.
        case responding
        /// The last byte has left the buffer; at `wake` the client has it.
        case delivering
        /// HTTP/2: the connection's handshake is under way; the request goes when it is done.
        case awaitingConnection

        /// Whether the exchange is opening its connection.
        var isHandshake: Bool {
            switch self {
            case .synSent, .synAckSent, .helloSent, .serverFlight, .flightArriving: true
            default: false
            }
        }
    }

    /// One request and its response on a connection.
    struct Exchange {
        /// In the order exchanges were made (the buffer's chunks name their exchange by it).
        let id: Int
        var payload: Payload
        var stage: Stage
        /// Whether the stream is urgent (a visible cell's or the API's; HTTP/2 serves it first).
        var urgent: Bool
        var connection: Int
        /// The next stage change (for the stages that wait on a time).
        var wake: Int64 = .max
        var think: Int64
        var responseBytes: Double
        /// Payload bytes of the response that have left the buffer.
        var received = 0.0
        /// When the request that opened the connection was sent (the SYN's round trip).
        var requestedAt: Int64
        /// Its share of the connection's transfer: bytes not yet queued, those of them waiting
        /// for the retransmission timer, what the last round lost of it, and its chunks in the
        /// buffer (with their wire bytes). Over HTTP/1.1 the exchange is its connection's only
        /// stream: its unsent bytes and chunks equal the transfer's, and the rest, which only
        /// HTTP/2's sharing reads, are not kept.
        var unsent = 0.0
        var awaitingTimeout = 0.0
        var lostInRound = 0.0
        var queuedChunks = 0
        var queuedWire = 0.0
    }

    let network: NetworkProfile
    @exclusivity(unchecked) private(set) var connections: [TCPConnection] = []
    @exclusivity(unchecked) private(set) var exchanges: [Exchange] = []
    /// The downlink's buffer and what it holds.
    @exclusivity(unchecked) private(set) var bottleneck: Bottleneck
    @exclusivity(unchecked) private var exchangesMade = 0
    @exclusivity(unchecked) private var generator: SeededGenerator
    /// The uplink is busy until then.
    @exclusivity(unchecked) private var uplinkFreeAt: Int64 = 0
    /// Connections opened so far (the next one's id is one more).
    @exclusivity(unchecked) private var openedConnections = 0
    /// Payloads whose last byte arrived, in order, until taken.
    @exclusivity(unchecked) private var delivered: [Payload] = []
    /// The exchanges' earliest stage change or round, and whose (`nil`: not known). Kept until
    /// an exchange's `wake`, round or place in the list may change — only an event `advance`
    /// plays, `send`, `cancel` and `reset` change them, and each drops it — so a look that
    /// finds nothing due scans nothing.
    @exclusivity(unchecked) private var agenda: (time: Int64, who: Int)?

    private let wirePerPayload: Double
    /// Whether the network speaks HTTP/2 (kept: the hot paths ask often).
    private let multiplexes: Bool
    /// Whether a full buffer drops segments in adjacent pairs: a packet crosses the bottleneck in
    /// less than the receiver's delayed-ACK timer, so each acknowledgement covers two segments,
    /// slow start answers it with four packets where two left, and SACK's recovery resends each
    /// pair of holes at one instant. On a slower link (edge: 50 ms a packet) every segment is
    /// acknowledged alone: holes and retransmissions go one by one, each into the slot the last
    /// departure freed, so a full buffer loses no retransmission (docs/network.md). O(1).
    var holesComeInPairs: Bool {
        (Double(network.maxSegmentBytes) + Sizes.headers) / bottleneck.wirePerNanosecond < Double(Self.delayedAcknowledgementTimeout)
    }
    /// The receiver's delayed-ACK timer: Linux's minimum, as the reference check sets ns-3's.
    static let delayedAcknowledgementTimeout: Int64 = 40_000_000
    /// HTTP/2: the streams a round is shared among and their bytes (kept to spare allocations).
    @exclusivity(unchecked) private var shares: [(exchange: Int, bytes: Double)] = []

    init(network: NetworkProfile, seed: UInt64) {
        self.network = network
        generator = SeededGenerator(seed: seed, stream: 0x7463_7069_702e_6e65)
        let segment = Double(network.maxSegmentBytes)
        wirePerPayload = (segment + Sizes.headers) / segment
        multiplexes = network.multiplexes
        bottleneck = Bottleneck(bitsPerSecond: network.bitsPerSecond, packets: network.bufferPackets, packetWire: segment + Sizes.headers)
    }

    // MARK: Requests

    /// Sends a request to `host` at `now` whose response is `responseBytes` of body after
    /// `think` of the server's own time, `urgent` unless a prefetch's; returns the connection it
    /// went on and whether it opened it. O(connections).
    @discardableResult
    func send(_ payload: Payload, to host: Host, responseBytes: Int64, think: Int64 = 0, urgent: Bool = true,
              at now: Int64) -> (connection: Int, opened: Bool) {
        advance(to: now)
        let (index, opened) = acquireConnection(host, at: now)
        exchangesMade += 1
        var exchange = Exchange(id: exchangesMade, payload: payload, stage: .requestSent, urgent: urgent, connection: index, think: think,
                                responseBytes: Sizes.responseHeaders + Double(responseBytes), requestedAt: now)
        if opened {
            exchange.stage = .synSent
            exchange.wake = uplinkArrival(Sizes.headers, at: now, lossTimeout: 1_000_000_000)
        } else if !connections[index].isEstablished {
            exchange.stage = .awaitingConnection
        } else {
            exchange.wake = uplinkArrival(Sizes.request + Sizes.headers, at: now, lossTimeout: connections[index].window.timeout) + jitter()
        }
        exchanges.append(exchange)
        agenda = nil
        return (connections[index].id, opened)
    }

    /// Stops the exchange of `payload`, and bytes already in the buffer still cross the link.
    /// HTTP/1.1 cancels by closing the connection; HTTP/2 resets the stream and keeps the
    /// connection (a stream cancelled during the handshake hands it to the next one waiting).
    /// Returns the response's payload bytes received. O(exchanges).
    @discardableResult
    func cancel(_ payload: Payload, at now: Int64) -> Int64 {
        advance(to: now)
        guard let index = exchanges.firstIndex(where: { $0.payload == payload }) else { return 0 }
        let exchange = exchanges[index]
        let c = exchange.connection
        agenda = nil
        let received = exchange.stage == .responding || exchange.stage == .delivering ? exchange.received : 0
        let bytes = Int64(min(max(0, received - Sizes.responseHeaders), exchange.responseBytes - Sizes.responseHeaders).rounded(.down))
        let sending = exchange.stage == .responding || exchange.stage == .serverFlight
        if multiplexes {
            connections[c].release(at: now)
            if exchange.stage.isHandshake, let next = exchanges.firstIndex(where: { $0.connection == c && $0.stage == .awaitingConnection }) {
                // The handshake goes on for the first stream waiting on it (made after it, so
                // later in the list): that stream takes this entry's place (the TLS flight's
                // chunks name it).
                let waiting = exchanges.remove(at: next)
                exchanges[index].payload = waiting.payload
                exchanges[index].think = waiting.think
                exchanges[index].responseBytes = waiting.responseBytes
                exchanges[index].urgent = waiting.urgent
                return bytes
            }
            if exchange.stage == .responding {
                // The client's RST_STREAM crosses the uplink; the server sends on until it
                // arrives (`step`), and what it sent is not the app's.
                exchanges[index].payload = .discarded
                exchanges[index].wake = uplinkArrival(Sizes.resetStream + Sizes.headers, at: now, lossTimeout: connections[c].window.timeout)
                return bytes
            }
            if sending {
                // The stream's bytes not yet sent are no longer owed.
                exchanges[index].unsent = 0
                exchanges[index].awaitingTimeout = 0
                syncStreams(of: c)
            }
            if exchange.stage.isHandshake && connections[c].streams == 0 {
                // Nobody waits for the connection: it is abandoned, as HTTP/1.1's is.
                connections[c].close()
                connections[c].transfer.stop()
            }
        } else {
            connections[c].close()
            if sending {
                exchanges[index].unsent = 0
                connections[c].transfer.stop()
            }
        }
        // A response with bytes still queued stays until they have crossed the link.
        if exchanges[index].queuedChunks > 0 {
            exchanges[index].payload = .discarded
        } else {
            exchanges.remove(at: index)
        }
        // A reset stream's losses no longer hold the others back.
        if multiplexes { emptied(at: now) }
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

    /// Payload bytes received so far by the image responses under way.
    var imageBytesReceived: Int64 {
        Int64(exchanges.reduce(0.0) { total, exchange in
            guard case .image = exchange.payload, exchange.stage == .responding || exchange.stage == .delivering else { return total }
            return total + min(exchange.received, exchange.responseBytes)
        })
    }

    /// When the network next needs to look at itself, if ever. O(exchanges).
    func nextTime() -> Int64? {
        let next = min(bottleneck.nextDeparture ?? .max, earliest().time)
        return next == .max ? nil : next
    }

    /// The earliest check the run's clock holds for the network, if any: a change that makes
    /// the network's next time earlier asks for another, any other change asks for nothing
    /// (a check that finds nothing due is harmless), so the clock carries few checks.
    var pendingCheck: Int64?

    // MARK: Connections

    /// An idle open connection to `host` (the most recently used), or over HTTP/2 its open one,
    /// busy or not; else a new one. O(connections).
    private func acquireConnection(_ host: Host, at now: Int64) -> (index: Int, opened: Bool) {
        if multiplexes, let open = connections.indices.first(where: { connections[$0].host == host && !connections[$0].isClosed && !connections[$0].isIdle }) {
            connections[open].join()
            return (open, false)
        }
        var best: Int?
        for i in connections.indices where connections[i].host == host && connections[i].isIdle {
            if now - connections[i].idleSince > network.idleTimeout {
                connections[i].close()
            } else if best == nil || connections[i].idleSince >= connections[best!].idleSince {
                best = i
            }
        }
        if let best {
            connections[best].take(at: now, restartAfterIdle: network.slowStartAfterIdle)
            return (best, false)
        }
        // A new connection takes the slot of a closed one, so the slots stay as many as the
        // connections open at once.
        openedConnections += 1
        let connection = TCPConnection(id: openedConnections, host: host, network: network)
        if let slot = connections.indices.first(where: { slot in connections[slot].isClosed && !exchanges.contains { $0.connection == slot } }) {
            connections[slot] = connection
            return (slot, true)
        }
        connections.append(connection)
        return (connections.count - 1, true)
    }

    // MARK: The uplink

    /// When a client message of `wireBytes` sent at `now` reaches the server: after the messages
    /// before it on the uplink, its own serialization and the uplink delay, plus a `lossTimeout`
    /// (doubling) for every time it is lost. O(1) per loss.
    private func uplinkArrival(_ wireBytes: Double, at now: Int64, lossTimeout: Int64) -> Int64 {
        let start = max(now, uplinkFreeAt)
        uplinkFreeAt = start + Int64((wireBytes * 8e9 / Double(network.uplinkBitsPerSecond)).rounded(.up))
        var arrival = uplinkFreeAt + network.uplinkDelay
        var timeout = lossTimeout
        while network.uplinkLoss > 0 && generator.chance(network.uplinkLoss) {
            arrival += timeout
            timeout *= 2
        }
        return arrival
    }

    /// A downlink control packet (a SYN-ACK) sent at `now`: it waits behind the queued bytes and
    /// crosses the delay; it is lost when the buffer is full or by random loss, and then comes
    /// again after `lossTimeout` (doubling; the client's SYN is retransmitted).
    private func downlinkControlArrival(at now: Int64, lossTimeout: Int64) -> Int64 {
        var arrival = now + bottleneck.queueDelay + network.oneWayDelay.lowerBound
        var timeout = lossTimeout
        if bottleneck.queuedWire + Sizes.headers > bottleneck.capacity {
            arrival = now + timeout + network.oneWayDelay.lowerBound
            timeout *= 2
        }
        while network.loss > 0 && generator.chance(network.loss) {
            arrival += timeout
            timeout *= 2
        }
        return arrival
    }

    /// The extra one-way delay of a request when the network has jitter. O(1).
    private func jitter() -> Int64 {
        let delay = network.oneWayDelay
        return delay.lowerBound == delay.upperBound ? 0 : generator.next(in: 0...(delay.upperBound - delay.lowerBound))
    }

    // MARK: The bottleneck

    /// A round trip for bytes sent now: the path's, plus the wait behind the buffer. O(1).
    private func roundTripNow() -> Int64 { network.baseRoundTrip + bottleneck.queueDelay }

    /// Serves the buffer up to `time`, crediting each exchange and its connection with what of
    /// theirs left it. O(chunks served × exchanges).
    private func drain(to time: Int64) {
        bottleneck.serve(to: time) { exchange, wire, chunkLeft in
            if let i = exchanges.firstIndex(where: { $0.id == exchange }) {
                exchanges[i].received += wire / wirePerPayload
                if chunkLeft { exchanges[i].queuedChunks -= 1 }
                // Only HTTP/2's flow control reads a stream's queued bytes.
                if multiplexes { exchanges[i].queuedWire = exchanges[i].queuedChunks == 0 ? 0 : max(0, exchanges[i].queuedWire - wire) }
                connections[exchanges[i].connection].transfer.served(wire, chunkLeft: chunkLeft)
            }
        }
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
            let t = min(exchanges[i].wake, connections[exchanges[i].connection].transfer.nextRound)
            if t < wake { (wake, who) = (t, i) }
        }
        agenda = (wake, who)
        return (wake, who)
    }

    /// Responses whose queued bytes have all left the buffer at `now`: delivered if nothing of
    /// theirs is left to send and no loss of their connection's is unrepaired (TCP delivers in
    /// order), else waiting for their next round. A connection with nothing left to send ends
    /// its transfer.
    private func emptied(at now: Int64) {
        var i = 0
        while i < exchanges.count {
            let c = exchanges[i].connection
            if exchanges[i].queuedChunks == 0 && exchanges[i].unsent == 0 && connections[c].transfer.pendingLoss == .none
                && (exchanges[i].stage == .responding || exchanges[i].stage == .serverFlight) {
                if exchanges[i].payload == .discarded {
                    exchanges.remove(at: i)
                    continue
                }
                guard !multiplexes || connections[c].transfer.awaitingTimeout == 0 else {
                    i += 1
                    continue
                }
                if connections[c].transfer.queuedChunks == 0 && connections[c].transfer.unsent == 0 {
                    connections[c].transfer.nextRound = .max
                    connections[c].window.lastRoundAcknowledged(bytes: connections[c].transfer.roundBytes, at: now,
                                                                roundTrip: now - connections[c].transfer.roundStartedAt)
                }
                exchanges[i].wake = now + network.oneWayDelay.lowerBound
                exchanges[i].stage = exchanges[i].stage == .serverFlight ? .flightArriving : .delivering
            }
            i += 1
        }
    }

    /// The exchange `i`'s next stage change or round, at `now`.
    private func step(_ i: Int, at now: Int64) {
        if connections[exchanges[i].connection].transfer.nextRound <= exchanges[i].wake {
            round(i, at: now)
            return
        }
        exchanges[i].wake = .max
        let connection = exchanges[i].connection
        switch exchanges[i].stage {
        case .synSent:
            exchanges[i].stage = .synAckSent
            exchanges[i].wake = downlinkControlArrival(at: now, lossTimeout: 1_000_000_000)
        case .synAckSent:
            connections[connection].window.sample(roundTrip: now - exchanges[i].requestedAt)
            if network.tls {
                exchanges[i].stage = .helloSent
                exchanges[i].wake = uplinkArrival(Sizes.clientHello + Sizes.headers, at: now, lossTimeout: connections[connection].window.timeout)
            } else {
                established(i, at: now)
            }
        case .helloSent:
            exchanges[i].stage = .serverFlight
            startTransfer(i, bytes: Sizes.serverFlight, at: now)
        case .serverFlight:
            break
        case .flightArriving:
            // The flight has arrived: the client's Finished rides with the request.
            connections[connection].idleSince = now
            established(i, at: now)
        case .requestSent:
            exchanges[i].stage = .thinking
            exchanges[i].wake = now + exchanges[i].think
        case .thinking:
            exchanges[i].stage = .responding
            startTransfer(i, bytes: exchanges[i].responseBytes, at: now)
        case .responding:
            // A reset stream's RST_STREAM has reached the server: its bytes not yet sent are
            // no longer owed, and it leaves once its queued ones have crossed the link.
            guard exchanges[i].payload == .discarded else { break }
            // Still owed: the stream's bytes that were sent and lost. TCP knows nothing of
            // streams and sends them again, and the other streams' bytes behind them wait for
            // the repair (head-of-line blocking).
            exchanges[i].unsent = min(exchanges[i].unsent, max(exchanges[i].awaitingTimeout, exchanges[i].lostInRound))
            syncStreams(of: connection)
            emptied(at: now)
        case .awaitingConnection:
            break
        case .delivering:
            connections[connection].release(at: now)
            delivered.append(exchanges[i].payload)
            exchanges.remove(at: i)
        }
    }

    /// Exchange `i` has opened its connection at `now`: its request goes, then those of the
    /// streams that waited for the handshake (HTTP/2), in the order they were made.
    private func established(_ i: Int, at now: Int64) {
        let c = exchanges[i].connection
        connections[c].isEstablished = true
        sendRequest(i, at: now)
        for j in exchanges.indices where exchanges[j].connection == c && exchanges[j].stage == .awaitingConnection {
            sendRequest(j, at: now)
        }
    }

    private func sendRequest(_ i: Int, at now: Int64) {
        exchanges[i].stage = .requestSent
        exchanges[i].wake = uplinkArrival(Sizes.request + Sizes.headers, at: now, lossTimeout: connections[exchanges[i].connection].window.timeout) + jitter()
    }

    /// Exchange `i`'s response (or TLS flight) of `bytes` starts at `now`: a transfer of its own
    /// on an idle connection, its first round a burst; over HTTP/2, a stream joining the
    /// transfer under way, sent with the connection's next round.
    private func startTransfer(_ i: Int, bytes: Double, at now: Int64) {
        let c = exchanges[i].connection
        exchanges[i].received = 0
        exchanges[i].unsent = bytes
        if multiplexes && connections[c].transfer.isUnderWay {
            syncStreams(of: c)
            if connections[c].transfer.nextRound == .max {
                // The last round's acknowledgements clock the new stream's bytes out.
                connections[c].transfer.nextRound = max(now, connections[c].transfer.roundStartedAt + roundTripNow())
            }
            return
        }
        connections[c].transfer.start(bytes)
        release(i, at: now)
    }

    /// A round trip of exchange `i` has passed, or its retransmission timer fired: its window
    /// learns how the last round went, and the next round's bytes are released.
    private func round(_ i: Int, at now: Int64) {
        let c = exchanges[i].connection
        let roundTrip = now - connections[c].transfer.roundStartedAt
        if connections[c].transfer.timeoutAt <= now {
            // The lost retransmissions go again, from a window of one segment: a timeout during
            // the recovery that lost them, its window in flight (what proportional rate
            // reduction left it; ns-3's CUBIC takes the threshold from the window), or the
            // recovery round's bytes and theirs if more.
            let flight = max(connections[c].window.window, connections[c].transfer.roundBytes + connections[c].transfer.awaitingTimeout)
            connections[c].window.timedOutInRecovery(keepingThreshold: network.recoveryTimeoutKeepsThreshold, flight: flight, at: now)
            connections[c].transfer.timerFired()
            if multiplexes { forEachStream(of: c) { $0.awaitingTimeout = 0 } }
            release(i, at: now)
            return
        }
        let loss = connections[c].transfer.pendingLoss
        let slowStart = connections[c].window.inSlowStart
        switch loss {
        case .none:
            connections[c].window.sample(roundTrip: roundTrip)
            // A recovery waiting for its timer does not grow the window.
            if connections[c].transfer.timeoutAt == .max {
                connections[c].window.roundAcknowledged(bytes: connections[c].transfer.roundBytes, waiting: connections[c].transfer.unsent, at: now, roundTrip: roundTrip)
            }
        case .fastRecovery, .failedRecovery:
            if loss == .fastRecovery { connections[c].window.sample(roundTrip: roundTrip) }
            connections[c].window.acknowledgedBeforeLoss(connections[c].transfer.acknowledgedBeforeLoss, at: now, roundTrip: roundTrip)
            connections[c].window.fastRecovery(at: now)
            if loss == .failedRecovery {
                connections[c].window.timedOutInRecovery(keepingThreshold: network.recoveryTimeoutKeepsThreshold,
                                                         flight: connections[c].transfer.roundBytes + connections[c].transfer.lostInRound, at: now)
            }
        case .timeout:
            connections[c].window.timedOut(at: now)
        }
        // Fast retransmit's retransmissions, in pairs, meet the buffer as it is now, or, in slow
        // start, as the acknowledgements before the loss refilled it: without room for them the
        // first few are lost (`Transfer.retransmissionsLostToAFullBuffer`), the timer runs from
        // the round's last acknowledgement, and only they wait for it; SACK repairs the round's
        // other losses in the recovery.
        var met = arrivedWire(at: now)
        if loss == .fastRecovery && slowStart {
            met = max(met, connections[c].transfer.riseBeforeRetransmission(segment: Double(network.maxSegmentBytes)) * wirePerPayload)
        }
        let lost = connections[c].transfer.lostInRound
        if loss == .fastRecovery && holesComeInPairs && (bottleneck.capacity - met < lost * wirePerPayload || keptTheBufferFull(c, lost: lost)) {
            let doomed = min(lost, Double(Transfer.retransmissionsLostToAFullBuffer * network.maxSegmentBytes))
            connections[c].transfer.awaitingTimeout += doomed
            if multiplexes {
                // The lost retransmissions are the streams' in proportion to their losses.
                forEachStream(of: c) { $0.awaitingTimeout += $0.lostInRound * doomed / lost }
                syncStreams(of: c)
            }
            if connections[c].transfer.timeoutAt == .max {
                connections[c].transfer.timeoutAt = now + roundTripNow() + connections[c].window.timeout
            }
        }
        connections[c].transfer.recovering = loss == .fastRecovery
        connections[c].transfer.pendingLoss = .none
        release(i, at: now)
        connections[c].transfer.nextRound = min(connections[c].transfer.nextRound, connections[c].transfer.timeoutAt)
        // A stream whose bytes had all left waited for the repair (head-of-line blocking).
        if multiplexes { emptied(at: now) }
    }

    /// Whether connection `c`'s recovery, `lost` bytes lost, ends its first overshoot with two
    /// segments lost or more and a buffer's worth still to send: such a sender kept the buffer
    /// full itself until it saw the loss, whatever the buffer holds now
    /// (`TCPConnection.overshot`). O(1).
    private func keptTheBufferFull(_ c: Int, lost: Double) -> Bool {
        let segment = Double(network.maxSegmentBytes)
        return connections[c].overshot && lost >= 2 * segment
            && connections[c].transfer.unsent - lost >= Double(network.bufferPackets) * segment
    }

    /// Releases what the window allows of the unsent bytes of exchange `i`'s connection into the
    /// buffer at `now` — over HTTP/2 shared among its streams (`share`) — losing what overflows
    /// it and what random loss strikes, and sets its next round.
    private func release(_ i: Int, at now: Int64) {
        let c = exchanges[i].connection
        let window = connections[c].window
        // The bytes still in the buffer hold the window; those that have left it are
        // acknowledged during the round now starting, freeing the window as the round goes.
        let room = max(0, window.window - connections[c].transfer.queuedWire / wirePerPayload)
        var bytes = min(connections[c].transfer.unsent - connections[c].transfer.awaitingTimeout, room)
        if multiplexes { bytes = share(bytes, on: c, at: now, roundTrip: roundTripNow()) }
        // A transfer's first round is a burst: the server sends its window at once.
        let first = !connections[c].transfer.clocked
        // A burst meets what has reached the buffer: not the rest of the clocked rounds still
        // arriving (lte's browsing: without it, ns-3's median download is 0.89 of the model's).
        let queuedBefore = first ? arrivedWire(at: now) : bottleneck.queuedWire
        if bytes > 0 { connections[c].window.released(bytes, room: room, burst: first) }
        connections[c].transfer.clocked = true
        connections[c].transfer.roundStartedAt = now
        connections[c].transfer.roundBytes = bytes
        let roundTrip = roundTripNow()
        guard bytes > 0 else {
            // Nothing to send: the next round comes with the acknowledgements of what is in
            // flight, or, when all that is left waits for the timer, when it fires.
            let waitsForTimer = connections[c].transfer.timeoutAt != .max
                && connections[c].transfer.unsent <= connections[c].transfer.awaitingTimeout
            connections[c].transfer.nextRound = waitsForTimer ? connections[c].transfer.timeoutAt
                : connections[c].transfer.unsent > 0 ? now + roundTrip : .max
            return
        }
        let loss = roundLoss(bytes: bytes, burst: first, slowStart: window.inSlowStart, queuedBefore: queuedBefore)
        let wire = bytes * wirePerPayload
        let lost = loss.wire / wirePerPayload
        let waitsForTimer = connections[c].transfer.timeoutAt != .max
        if multiplexes {
            queueShares(of: c, bytes: bytes, lost: lost, waitingForTimer: waitsForTimer)
        } else {
            exchanges[i].unsent -= bytes - lost
            if wire - loss.wire > 0 { enqueue(wire - loss.wire, of: i) }
            connections[c].transfer.unsent -= bytes - lost
        }
        connections[c].transfer.queuedWire += wire - loss.wire
        if wire - loss.wire > 0 && !first {
            let span = window.inSlowStart ? (wire / 2 / bottleneck.wirePerNanosecond).rounded(.up) : Double(network.baseRoundTrip)
            connections[c].transfer.arrival = Transfer.Arrival(wire: wire - loss.wire, start: now, span: max(1, Int64(span)))
        }
        connections[c].transfer.roundBytes = bytes - lost
        connections[c].transfer.lostInRound = lost
        connections[c].transfer.acknowledgedBeforeLoss = min(bytes - lost, Double(loss.beforeLoss) * Double(network.maxSegmentBytes))
        guard lost > 0 else {
            connections[c].transfer.nextRound = connections[c].transfer.unsent > 0 ? now + roundTrip : .max
            return
        }
        if waitsForTimer {
            // The timer already runs: this loss waits for it too (`round` keeps the next round
            // no later than the timer).
            connections[c].transfer.awaitingTimeout += lost
            connections[c].transfer.nextRound = now + roundTrip
            return
        }
        // Three packets sent after the first loss bring fast retransmit: those of this round
        // after it, and the new data the survivors' acknowledgements let out (as many segments
        // as survived, in slow start) if there is any left to send.
        let segment = Double(network.maxSegmentBytes)
        let survivors = loss.packets - Int((lost / segment).rounded(.up))
        let newData = min(Int((connections[c].transfer.unsent - lost) / segment), window.inSlowStart ? survivors : survivors / 8)
        let after = (loss.tailDrop ? 0 : loss.packets - 1 - loss.first) + max(0, newData)
        if after >= 3 && !connections[c].transfer.recovering {
            connections[c].transfer.pendingLoss = .fastRecovery
            connections[c].transfer.nextRound = now + roundTrip
            // Slow start's first overshoot: a window beyond what the path and the buffer hold.
            connections[c].overshot = !connections[c].hasRecovered
                && window.window * wirePerPayload >= bottleneck.capacity + bottleneck.wirePerNanosecond * Double(network.baseRoundTrip)
            connections[c].hasRecovered = true
        } else if after >= 3 && !holesComeInPairs {
            // Holes one by one: the recovery's retransmissions each took a freed slot, so what
            // its round lost is new data, which SACK repairs in the same recovery.
            connections[c].transfer.nextRound = now + roundTrip
        } else {
            // The timer runs from the last acknowledgement, a round trip after the round left.
            connections[c].transfer.pendingLoss = after >= 3 ? .failedRecovery : .timeout
            connections[c].transfer.nextRound = now + roundTrip + window.timeout
        }
    }

    /// Queues `wire` bytes of exchange `i`'s response in the buffer as one chunk. O(1).
    private func enqueue(_ wire: Double, of i: Int) {
        bottleneck.enqueue(wire, of: exchanges[i].id)
        connections[exchanges[i].connection].transfer.queuedChunks += 1
        exchanges[i].queuedChunks += 1
        if multiplexes { exchanges[i].queuedWire += wire }
    }

    // MARK: HTTP/2's streams

    /// Calls `body` on every exchange of connection `c`. O(exchanges).
    private func forEachStream(of c: Int, _ body: (inout Exchange) -> Void) {
        for j in exchanges.indices where exchanges[j].connection == c {
            body(&exchanges[j])
        }
    }

    /// Shares up to `bytes` of connection `c`'s round, released at `now` to leave over
    /// `roundTrip`, among its streams with bytes to send — the urgent ones first; within an
    /// urgency equally, a stream that needs less than its share giving the rest to the others —
    /// none beyond its flow-control window less what of it is still queued, and all together not
    /// beyond the connection's window less what of the connection is still queued. A reset
    /// stream whose RST_STREAM has not reached the server yet gets only the part of its share
    /// that leaves before it does. Leaves each stream's share in `shares` and returns their sum.
    /// O(streams log streams).
    private func share(_ bytes: Double, on c: Int, at now: Int64, roundTrip: Int64) -> Double {
        shares.removeAll(keepingCapacity: true)
        let window = Double(network.streamWindowBytes)
        for j in exchanges.indices where exchanges[j].connection == c && (exchanges[j].stage == .responding || exchanges[j].stage == .serverFlight) {
            let sendable = min(exchanges[j].unsent - exchanges[j].awaitingTimeout, window - exchanges[j].queuedWire / wirePerPayload)
            if sendable > 0 { shares.append((j, sendable)) }
        }
        let allowed = max(0, min(bytes, Double(network.connectionWindowBytes) - connections[c].transfer.queuedWire / wirePerPayload))
        guard shares.contains(where: { exchanges[$0.exchange].payload == .discarded }) else { return distribute(allowed) }
        let needs = shares
        _ = distribute(allowed)
        let equalShares = shares
        shares = needs
        for m in shares.indices where exchanges[shares[m].exchange].payload == .discarded {
            let before = min(1, Double(max(0, exchanges[shares[m].exchange].wake - now)) / Double(max(1, roundTrip)))
            let equal = equalShares.first { $0.exchange == shares[m].exchange }?.bytes ?? 0
            shares[m].bytes = min(shares[m].bytes, equal * before)
        }
        shares.removeAll { $0.bytes <= 0 }
        return distribute(allowed)
    }

    /// Gives `bytes` to the streams in `shares` by their needs — urgent first, then the
    /// smallest need first (each stream's id breaks ties), so that a stream wanting less than an
    /// equal share takes only what it wants — leaving each one's part in `shares`; returns the
    /// sum given. O(streams log streams).
    private func distribute(_ bytes: Double) -> Double {
        shares.sort { a, b in
            let (x, y) = (exchanges[a.exchange], exchanges[b.exchange])
            if x.urgent != y.urgent { return x.urgent }
            return a.bytes != b.bytes ? a.bytes < b.bytes : x.id < y.id
        }
        var left = bytes, k = 0
        while k < shares.count {
            // The streams of this urgency still to be given their share.
            var end = k
            while end < shares.count && exchanges[shares[end].exchange].urgent == exchanges[shares[k].exchange].urgent { end += 1 }
            for m in k..<end {
                let equal = left / Double(end - m)
                let given = shares[m].bytes <= equal ? shares[m].bytes : equal
                shares[m].bytes = given
                left -= given
            }
            k = end
        }
        return bytes - left
    }

    /// The round's `bytes` leave as `shares` said, each stream losing its part of `lost`; each
    /// stream's surviving bytes join the buffer as a chunk of its own. Over HTTP/2 the
    /// connection's unsent bytes are its streams' sum. O(streams).
    private func queueShares(of c: Int, bytes: Double, lost: Double, waitingForTimer: Bool) {
        forEachStream(of: c) { $0.lostInRound = 0 }
        var lostLeft = lost
        for (m, part) in shares.enumerated() {
            let j = part.exchange
            let partLost = m == shares.count - 1 ? min(part.bytes, lostLeft) : lost * part.bytes / bytes
            lostLeft -= partLost
            exchanges[j].unsent -= part.bytes - partLost
            exchanges[j].lostInRound = partLost
            if waitingForTimer { exchanges[j].awaitingTimeout += partLost }
            if part.bytes - partLost > 0 { enqueue((part.bytes - partLost) * wirePerPayload, of: j) }
        }
        syncStreams(of: c)
    }

    /// Connection `c`'s unsent bytes, and those waiting for its timer, as its streams' sums (a
    /// stream's own count reaches exactly 0 when it is all sent). O(exchanges).
    private func syncStreams(of c: Int) {
        var unsent = 0.0, awaiting = 0.0
        for exchange in exchanges where exchange.connection == c {
            unsent += exchange.unsent
            awaiting += exchange.awaitingTimeout
        }
        connections[c].transfer.unsent = unsent
        connections[c].transfer.awaitingTimeout = awaiting
    }

    /// The wire bytes in the buffer at `now` less what the clocked rounds queued at their start
    /// have not delivered to it yet (each no more than it still has queued). O(exchanges), or
    /// O(connections) over HTTP/2.
    func arrivedWire(at now: Int64) -> Double {
        var arrived = bottleneck.queuedWire
        if multiplexes {
            // Streams share their connection's rounds: each connection counts once.
            for connection in connections {
                arrived -= min(connection.transfer.queuedWire, connection.transfer.arrival.pending(at: now))
            }
        } else {
            for exchange in exchanges {
                arrived -= min(connections[exchange.connection].transfer.queuedWire, connections[exchange.connection].transfer.arrival.pending(at: now))
            }
        }
        return max(0, arrived)
    }

    /// What a round of `bytes` loses entering a buffer holding `queuedBefore`.
    struct RoundLoss {
        /// Wire bytes lost, and packets: in the round, and the index of the first lost.
        var wire: Double
        var packets: Int
        var first: Int
        /// The packets that entered the buffer before the first loss.
        var beforeLoss: Int
        /// A burst's loss: its tail, with nothing of it after.
        var tailDrop: Bool
    }

    /// The buffer's peak while the round arrives — all of a burst; a slow-start round, clocked
    /// by acknowledgements, arrives at twice the rate it drains; a congestion-avoidance round adds
    /// what exceeds a round trip's drain — beyond the buffer is lost, then random loss strikes
    /// each packet. O(packets) with random loss, else O(1).
    private func roundLoss(bytes: Double, burst: Bool, slowStart: Bool, queuedBefore: Double) -> RoundLoss {
        let segment = Double(network.maxSegmentBytes)
        let packetWire = segment + Sizes.headers
        let wire = bytes * wirePerPayload
        let rise = burst ? wire
            : slowStart ? wire / 2
            : wire - min(wire, bottleneck.wirePerNanosecond * Double(network.baseRoundTrip))
        let peak = queuedBefore + rise
        var lostWire = peak > bottleneck.capacity ? min(wire, max(packetWire, peak - bottleneck.capacity)) : 0
        let packets = Int((bytes / segment).rounded(.up))
        // A burst loses its tail; a clocked round loses packets among those that get through
        // (every other one once the buffer is full).
        let tailDrop = burst && lostWire > 0
        var first = lostWire > 0 ? (tailDrop ? packets - Int((lostWire / packetWire).rounded(.up)) : 0) : packets
        // The buffer fills as the round rises toward its peak: what came before is not lost.
        var beforeLoss = lostWire == 0 ? packets
            : tailDrop ? first : Int(Double(packets) * max(0, bottleneck.capacity - queuedBefore) / max(rise, 1))
        if network.loss > 0 {
            for packet in 0..<packets where generator.chance(network.loss) {
                lostWire += packetWire
                first = min(first, packet)
                beforeLoss = min(beforeLoss, packet)
            }
            lostWire = min(lostWire, wire)
        }
        return RoundLoss(wire: lostWire, packets: packets, first: first,
                         beforeLoss: min(beforeLoss, packets), tailDrop: tailDrop)
    }

    // MARK: Serving

    /// The bytes of the response of `payload` (its headers included) that will have left the
    /// buffer by `time`, as the buffer stands at its last update (exact until the next check);
    /// 0 before the response starts, `nil` when the exchange is over. O(chunks).
    func departed(_ payload: Payload, by time: Int64) -> Double? {
        guard let exchange = exchanges.first(where: { $0.payload == payload }) else { return nil }
        guard exchange.stage == .responding || exchange.stage == .delivering else { return 0 }
        var budget = bottleneck.budget(to: time)
        var departed = exchange.received
        for chunk in bottleneck.chunks where budget > 0 {
            if chunk.exchange == exchange.id { departed += min(budget, chunk.wire) / wirePerPayload }
            budget -= chunk.wire
        }
        return min(departed, exchange.responseBytes)
    }

    /// When `bytes` of the response of `payload` (its headers included) will have reached the
    /// client, as the buffer stands at its last update; when that is not known yet, a moment not
    /// after it at which it becomes known: the exchange's next stage change or round, or its last
    /// queued byte leaving. Bytes queued after the exchange's own never overtake them, so the
    /// answer holds whatever is sent meanwhile (`ServedNetwork` paces `bench serve` by it). `nil`
    /// when the exchange is over. O(chunks).
    func arrival(of payload: Payload, reaching bytes: Double) -> Int64? {
        guard let exchange = exchanges.first(where: { $0.payload == payload }) else { return nil }
        let delay = network.oneWayDelay.lowerBound
        if exchange.stage == .delivering { return exchange.wake }
        let responding = exchange.stage == .responding
        if responding && exchange.received >= bytes { return bottleneck.servedTo + delay }
        let next = min(exchange.wake, connections[exchange.connection].transfer.nextRound)
        var departed = exchange.received
        var ahead = 0.0
        var lastQueued: Double?
        for chunk in bottleneck.chunks {
            if chunk.exchange == exchange.id {
                let needed = (bytes - departed) * wirePerPayload
                if responding && needed <= chunk.wire { return min(next, bottleneck.departure(after: ahead + needed) + delay) }
                departed += chunk.wire / wirePerPayload
                lastQueued = ahead + chunk.wire
            }
            ahead += chunk.wire
        }
        return min(next, lastQueued.map { bottleneck.departure(after: $0) } ?? .max)
    }
}
