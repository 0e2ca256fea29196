/// One TCP connection from the app to a host, as the simulated network keeps it: its congestion
/// state (which lives as long as the connection, so a reused connection starts where the last
/// response left it), what it is sending a round at a time (`Transfer`), whether a response is
/// under way on it (HTTP/1.1 carries one at a time), and since when it has been idle. The
/// HTTP/2 model adds its streams over this type, sharing its window and its rounds.
struct TCPConnection: Sendable {
    /// In the order connections were opened in the run, from 1 (the request log's `connection`).
    let id: Int
    let host: SimulatedNetwork.Host
    var window: CongestionWindow
    /// The bytes under way, a round trip at a time: the TLS flight, then each response.
    var transfer = Transfer()
    private(set) var isBusy = true
    private(set) var isClosed = false
    /// When the last response on it ended (or the handshake did).
    var idleSince: Int64 = 0

    init(id: Int, host: SimulatedNetwork.Host, network: NetworkProfile) {
        self.id = id
        self.host = host
        window = CongestionWindow(initialSegments: network.initialWindowSegments, segmentBytes: network.maxSegmentBytes,
                                  bottleneckBitsPerSecond: network.bitsPerSecond, clockPausesWhenIdle: network.cubicPausesWhenIdle)
    }

    /// Open and carrying no response.
    var isIdle: Bool { !isBusy && !isClosed }

    /// A request takes the idle connection at `now`: its transfer starts afresh, and after an
    /// idle longer than the timeout the window restarts when `restartAfterIdle` (Linux's
    /// default). O(log window).
    mutating func take(at now: Int64, restartAfterIdle: Bool) {
        isBusy = true
        transfer = Transfer()
        if restartAfterIdle { window.restartAfterIdle(since: idleSince, at: now) }
    }

    /// The response under way ended at `now`: the connection is idle.
    mutating func release(at now: Int64) {
        isBusy = false
        idleSince = now
    }

    /// Closed (a cancelled response, the idle timeout, the app's end): never used again.
    mutating func close() {
        isClosed = true
        isBusy = false
    }
}
