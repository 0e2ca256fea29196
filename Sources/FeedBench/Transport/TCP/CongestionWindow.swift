import Foundation

/// A TCP sender's congestion state, advanced a round trip at a time (not a packet at a time, so
/// runs stay cheap): slow start from the initial window, ended by a loss or by HyStart (CUBIC's
/// hybrid slow start, as Linux and the reference check's ns-3 run it), CUBIC's growth after it
/// (RFC 9438: C = 0.4, β = 0.7, with its Reno-friendly region and fast convergence) on every
/// acknowledgement while the window limits the sender, a multiplicative decrease on a loss (of
/// the window grown by the acknowledgements that came before it), a collapse to one segment on a
/// retransmission timeout, and Linux's slow-start restart after an idle longer than the timeout.
/// The window counts payload bytes.
///
/// The round-trip estimate follows RFC 6298 (one sample a round), its timeout at least 200 ms,
/// as Linux's and the reference check's.
struct CongestionWindow: Sendable {
    /// CUBIC's multiplicative decrease and growth constant (RFC 9438 §4.5, §5).
    static let beta = 0.7
    static let cubicC = 0.4
    static let minimumTimeout: Int64 = 200_000_000

    let segment: Double
    let initial: Double
    /// The congestion window and slow-start threshold, in bytes.
    private(set) var window: Double
    private(set) var threshold = Double.infinity
    /// CUBIC's window before the last decrease (bytes), and its epoch under way, if any.
    private(set) var windowMax = 0.0
    private var epoch: CubicEpoch?
    /// RFC 6298's smoothed round trip and its variation, in nanoseconds; `nil` before a sample.
    private var smoothed: Double?
    private var variation = 0.0
    /// How many timeouts in a row (each doubles the next).
    private var backoff = 0

    /// Whether CUBIC's clock counts only the epoch's sending time (Linux: idle does not count) or
    /// all the time since the epoch started (ns-3's `TcpCubic::Update`).
    let clockPausesWhenIdle: Bool
    /// Ends slow start on rising round trips or long acknowledgement trains.
    private var hyStart: HyStart
    /// Whether the last release left less than a segment of the window unused: ns-3's
    /// cwnd-limited state, set at each send (`TcpSocketBase::SendDataPacket`), under which the
    /// window grows on every acknowledgement until the next send — after a response's last bytes
    /// too (`TcpCubic::IncreaseWindow` grows nothing without it).
    private var filledAtLastRelease = false

    init(initialSegments: Int, segmentBytes: Int, bottleneckBitsPerSecond: Int64? = nil, clockPausesWhenIdle: Bool = true) {
        segment = Double(segmentBytes)
        self.clockPausesWhenIdle = clockPausesWhenIdle
        initial = Double(initialSegments) * segment
        window = initial
        hyStart = HyStart(bottleneckBitsPerSecond: bottleneckBitsPerSecond, segmentWire: segment + SimulatedNetwork.Sizes.headers)
    }

    var inSlowStart: Bool { window < threshold }

    /// The retransmission timeout: RFC 6298's, at least 200 ms, 1 s before any sample, doubled
    /// by each timeout in a row. O(1).
    var timeout: Int64 {
        let base = smoothed.map { max(Double(Self.minimumTimeout), $0 + max(1_000_000, 4 * variation)) } ?? 1e9
        return Int64(base) << min(backoff, 6)
    }

    /// A round trip measured (RFC 6298 §2). O(1).
    mutating func sample(roundTrip: Int64) {
        let r = Double(roundTrip)
        if let s = smoothed {
            variation = 0.75 * variation + 0.25 * abs(s - r)
            smoothed = 0.875 * s + 0.125 * r
        } else {
            smoothed = r
            variation = r / 2
        }
    }

    /// A round of `bytes` ended at `now` with every byte of it acknowledged, `waiting` bytes
    /// still to send. The window grows only while the sender's last send filled it (ns-3's
    /// cwnd-limited rule): slow start adds the bytes acknowledged — up to half of those waiting
    /// (each acknowledgement lets out its own bytes and as many again) unless the last of them
    /// fills the window, which then keeps growing through the round — and HyStart may end it on
    /// the round's `roundTrip` (whatever the sender had waiting); congestion avoidance grows it
    /// for each byte acknowledged (`growCongestionAvoidance`). O(1).
    mutating func roundAcknowledged(bytes: Double, waiting: Double, at now: Int64, roundTrip: Int64) {
        backoff = 0
        let leavesSlowStart = inSlowStart && hyStart.finds(roundTrip: roundTrip, acknowledged: bytes, window: window, segment: segment)
        guard waiting > 0 else {
            if leavesSlowStart { threshold = window; startEpoch(at: now) }
            return
        }
        if inSlowStart {
            // HyStart decides within the round's first samples: the window grows by those.
            let held = clockedReleaseFills(waiting) ? bytes : waiting / 2
            growSlowStart(by: min(bytes, held, leavesSlowStart ? HyStart.growthBeforeExit(segment: segment) : .infinity),
                          endingIt: leavesSlowStart, at: now)
            return
        }
        growCongestionAvoidance(acknowledged: bytes, at: now, roundTrip: roundTrip)
    }

    /// A response's last round of `bytes` acknowledged at `now`, `roundTrip` after it was sent:
    /// the window grows by all of it when its release filled the window (ns-3's flag holds after
    /// the last send), else not at all. O(1).
    mutating func lastRoundAcknowledged(bytes: Double, at now: Int64, roundTrip: Int64) {
        guard filledAtLastRelease else { return }
        if inSlowStart {
            growSlowStart(by: bytes, endingIt: false, at: now)
        } else {
            growCongestionAvoidance(acknowledged: bytes, at: now, roundTrip: roundTrip)
        }
    }

    /// The `bytes` of a round acknowledged before the first of its losses is seen, at `now`: the
    /// window grows by them as by any acknowledgement (slow start by all of them), so the
    /// decrease that follows starts from the window the loss found (ns-3's `GetSsThresh` takes
    /// the window at the third duplicate). O(1).
    mutating func acknowledgedBeforeLoss(_ bytes: Double, at now: Int64, roundTrip: Int64) {
        guard bytes > 0 && filledAtLastRelease else { return }
        if inSlowStart {
            window += bytes
        } else {
            growCongestionAvoidance(acknowledged: bytes, at: now, roundTrip: roundTrip)
        }
    }

    /// Congestion avoidance's growth for `bytes` acknowledged at `now` over a round of
    /// `roundTrip`: CUBIC's target a round trip ahead, on a clock of the epoch's sending time or,
    /// unless it pauses while idle, of all the time since the epoch started, or the Reno-friendly
    /// estimate if higher (RFC 9438 §4.3); each acknowledged segment adds the share of a segment
    /// that reaches the target in a window's worth of acknowledgements, at most half
    /// (`TcpCubic::Update`'s count of at least 2, Linux's too), and only while the window limits
    /// the sender. O(1).
    private mutating func growCongestionAvoidance(acknowledged bytes: Double, at now: Int64, roundTrip: Int64) {
        guard bytes > 0 else { return }
        var epoch = self.epoch ?? newEpoch(at: now)
        epoch.sending += roundTrip
        epoch.acknowledged += bytes
        self.epoch = epoch
        guard filledAtLastRelease else { return }
        let segments = window / segment
        let maxSegments = windowMax / segment
        let t = Double(epoch.elapsed(at: now, pausingWhenIdle: clockPausesWhenIdle) + roundTrip) / 1e9
        let k = cbrt(max(0, maxSegments * (1 - Self.beta) / Self.cubicC))
        let cubic = Self.cubicC * pow(t - k, 3) + maxSegments
        let alpha = 3 * (1 - Self.beta) / (1 + Self.beta)
        let reno = epoch.window / segment + alpha * epoch.acknowledged / window
        let target = max(cubic, reno)
        guard target > segments else { return }
        window += bytes * min(0.5, (target - segments) / segments)
    }

    /// Slow start adds `growth`, up to the threshold; `endingIt` (HyStart) sets the threshold
    /// at the new window. Reaching the threshold starts CUBIC's epoch. O(1).
    private mutating func growSlowStart(by growth: Double, endingIt: Bool, at now: Int64) {
        window = min(window + growth, max(threshold, window))
        if endingIt { threshold = window }
        if window >= threshold { startEpoch(at: now) }
    }

    /// `bytes` released into `room` bytes of free window: all at once (`burst`), or as a round's
    /// acknowledgements come back. O(1).
    mutating func released(_ bytes: Double, room: Double, burst: Bool) {
        filledAtLastRelease = bytes >= room || (burst ? room - bytes < segment : clockedReleaseFills(bytes))
    }

    /// Whether the last of `bytes` sent as acknowledgements come back leaves less than a segment
    /// of the window unused: each acknowledgement (of two segments: the receiver's delayed ACK)
    /// frees two segments, and in slow start adds two more; the last lets out what remains. O(1).
    private func clockedReleaseFills(_ bytes: Double) -> Bool {
        let perAcknowledgement = (inSlowStart ? 4 : 2) * segment
        let last = bytes - perAcknowledgement * ((bytes / perAcknowledgement).rounded(.up) - 1)
        return perAcknowledgement - last < segment
    }

    /// A loss recovered by fast retransmit at `now`: the window and threshold drop to β of the
    /// window, and a new CUBIC epoch starts. O(1).
    mutating func fastRecovery(at now: Int64) {
        rememberMaximum()
        window = max(2 * segment, window * Self.beta)
        threshold = window
        startEpoch(at: now)
    }

    /// A retransmission timeout at `now`: the threshold drops to β of the window, the window to
    /// one segment (slow start again), and the next timeout doubles. O(1).
    mutating func timedOut(at now: Int64) {
        rememberMaximum()
        threshold = max(2 * segment, window * Self.beta)
        collapse()
    }

    /// A retransmission timeout at `now` during fast recovery, `flight` bytes in flight: the
    /// window collapses to one segment and the next timeout doubles; the threshold stays the
    /// recovery's when `keepingThreshold` (Linux), else drops to β of the flight, CUBIC's maximum
    /// with it (ns-3: RFC 5681's FlightSize, shrunk by proportional rate reduction). O(1).
    mutating func timedOutInRecovery(keepingThreshold: Bool, flight: Double, at now: Int64) {
        if !keepingThreshold {
            window = max(segment, (flight / segment).rounded(.down) * segment)
            rememberMaximum()
            threshold = max(2 * segment, (window / segment * Self.beta).rounded(.down) * segment)
        }
        collapse()
    }

    /// What every timeout does: slow start again from one segment, the next timeout twice as
    /// long, CUBIC's epoch and HyStart's round forgotten. O(1).
    private mutating func collapse() {
        window = segment
        epoch = nil
        backoff += 1
        hyStart.timedOut()
    }

    /// The connection is used again at `now` after being idle since `idleSince`: with slow-start
    /// restart, the window halves for every timeout the idle lasted, down to the initial window
    /// (Linux's `tcp_cwnd_restart`). O(log window).
    mutating func restartAfterIdle(since idleSince: Int64, at now: Int64) {
        var idle = now - idleSince
        let restart = min(initial, window)
        let rto = timeout
        while idle > rto && window > restart {
            window /= 2
            idle -= rto
        }
        window = max(window, restart)
        epoch = nil
    }

    /// CUBIC's maximum at a decrease: the window, or with fast convergence (RFC 9438 §4.7, on in
    /// Linux and ns-3) less when the window is below the last maximum, yielding to newer flows.
    /// O(1).
    private mutating func rememberMaximum() {
        windowMax = window < windowMax ? window * (1 + Self.beta) / 2 : window
    }

    private mutating func startEpoch(at now: Int64) {
        epoch = newEpoch(at: now)
    }

    /// An epoch starting at `now` from the current window, which CUBIC's maximum is at least.
    private mutating func newEpoch(at now: Int64) -> CubicEpoch {
        if windowMax < window { windowMax = window }
        return CubicEpoch(start: now, window: window)
    }
}

/// One CUBIC epoch (RFC 9438 §4.2): from the window's last change by a loss or the end of slow
/// start, what its growth is reckoned from — when it began, the window then, the time the
/// connection has spent sending in it and the bytes acknowledged in it (for the Reno-friendly
/// estimate).
struct CubicEpoch: Sendable {
    let start: Int64
    let window: Double
    var sending: Int64 = 0
    var acknowledged = 0.0

    /// CUBIC's time in the epoch at `now`: the sending time alone when the clock pauses while
    /// idle (Linux), else all the time since it began (ns-3). O(1).
    func elapsed(at now: Int64, pausingWhenIdle: Bool) -> Int64 {
        pausingWhenIdle ? sending : now - start
    }
}
