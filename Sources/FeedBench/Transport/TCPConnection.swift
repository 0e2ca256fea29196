/// One TCP connection from the app to a host, as the simulated network keeps it: its congestion
/// state (which lives as long as the connection, so a reused connection starts where the last
/// response left it), what it is sending a round at a time (`Transfer`), how many responses are
/// under way on it (HTTP/1.1 carries one at a time; HTTP/2 carries its streams together, sharing
/// this window and these rounds), whether its handshake is done, and since when it has been idle.
struct TCPConnection: Sendable {
    /// In the order connections were opened in the run, from 1 (the request log's `connection`).
    let id: Int
    let host: SimulatedNetwork.Host
    var window: CongestionWindow
    /// The bytes under way, a round trip at a time: the TLS flight, then the responses.
    var transfer = Transfer()
    /// Whether fast retransmit has started a recovery on it yet: slow start's first overshoot
    /// is then behind it.
    var hasRecovered = false
    /// Whether the pending recovery ends that first overshoot: the connection's first, from a
    /// window beyond what the path and the buffer hold. Until it sees the loss, such a sender
    /// keeps the buffer full itself, and its first pair of retransmissions meets it full
    /// (ns-3's launches over one connection, 3g: five of them lost, the timer then resending;
    /// docs/network.md).
    var overshot = false
    /// Responses under way on it (HTTP/2's open streams; 0 or 1 over HTTP/1.1).
    private(set) var streams = 1
    private(set) var isClosed = false
    /// Whether the handshake (TCP's, then TLS's) is done, so that a request may go at once.
    var isEstablished = false
    /// When the last response on it ended (or the handshake did).
    var idleSince: Int64 = 0

    init(id: Int, host: SimulatedNetwork.Host, network: NetworkProfile) {
        self.id = id
        self.host = host
        window = CongestionWindow(initialSegments: network.initialWindowSegments, segmentBytes: network.maxSegmentBytes,
                                  bottleneckBitsPerSecond: network.bitsPerSecond, clockPausesWhenIdle: network.cubicPausesWhenIdle)
    }

    /// Open and carrying no response.
    var isIdle: Bool { streams == 0 && !isClosed }

    /// A request takes the idle connection at `now`: its transfer starts afresh (unless a reset
    /// HTTP/2 stream's bytes still drain from it, or its lost bytes are still owed), and after an
    /// idle longer than the timeout the window restarts when `restartAfterIdle` (Linux's
    /// default). O(log window).
    mutating func take(at now: Int64, restartAfterIdle: Bool) {
        streams = 1
        if !transfer.isUnderWay { transfer = Transfer() }
        if restartAfterIdle { window.restartAfterIdle(since: idleSince, at: now) }
    }

    /// Another stream opens on the busy connection (HTTP/2). O(1).
    mutating func join() {
        streams += 1
    }

    /// A response under way ended (or its stream was reset) at `now`: the connection is idle
    /// when it was the last.
    mutating func release(at now: Int64) {
        streams = max(0, streams - 1)
        if streams == 0 { idleSince = now }
    }

    /// Closed (a cancelled HTTP/1.1 response, the idle timeout, the app's end): never used again.
    mutating func close() {
        isClosed = true
        streams = 0
    }
}
