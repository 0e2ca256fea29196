/// A connection's TCP sender, a round trip at a time: its congestion window, the bytes it owes
/// (the TLS flight, then the responses), those in the bottleneck buffer, the round under way, the
/// loss that round met and how it will be repaired (fast retransmit, or the retransmission
/// timer), and how the last clocked round reaches the buffer. It lives as long as its connection;
/// a request that takes an idle connection starts its transfer afresh, keeping the window.
///
/// A round goes in three steps the network drives, because the buffer and the HTTP streams are
/// not the sender's: `sendable(within:)` says what the window lets out, `beginRound` takes the
/// bytes the streams give it, and `roundSent` learns what the buffer's door lost of them;
/// `endRoundTrip` then learns, a round trip later, how the round went. The loss-recovery rules
/// fitted to ns-3 are `FittedRecoveryRules`'. Payload bytes unless named `Wire`.
struct TCPSender: Sendable {
    private(set) var window: CongestionWindow
    /// Bytes still to send (the connection's streams' sum over HTTP/2), and of those the ones
    /// whose retransmissions were lost: only the retransmission timer resends them.
    private(set) var unsent = 0.0
    private(set) var awaitingTimeout = 0.0
    /// Wire bytes of its rounds in the buffer, and their chunks: none left means nothing of it is
    /// queued.
    private(set) var queuedWire = 0.0
    private(set) var queuedChunks = 0
    /// The round under way: its bytes (those that got through, once sent), and when it left.
    private(set) var roundBytes = 0.0
    private(set) var roundStartedAt: Int64 = 0
    /// Whether the rounds are clocked by acknowledgements yet (after the first).
    private(set) var clocked = false
    /// Whether this round carries fast retransmit's retransmissions: losing one of them waits
    /// for the timeout (no RACK in the reference; Linux would often do better).
    private(set) var recovering = false
    /// When the next round goes (`nil`: nothing to send until a stream has bytes).
    private(set) var nextRound: Int64?
    private(set) var pendingLoss = PendingLoss.none
    /// The last round's lost bytes, and those acknowledged before its first loss.
    private(set) var lostInRound = 0.0
    private(set) var acknowledgedBeforeLoss = 0.0
    /// When the retransmission timer fires (`nil`: it is not running); losses meanwhile wait for
    /// it too.
    private(set) var timeoutAt: Int64?
    /// How the last clocked round reaches the buffer.
    private(set) var arrival = Arrival()
    /// Whether fast retransmit has started a recovery on this connection yet: slow start's first
    /// overshoot is then behind it.
    private(set) var hasRecovered = false
    /// Whether the pending recovery ends that first overshoot (`FittedRecoveryRules.overshoots`).
    private(set) var overshot = false

    init(network: NetworkProfile) {
        window = CongestionWindow(initialSegments: network.initialWindowSegments, segmentBytes: network.maxSegmentBytes,
                                  bottleneckBitsPerSecond: network.bitsPerSecond, clockPausesWhenIdle: network.cubicPausesWhenIdle)
    }

    /// Whether bytes are still to send, queued, or waiting for a loss's repair. O(1).
    var isUnderWay: Bool { unsent > 0 || queuedChunks > 0 || pendingLoss != .none || timeoutAt != nil }

    /// The retransmission timeout, as the window's round-trip estimate sets it. O(1).
    var timeout: Int64 { window.timeout }

    // MARK: Transfers

    /// The transfer of an idle connection starts afresh: nothing owed, queued, lost or timed,
    /// its next first round a burst; the window and the recovery history stay. O(1).
    mutating func startAfresh() {
        unsent = 0
        awaitingTimeout = 0
        queuedWire = 0
        queuedChunks = 0
        roundBytes = 0
        roundStartedAt = 0
        clocked = false
        recovering = false
        nextRound = nil
        pendingLoss = .none
        lostInRound = 0
        acknowledgedBeforeLoss = 0
        timeoutAt = nil
        arrival = Arrival()
    }

    /// A new transfer of `bytes` starts: its first round will be a burst, and no loss or timer
    /// carries over. O(1).
    mutating func start(_ bytes: Double) {
        unsent = bytes
        roundBytes = 0
        clocked = false
        pendingLoss = .none
        awaitingTimeout = 0
        timeoutAt = nil
    }

    /// Nothing more is sent (a cancel closed the connection); what is queued still drains. O(1).
    mutating func stop() {
        unsent = 0
        nextRound = nil
        pendingLoss = .none
    }

    /// The bytes its streams still owe, and those of them waiting for the timer: HTTP/2's sums
    /// over the connection's streams. O(1).
    mutating func owe(_ bytes: Double, awaitingTimeout awaiting: Double) {
        unsent = bytes
        awaitingTimeout = awaiting
    }

    /// The bytes its one stream still owes (HTTP/1.1). O(1).
    mutating func owe(_ bytes: Double) {
        unsent = bytes
    }

    /// A stream joins the transfer under way at `now` (HTTP/2): when no round is due, the last
    /// round's acknowledgements, `roundTrip` after it left, clock the new bytes out. O(1).
    mutating func joined(at now: Int64, roundTrip: Int64) {
        if nextRound == nil { nextRound = max(now, roundStartedAt + roundTrip) }
    }

    /// `wire` bytes of its oldest queued chunk have left the buffer; `chunkLeft` when that was
    /// the chunk's last. O(1).
    mutating func served(_ wire: Double, chunkLeft: Bool) {
        if chunkLeft { queuedChunks -= 1 }
        queuedWire = chunkLeft && queuedChunks == 0 ? 0 : max(0, queuedWire - wire)
    }

    /// One chunk of its round joined the buffer. O(1).
    mutating func queuedChunk() {
        queuedChunks += 1
    }

    /// Its last bytes have left the buffer at `now` with nothing more to send: no round is due,
    /// and the window learns the last round's acknowledgements. O(1).
    mutating func finished(at now: Int64) {
        nextRound = nil
        window.lastRoundAcknowledged(bytes: roundBytes, at: now, roundTrip: now - roundStartedAt)
    }

    // MARK: The window

    /// A round trip measured (the SYN-ACK's). O(1).
    mutating func sample(roundTrip: Int64) {
        window.sample(roundTrip: roundTrip)
    }

    /// The connection is used again at `now` after being idle since `idleSince`: Linux's
    /// slow-start restart. O(log window).
    mutating func restartAfterIdle(since idleSince: Int64, at now: Int64) {
        window.restartAfterIdle(since: idleSince, at: now)
    }

    // MARK: Rounds

    /// The free window: the bytes still in the buffer hold it; those that have left it are
    /// acknowledged during the round now starting, freeing the window as the round goes. O(1).
    func room(wirePerPayload: Double) -> Double {
        max(0, window.window - queuedWire / wirePerPayload)
    }

    /// What the window lets out of `room` now: the bytes owed less those waiting for the timer.
    /// O(1).
    func sendable(within room: Double) -> Double {
        min(unsent - awaitingTimeout, room)
    }

    /// A round of `bytes` (what the streams gave of the window's `room`) leaves at `now`, a burst
    /// when the transfer's first; `roundTrip` is the path's with the buffer's wait. Returns
    /// whether there are bytes to send: without, the next round comes with the acknowledgements
    /// of what is in flight, or, when all that is left waits for the timer, when it fires. O(1).
    mutating func beginRound(_ bytes: Double, room: Double, burst: Bool, at now: Int64, roundTrip: Int64) -> Bool {
        if bytes > 0 { window.released(bytes, room: room, burst: burst) }
        clocked = true
        roundStartedAt = now
        roundBytes = bytes
        guard bytes > 0 else {
            let waitsForTimer = timeoutAt != nil && unsent <= awaitingTimeout
            nextRound = waitsForTimer ? timeoutAt : unsent > 0 ? now + roundTrip : nil
            return false
        }
        return true
    }

    /// The round begun at `now` met `loss` at the buffer's door, and its surviving bytes (`wire`
    /// in all) joined the buffer — the streams have counted what they still owe (`owe`): the
    /// sender sets how the round reaches the buffer, what it lost, and how a loss will be
    /// repaired (fast retransmit when three packets follow it and no recovery is under way; the
    /// timer otherwise, which a loss also waits for while it runs) and when the next round goes.
    /// O(1).
    mutating func roundSent(_ bytes: Double, loss: RoundLoss, burst: Bool, at now: Int64, roundTrip: Int64, path: Path) {
        let wire = bytes * path.wirePerPayload
        let lost = loss.wire / path.wirePerPayload
        let waitsForTimer = timeoutAt != nil
        queuedWire += wire - loss.wire
        if wire - loss.wire > 0 && !burst {
            // A slow-start round arrives at twice the rate it drains: over the time the link
            // takes to serve half of it (on a recorded link, from now on).
            let span = window.inSlowStart ? path.schedule.departure(of: wire / 2, from: now) - now : path.baseRoundTrip
            arrival = Arrival(wire: wire - loss.wire, start: now, span: max(1, span))
        }
        roundBytes = bytes - lost
        lostInRound = lost
        acknowledgedBeforeLoss = min(bytes - lost, Double(loss.beforeLoss) * path.segment)
        guard lost > 0 else {
            nextRound = unsent > 0 ? now + roundTrip : nil
            return
        }
        if waitsForTimer {
            // The timer already runs: this loss waits for it too (`endRoundTrip` keeps the next
            // round no later than the timer).
            awaitingTimeout += lost
            nextRound = now + roundTrip
            return
        }
        let after = FittedRecoveryRules.packetsAfterLoss(loss, lost: lost, unsent: unsent, slowStart: window.inSlowStart, segment: path.segment)
        if after >= 3 && !recovering {
            pendingLoss = .fastRecovery
            nextRound = now + roundTrip
            overshot = !hasRecovered && FittedRecoveryRules.overshoots(window: window.window, at: now, path: path)
            hasRecovered = true
        } else if after >= 3 && !path.holesComeInPairs {
            // Holes one by one: the recovery's retransmissions each took a freed slot, so what
            // its round lost is new data, which SACK repairs in the same recovery.
            nextRound = now + roundTrip
        } else {
            // The timer runs from the last acknowledgement, a round trip after the round left.
            pendingLoss = after >= 3 ? .failedRecovery : .timeout
            nextRound = now + roundTrip + window.timeout
        }
    }

    /// Whether the retransmission timer has fired by `now`. O(1).
    func timerFired(by now: Int64) -> Bool {
        timeoutAt.map { $0 <= now } ?? false
    }

    /// The retransmission timer fired at `now`: the lost retransmissions go again with the next
    /// round, from a window of one segment — a timeout during the recovery that lost them, its
    /// window in flight (what proportional rate reduction left it; ns-3's CUBIC takes the
    /// threshold from the window), or the recovery round's bytes and theirs if more; the
    /// threshold stays the recovery's when `keepingThreshold` (Linux). O(1).
    mutating func fireTimer(at now: Int64, keepingThreshold: Bool) {
        let flight = max(window.window, roundBytes + awaitingTimeout)
        window.timedOutInRecovery(keepingThreshold: keepingThreshold, flight: flight, at: now)
        awaitingTimeout = 0
        timeoutAt = nil
        recovering = false
        pendingLoss = .none
    }

    /// A round trip has passed since the round left, at `now`, its timer not fired: the window
    /// learns how the round went — acknowledged, or a loss repaired by fast retransmit, by the
    /// timeout, or by both — and a fast recovery's retransmissions meet the buffer holding
    /// `bufferMet` wire bytes (`arrivedWire` at `now`, read only for a fast recovery): the ones a
    /// full buffer drops (`FittedRecoveryRules.retransmissionsLostToAFullBuffer`) wait for a
    /// timer armed `roundTrip` and a timeout from now. Returns the bytes so doomed (0 for none)
    /// and the round's lost bytes they are of. O(1).
    mutating func endRoundTrip(at now: Int64, bufferMet: Double, roundTrip: Int64, keepingThreshold: Bool,
                               path: Path) -> (doomed: Double, of: Double) {
        let elapsed = now - roundStartedAt
        let loss = pendingLoss
        let slowStart = window.inSlowStart
        switch loss {
        case .none:
            window.sample(roundTrip: elapsed)
            // A recovery waiting for its timer does not grow the window.
            if timeoutAt == nil {
                window.roundAcknowledged(bytes: roundBytes, waiting: unsent, at: now, roundTrip: elapsed)
            }
        case .fastRecovery, .failedRecovery:
            if loss == .fastRecovery { window.sample(roundTrip: elapsed) }
            window.acknowledgedBeforeLoss(acknowledgedBeforeLoss, at: now, roundTrip: elapsed)
            window.fastRecovery(at: now)
            if loss == .failedRecovery {
                window.timedOutInRecovery(keepingThreshold: keepingThreshold, flight: roundBytes + lostInRound, at: now)
            }
        case .timeout:
            window.timedOut(at: now)
        }
        var doomed = 0.0
        if loss == .fastRecovery
            && FittedRecoveryRules.retransmissionsMeetAFullBuffer(self, met: bufferMet, slowStart: slowStart, path: path) {
            doomed = min(lostInRound, Double(FittedRecoveryRules.retransmissionsLostToAFullBuffer) * path.segment)
            awaitingTimeout += doomed
            if timeoutAt == nil { timeoutAt = now + roundTrip + window.timeout }
        }
        recovering = loss == .fastRecovery
        pendingLoss = .none
        return (doomed, lostInRound)
    }

    /// After the round that followed `endRoundTrip`: the next round comes no later than the timer.
    /// O(1).
    mutating func keepNextRoundWithinTimer() {
        guard let timeoutAt else { return }
        nextRound = min(nextRound ?? .max, timeoutAt)
    }

    /// How a clocked round reaches the buffer: spread over a span, not at its start — a
    /// slow-start round over the time half of it takes to drain (two packets for each one
    /// acknowledged), a congestion-avoidance round over the path's round trip. The model queues
    /// the whole round at its start; a burst arriving meanwhile meets only what has arrived
    /// (`SimulatedNetwork.arrivedWire`). Fitted: traced on 3g's browsing, adopted on the check's
    /// sessions, seeds 1–8 (`Validation/ns3/decisions/011-a-burst-meets-what-has-arrived.md`).
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
