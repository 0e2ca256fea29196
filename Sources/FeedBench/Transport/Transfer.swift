/// What a connection is sending, a round trip at a time: the bytes still to send and those in
/// the bottleneck buffer, the round under way, the loss it met and how it will be repaired, and
/// the retransmission timer. It belongs to the connection (`TCPConnection.transfer`), as TCP's
/// state does: HTTP/1.1 puts one response (or the server's TLS flight) through it at a time,
/// and a request that takes an idle connection starts it afresh. Payload bytes unless named
/// `Wire`.
struct Transfer: Sendable {
    var unsent = 0.0
    var queuedWire = 0.0
    /// The buffer's chunks of this transfer: none left means nothing of it is queued.
    var queuedChunks = 0
    var roundBytes = 0.0
    var roundStartedAt: Int64 = 0
    /// Whether the rounds are clocked by acknowledgements yet (after the first).
    var clocked = false
    /// Whether this round carries fast retransmit's retransmissions: losing one of them
    /// waits for the timeout (no RACK in the reference; Linux would often do better).
    var recovering = false
    var nextRound: Int64 = .max
    var pendingLoss = PendingLoss.none
    /// The last round's lost bytes, and those acknowledged before its first loss.
    var lostInRound = 0.0
    var acknowledgedBeforeLoss = 0.0
    /// Bytes whose retransmissions were lost: only the retransmission timer resends them.
    var awaitingTimeout = 0.0
    /// How many of fast retransmit's retransmissions a full buffer drops: SACK's recovery sends
    /// them two at a time on acknowledgements of two segments, and the second of each pair finds
    /// the buffer full until the recovery's slower sending drains it. ns-3 3.44's doomed
    /// recoveries on the check's reading sessions (seeds 1–8, HTTP/1.1) lost 1 in 65 of 149,
    /// 2 in 25, 3 in 22 and more in 37: a median of 2 (docs/network.md, "Only the lost
    /// retransmissions wait for the timer").
    static let retransmissionsLostToAFullBuffer = 2
    /// When that timer fires (`.max`: it is not running); losses meanwhile wait for it too.
    var timeoutAt: Int64 = .max
    /// How the last clocked round reaches the buffer.
    var arrival = Arrival()

    /// Whether bytes are still to send, queued, or waiting for a loss's repair. O(1).
    var isUnderWay: Bool { unsent > 0 || queuedChunks > 0 || pendingLoss != .none || timeoutAt != .max }

    /// A new transfer of `bytes` starts: its first round will be a burst, and no loss or timer
    /// carries over. O(1).
    mutating func start(_ bytes: Double) {
        unsent = bytes
        roundBytes = 0
        clocked = false
        pendingLoss = .none
        awaitingTimeout = 0
        timeoutAt = .max
    }

    /// Nothing more is sent (a cancel closed the connection); what is queued still drains. O(1).
    mutating func stop() {
        unsent = 0
        nextRound = .max
        pendingLoss = .none
    }

    /// The retransmission timer fired: the bytes it held go again with the next round, which
    /// is no recovery, and no loss is pending. O(1).
    mutating func timerFired() {
        awaitingTimeout = 0
        timeoutAt = .max
        recovering = false
        pendingLoss = .none
    }

    /// `wire` bytes of its oldest queued chunk have left the buffer; `chunkLeft` when that was
    /// the chunk's last. O(1).
    mutating func served(_ wire: Double, chunkLeft: Bool) {
        if chunkLeft { queuedChunks -= 1 }
        queuedWire = chunkLeft && queuedChunks == 0 ? 0 : max(0, queuedWire - wire)
    }

    /// A clocked round's bytes reach the buffer spread over a span, not at its start: a
    /// slow-start round over the time half of it takes to drain (two packets for each one
    /// acknowledged), a congestion-avoidance round over the path's round trip. The model queues
    /// the whole round at its start; a burst arriving meanwhile meets only what has arrived.
    struct Arrival: Sendable {
        var wire = 0.0
        var start: Int64 = 0
        var span: Int64 = 1

        /// The wire bytes of the round still on their way at `now`. O(1).
        func pending(at now: Int64) -> Double {
            let left = start + span - now
            return left > 0 ? wire * Double(left) / Double(span) : 0
        }
    }

    /// The payload bytes by which, in slow start, the acknowledgements of the last round's
    /// packets sent before its first loss raise the buffer by the time fast retransmit sends:
    /// each lets out two packets while one leaves, a rise of one, as far as the data still to
    /// send lasts; past that each only drains one. It counts only when three packets of the
    /// round got through after the loss, so that their duplicate acknowledgements come right
    /// behind: a round that lost its tail is detected a round later, when the rise has drained
    /// (ns-3 on lte: the launch's recovery times out in 15 of 16 HTTP/2 sessions; downloads
    /// whose bursts lost their tails recover). O(1).
    func riseBeforeRetransmission(segment: Double) -> Double {
        guard roundBytes - acknowledgedBeforeLoss >= 3 * segment else { return 0 }
        let left = max(0, unsent - lostInRound - awaitingTimeout)
        return acknowledgedBeforeLoss <= left / 2 ? acknowledgedBeforeLoss : max(0, left - acknowledgedBeforeLoss)
    }

    /// How the last round's loss is repaired when the next round starts.
    enum PendingLoss: Sendable {
        case none
        /// Fast retransmit: the window drops to β of itself.
        case fastRecovery
        /// The retransmission timeout: the window collapses to one segment.
        case timeout
        /// Fast retransmit that could not repair the round (it lost several packets), then the
        /// timeout: both decreases.
        case failedRecovery
    }
}
