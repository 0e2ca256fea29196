/// One TCP connection from the app to a host: its opening (`Handshake`), its sender (the
/// congestion window and the bytes it sends a round trip at a time, `TCPSender`), which lives as
/// long as the connection, so a reused connection starts where the last response left it, how
/// many responses are under way on it (HTTP/1.1 carries one at a time; HTTP/2 carries its streams
/// together, sharing this sender), and since when it has been idle.
struct TCPConnection: Sendable {
    /// In the order connections were opened in the run, from 1 (the request log's `connection`).
    let id: Int
    let host: SimulatedNetwork.Host
    private(set) var handshake: Handshake
    var sender: TCPSender
    /// Responses under way on it (HTTP/2's open streams; 0 or 1 over HTTP/1.1).
    private(set) var streams = 1
    private(set) var isClosed = false
    /// When the last response on it ended (or the handshake did).
    private(set) var idleSince: Int64 = 0

    /// A connection whose SYN left at `now` and reaches the server at `synArrives`.
    init(id: Int, host: SimulatedNetwork.Host, network: NetworkProfile, sentAt now: Int64, synArrives: Int64) {
        self.id = id
        self.host = host
        handshake = .synSent(sentAt: now, arrives: synArrives)
        sender = TCPSender(network: network)
    }

    /// Whether the handshake (TCP's, then TLS's) is done, so that a request may go at once. O(1).
    var isEstablished: Bool { handshake == .established }

    /// Open and carrying no response. O(1).
    var isIdle: Bool { streams == 0 && !isClosed }

    // MARK: The handshake

    /// The SYN reached the server at `now`: the SYN-ACK goes down, reaching the client at
    /// `arrives`. O(1).
    mutating func synReceived(synAckArrives arrives: Int64) {
        guard case let .synSent(sentAt, _) = handshake else { preconditionFailure("no SYN on its way") }
        handshake = .synAckSent(sentAt: sentAt, arrives: arrives)
    }

    /// The SYN-ACK reached the client at `now`: the sender takes its first round-trip sample.
    /// With TLS the ClientHello goes up, reaching the server at `helloArrives(timeout)` (the
    /// sender's timeout, for its loss); without, the connection is open. O(1).
    mutating func synAckReceived(at now: Int64, tls: Bool, helloArrives: (_ lossTimeout: Int64) -> Int64) {
        guard case let .synAckSent(sentAt, _) = handshake else { preconditionFailure("no SYN-ACK on its way") }
        sender.sample(roundTrip: now - sentAt)
        handshake = tls ? .helloSent(arrives: helloArrives(sender.timeout)) : .established
    }

    /// The ClientHello reached the server: its flight of `bytes` starts, sent as the connection's
    /// first transfer. O(1).
    mutating func helloReceived(flightBytes bytes: Double) {
        handshake = .serverFlight(Outbound(unsent: bytes))
        sender.start(bytes)
    }

    /// The flight's last byte left the buffer: it reaches the client at `arrives`. O(1).
    mutating func flightDeparted(arriving arrives: Int64) {
        handshake = .flightArriving(arrives: arrives)
    }

    /// The flight reached the client at `now`: the connection is open. O(1).
    mutating func flightReceived(at now: Int64) {
        idleSince = now
        handshake = .established
    }

    /// `wire` bytes of the flight's oldest queued chunk have left the buffer. O(1).
    mutating func flightServed(_ wire: Double, chunkLeft: Bool) {
        handshake.updateFlight { $0.served(wire, chunkLeft: chunkLeft) }
        sender.served(wire, chunkLeft: chunkLeft)
    }

    /// Changes the flight's bytes in place while it is being sent. O(1).
    mutating func updateFlight(_ body: (inout Outbound) -> Void) {
        handshake.updateFlight(body)
    }

    // MARK: Use

    /// A request takes the idle connection at `now`: its sender starts a transfer afresh (unless
    /// a reset HTTP/2 stream's bytes still drain from it, or its lost bytes are still owed), and
    /// after an idle longer than the timeout the window restarts when `restartAfterIdle` (Linux's
    /// default). O(log window).
    mutating func take(at now: Int64, restartAfterIdle: Bool) {
        streams = 1
        if !sender.isUnderWay { sender.startAfresh() }
        if restartAfterIdle { sender.restartAfterIdle(since: idleSince, at: now) }
    }

    /// Another stream opens on the busy connection (HTTP/2). O(1).
    mutating func join() {
        streams += 1
    }

    /// A response under way ended (or its stream was reset) at `now`: the connection is idle
    /// when it was the last. O(1).
    mutating func release(at now: Int64) {
        streams = max(0, streams - 1)
        if streams == 0 { idleSince = now }
    }

    /// Closed (a cancelled HTTP/1.1 response, the idle timeout, the app's end): never used again.
    /// O(1).
    mutating func close() {
        isClosed = true
        streams = 0
    }
}
