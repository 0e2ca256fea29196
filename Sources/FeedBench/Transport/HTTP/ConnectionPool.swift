/// How a host's requests map onto TCP connections, and what that means for their bytes: HTTP/1.1's
/// pool of connections, each carrying one response at a time (`HTTP11Pool`), or HTTP/2's one
/// connection a host, carrying every response on it as a stream (`HTTP2Connections`). The network
/// holds the connections (`TCPConnection`) and the exchanges under way (`Exchange`, in the order
/// they were made); its pool decides which connection a request takes, what a cancel does, how a
/// connection's round is shared among its responses and queued, and which senders' rounds may
/// still be arriving at the buffer.
protocol ConnectionPool: AnyObject {
    /// Whether a connection's responses share one TCP byte stream, so that a response whose bytes
    /// have all left still waits while any of the connection's lost bytes are unrepaired
    /// (head-of-line blocking), and a round or a reset can release the ones waiting.
    var streamsShareOneByteStream: Bool { get }

    /// The connection a request to `host` at `now` goes on, and whether it opens it; a new one
    /// is made by `open(slot)`, which places it in the table. O(connections).
    func acquire(_ host: SimulatedNetwork.Host, at now: Int64, connections: inout [TCPConnection], exchanges: [Exchange],
                 open: (_ slot: Int) -> TCPConnection) -> (slot: Int, opened: Bool)

    /// The app cancels exchange `index` at `now`. Returns whether the network goes on as for any
    /// ended exchange (keeping it while its bytes drain, else forgetting it); `false` when the
    /// pool kept the exchange going in another form (HTTP/2: a reset stream, a handshake handed
    /// over). `resetArrives(c)` is when an RST_STREAM sent now on connection `c` reaches the
    /// server. O(exchanges).
    func cancel(_ index: Int, at now: Int64, connections: inout [TCPConnection], exchanges: inout [Exchange],
                resetArrives: (_ connection: Int) -> Int64) -> Bool

    /// Of the `bytes` connection `c`'s window lets out at `now`, what its responses take: the
    /// round's bytes, which `queue` then places. `roundTrip`: the round trip now. O(streams log
    /// streams).
    func share(_ bytes: Double, on c: Int, at now: Int64, roundTrip: Int64, connections: [TCPConnection], exchanges: [Exchange],
               wirePerPayload: Double) -> Double

    /// The round of `bytes` on connection `c`, sent for exchange `driver`'s event, lost `loss` at
    /// the door: its surviving bytes join the buffer as chunks of their responses (or of the TLS
    /// flight), each response counts what it still owes, and the sender is told the total.
    /// `waitingForTimer`: the losses wait for the timer already running. O(streams).
    func queue(_ bytes: Double, loss: RoundLoss, on c: Int, driver: Int, waitingForTimer: Bool, connections: inout [TCPConnection],
               exchanges: inout [Exchange], bottleneck: inout Bottleneck, wirePerPayload: Double)

    /// The wire bytes of the senders' clocked rounds still on their way to the buffer at `now`,
    /// subtracted from `queued` (what the buffer counts), each sender once. O(exchanges).
    func arrived(_ queued: Double, at now: Int64, connections: [TCPConnection], exchanges: [Exchange]) -> Double

    /// The counts of connection `c`'s responses changed (a reset stream's bytes no longer owed):
    /// its sender is told what they owe. O(exchanges).
    func responsesChanged(on c: Int, connections: inout [TCPConnection], exchanges: [Exchange])

    /// Connection `c`'s retransmission timer fired: no response's bytes wait for it any more.
    /// O(exchanges).
    func timerFired(on c: Int, connections: inout [TCPConnection], exchanges: inout [Exchange])

    /// Connection `c`'s fast recovery lost `doomed` of the `lost` bytes' retransmissions to a
    /// full buffer: they wait for the timer, each response's in proportion to its losses.
    /// O(exchanges).
    func retransmissionsLost(_ doomed: Double, of lost: Double, on c: Int, connections: inout [TCPConnection],
                             exchanges: inout [Exchange])

    /// Exchange `i`'s response has started at `now` on connection `c`: whether it joins the
    /// transfer under way there (HTTP/2's streams share one) instead of starting one of its own.
    /// `roundTrip`: the round trip now. O(exchanges).
    func joinsTransfer(_ i: Int, on c: Int, at now: Int64, roundTrip: Int64, connections: inout [TCPConnection],
                       exchanges: [Exchange]) -> Bool
}

extension ConnectionPool {
    /// An idle open connection to `host` (the most recently used, closing those idle longer than
    /// `idleTimeout`), taken at `now`; else a new one (`open`) in the slot of a closed one no
    /// exchange still names, so the slots stay as many as the connections open at once.
    /// O(connections × exchanges) at worst.
    func idleOrNew(_ host: SimulatedNetwork.Host, at now: Int64, idleTimeout: Int64, restartAfterIdle: Bool,
                   connections: inout [TCPConnection], exchanges: [Exchange],
                   open: (_ slot: Int) -> TCPConnection) -> (slot: Int, opened: Bool) {
        var best: Int?
        for i in connections.indices where connections[i].host == host && connections[i].isIdle {
            if now - connections[i].idleSince > idleTimeout {
                connections[i].close()
            } else if best == nil || connections[i].idleSince >= connections[best!].idleSince {
                best = i
            }
        }
        if let best {
            connections[best].take(at: now, restartAfterIdle: restartAfterIdle)
            return (best, false)
        }
        if let slot = connections.indices.first(where: { slot in connections[slot].isClosed && !exchanges.contains { $0.connection == slot } }) {
            connections[slot] = open(slot)
            return (slot, true)
        }
        connections.append(open(connections.count))
        return (connections.count - 1, true)
    }
}
