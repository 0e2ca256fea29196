import Testing
@testable import FeedBench

/// A TCP sender's window a round at a time: slow start doubles it while the sender has data
/// it holds back (or its last send filled the window) until a loss or HyStart ends it,
/// congestion avoidance grows it for every acknowledged byte while the window limits the sender,
/// CUBIC's decrease is β = 0.7 of the window the loss found, a timeout collapses it to a segment
/// and doubles the next timeout, and an idle connection restarts as Linux's does.
@Suite struct CongestionWindowTests {
    static let segment = 1_448.0
    static let roundTrip: Int64 = 100_000_000

    static func fresh() -> CongestionWindow { CongestionWindow(initialSegments: 10, segmentBytes: 1_448) }

    @Test func slowStartDoublesOnlyWhileDataWaitsBehindTheWindow() {
        var window = Self.fresh()
        #expect(window.window == 10 * Self.segment && window.inSlowStart)
        window.roundAcknowledged(bytes: window.window, waiting: 1_000_000, at: Self.roundTrip, roundTrip: Self.roundTrip)
        #expect(window.window == 20 * Self.segment)
        // Ten and a half segments were left: each acknowledgement (of two segments) lets out
        // its bytes and as many again, so the window grows by half of them, and the last send
        // leaves a segment and a half of it unused: no growth after it.
        var ending = window
        ending.roundAcknowledged(bytes: ending.window, waiting: 10.5 * Self.segment, at: 2 * Self.roundTrip, roundTrip: Self.roundTrip)
        #expect(ending.window == 25.25 * Self.segment)
        // Nothing waiting (the transfer is done, or a TLS flight of three segments): no growth.
        var idle = window
        idle.roundAcknowledged(bytes: 3 * Self.segment, waiting: 0, at: 2 * Self.roundTrip, roundTrip: Self.roundTrip)
        #expect(idle.window == window.window)
    }

    @Test func aSlowStartWhoseLastSendFillsTheWindowGrowsOnEveryAcknowledgementAfterIt() {
        var window = Self.fresh()
        window.released(10 * Self.segment, room: 10 * Self.segment, burst: true)
        window.roundAcknowledged(bytes: 10 * Self.segment, waiting: 1_000_000, at: Self.roundTrip, roundTrip: Self.roundTrip)
        #expect(window.window == 20 * Self.segment)
        // Eleven and a half segments left: the last acknowledgement lets out three and a half,
        // leaving half a segment of the window unused — ns-3's sender stays cwnd-limited, and
        // every acknowledgement of the round grows the window, then every one of the last round.
        window.roundAcknowledged(bytes: 20 * Self.segment, waiting: 11.5 * Self.segment, at: 2 * Self.roundTrip, roundTrip: Self.roundTrip)
        #expect(window.window == 40 * Self.segment)
        window.released(11.5 * Self.segment, room: 40 * Self.segment, burst: false)
        window.lastRoundAcknowledged(bytes: 11.5 * Self.segment, at: 3 * Self.roundTrip, roundTrip: Self.roundTrip)
        #expect(window.window == 51.5 * Self.segment)
        // A last round that leaves more than a segment unused adds nothing.
        var spare = Self.fresh()
        spare.released(10.5 * Self.segment, room: 40 * Self.segment, burst: false)
        spare.lastRoundAcknowledged(bytes: 10.5 * Self.segment, at: Self.roundTrip, roundTrip: Self.roundTrip)
        #expect(spare.window == 10 * Self.segment)
        // A burst fills the window when less than a segment of it stays free: a response of
        // nine and a half segments in a window of ten does; a TLS flight of three does not.
        var burst = Self.fresh()
        burst.released(9.5 * Self.segment, room: 10 * Self.segment, burst: true)
        burst.lastRoundAcknowledged(bytes: 9.5 * Self.segment, at: Self.roundTrip, roundTrip: Self.roundTrip)
        #expect(burst.window == 19.5 * Self.segment)
        var flight = Self.fresh()
        flight.released(3 * Self.segment, room: 10 * Self.segment, burst: true)
        flight.lastRoundAcknowledged(bytes: 3 * Self.segment, at: Self.roundTrip, roundTrip: Self.roundTrip)
        #expect(flight.window == 10 * Self.segment)
    }

    @Test func aLossCutsTheWindowToSevenTenthsAndCongestionAvoidanceGrowsItBack() {
        var window = Self.fresh()
        for round in 1...4 {
            window.roundAcknowledged(bytes: window.window, waiting: 10_000_000, at: Int64(round) * Self.roundTrip, roundTrip: Self.roundTrip)
        }
        let before = window.window
        window.fastRecovery(at: 5 * Self.roundTrip)
        #expect(abs(window.window - 0.7 * before) < 1 && !window.inSlowStart)
        var last = window.window
        for round in 6...70 {
            Self.fullRound(&window, at: Int64(round) * Self.roundTrip)
            #expect(window.window >= last && window.window <= 1.5 * last + 1, "round \(round)")
            last = window.window
        }
        // CUBIC's plateau lasts K = ∛(160 × 0.3 / 0.4) ≈ 4.9 s of sending; then it grows past it.
        #expect(window.window > before, "CUBIC passes the window before the loss after its plateau")
    }

    @Test func aTimeoutCollapsesTheWindowAndDoublesTheNextTimeout() {
        var window = Self.fresh()
        #expect(window.timeout == 1_000_000_000, "1 s before any round trip is measured (RFC 6298)")
        window.sample(roundTrip: 20_000_000)
        #expect(window.timeout == 200_000_000, "at least 200 ms, as Linux")
        window.sample(roundTrip: 300_000_000)
        let first = window.timeout
        window.timedOut(at: 0)
        #expect(window.window == Self.segment && window.inSlowStart)
        #expect(window.timeout == 2 * first)
        window.timedOut(at: 0)
        #expect(window.timeout == 4 * first)
    }

    @Test func aTimeoutDuringFastRecoveryKeepsTheRecoverysThresholdAsLinuxOrTakesSevenTenthsOfTheFlightAsNS3() {
        var window = Self.fresh()
        for round in 1...4 {
            window.roundAcknowledged(bytes: window.window, waiting: 10_000_000, at: Int64(round) * Self.roundTrip, roundTrip: Self.roundTrip)
        }
        window.fastRecovery(at: 5 * Self.roundTrip)
        #expect(window.threshold == 112 * Self.segment, "β of the 160 segments the loss found")
        let first = window.timeout
        // Linux: `tcp_enter_loss` from the recovery state leaves the threshold as it is.
        var linux = window
        linux.timedOutInRecovery(keepingThreshold: true, flight: 30 * Self.segment, at: 6 * Self.roundTrip)
        #expect(linux.threshold == 112 * Self.segment && linux.window == Self.segment && linux.timeout == 2 * first)
        // ns-3: β of the 30 segments in flight, whole segments.
        var ns3 = window
        ns3.timedOutInRecovery(keepingThreshold: false, flight: 30.5 * Self.segment, at: 6 * Self.roundTrip)
        #expect(ns3.threshold == 21 * Self.segment && ns3.window == Self.segment && ns3.timeout == 2 * first)
        // A plain timeout cuts β of the window again: β² of the window the loss found.
        var plain = window
        plain.timedOut(at: 6 * Self.roundTrip)
        #expect(abs(plain.threshold - 0.49 * 160 * Self.segment) < 1)
    }

    @Test func anIdleConnectionHalvesItsWindowForEveryTimeoutItWasIdleDownToTheInitialWindow() {
        var window = Self.fresh()
        for round in 1...4 {
            window.roundAcknowledged(bytes: window.window, waiting: 10_000_000, at: Int64(round) * Self.roundTrip, roundTrip: Self.roundTrip)
        }
        window.sample(roundTrip: Self.roundTrip)
        #expect(window.window == 160 * Self.segment)
        var brief = window
        brief.restartAfterIdle(since: 0, at: brief.timeout / 2)
        #expect(brief.window == 160 * Self.segment, "shorter than a timeout: unchanged")
        var once = window
        once.restartAfterIdle(since: 0, at: once.timeout + once.timeout / 2)
        #expect(once.window == 80 * Self.segment)
        var long = window
        long.restartAfterIdle(since: 0, at: 60_000_000_000)
        #expect(long.window == 10 * Self.segment)
    }

    @Test func cubicsClockStopsWhileTheConnectionIsIdleAsLinuxsDoesOrRunsOnAsNS3sDoes() {
        func afterIdle(clockPauses: Bool) -> (before: Double, after: Double) {
            var window = CongestionWindow(initialSegments: 10, segmentBytes: 1_448, clockPausesWhenIdle: clockPauses)
            Self.grown(&window, rounds: 2, roundTrip: Self.roundTrip)
            window.fastRecovery(at: 2 * Self.roundTrip)
            Self.fullRound(&window, at: 3 * Self.roundTrip)
            let before = window.window
            // Ten seconds idle, then a round with plenty to send.
            Self.fullRound(&window, at: 10_000_000_000)
            return (before, window.window)
        }
        let linux = afterIdle(clockPauses: true), ns3 = afterIdle(clockPauses: false)
        #expect(linux.before == ns3.before, "the same until the idle")
        // Linux: 0.2 s into the epoch, CUBIC is still below the 40 segments it lost at.
        #expect(linux.after < 1.1 * linux.before && linux.after < 40 * Self.segment)
        // ns-3: 10 s into the epoch, far past them: the fastest growth CUBIC allows, half a round.
        #expect(ns3.after == 1.5 * ns3.before)
    }

    @Test func congestionAvoidanceGrowsForEveryAcknowledgedByteWhileTheWindowLimitsTheSender() {
        // ns-3's clock after ten seconds idle: CUBIC's target is far above, so every two
        // segments acknowledged add one (TcpCubic::Update's count of at least 2).
        func afterIdle() -> CongestionWindow {
            var window = CongestionWindow(initialSegments: 10, segmentBytes: 1_448, clockPausesWhenIdle: false)
            Self.grown(&window, rounds: 2, roundTrip: Self.roundTrip)
            window.fastRecovery(at: 2 * Self.roundTrip)
            return window
        }
        let start = afterIdle().window
        var whole = afterIdle()
        Self.fullRound(&whole, at: 10_000_000_000)
        #expect(whole.window == 1.5 * start)
        // The same bytes in two rounds (the second sent while the first still filled the buffer)
        // grow it as much: the growth follows the acknowledgements, not the rounds.
        var halves = afterIdle()
        for half in 0..<2 {
            halves.released(start / 2, room: start / 2, burst: false)
            halves.roundAcknowledged(bytes: start / 2, waiting: 100_000_000, at: 10_000_000_000 + Int64(half), roundTrip: Self.roundTrip)
        }
        #expect(abs(halves.window - 1.5 * start) < 0.3 * Self.segment, "\(halves.window / Self.segment) segments")
        // A sender that left more than a segment of the window unused does not grow it, and
        // neither does the last round of a response that did not fill it.
        var short = afterIdle()
        short.released(start / 4, room: start, burst: false)
        short.roundAcknowledged(bytes: start / 4, waiting: 100_000_000, at: 10_000_000_000, roundTrip: Self.roundTrip)
        short.lastRoundAcknowledged(bytes: start / 4, at: 10_100_000_000, roundTrip: Self.roundTrip)
        #expect(short.window == start)
        // The last round of a response that filled it grows it like any other.
        var last = afterIdle()
        last.released(start, room: start, burst: false)
        last.lastRoundAcknowledged(bytes: start, at: 10_000_000_000, roundTrip: Self.roundTrip)
        #expect(last.window == 1.5 * start)
    }

    @Test func aLossCutsTheWindowItFoundGrownByTheAcknowledgementsBeforeIt() {
        // Slow start at 40 segments: the round's first 20 segments were acknowledged before the
        // loss showed (they grew the window to 60), so the cut is to 42, not 28.
        var window = Self.fresh()
        Self.grown(&window, rounds: 2, roundTrip: Self.roundTrip)
        window.released(40 * Self.segment, room: 40 * Self.segment, burst: false)
        window.acknowledgedBeforeLoss(20 * Self.segment, at: 3 * Self.roundTrip, roundTrip: Self.roundTrip)
        window.fastRecovery(at: 3 * Self.roundTrip)
        #expect(abs(window.window - 42 * Self.segment) < 1e-6 && window.threshold == window.window)
        // Nothing acknowledged before it, or a sender the window did not limit: the cut is of the
        // window as it was.
        var unlimited = Self.fresh()
        Self.grown(&unlimited, rounds: 2, roundTrip: Self.roundTrip)
        unlimited.released(10 * Self.segment, room: 40 * Self.segment, burst: false)
        unlimited.acknowledgedBeforeLoss(5 * Self.segment, at: 3 * Self.roundTrip, roundTrip: Self.roundTrip)
        unlimited.fastRecovery(at: 3 * Self.roundTrip)
        #expect(abs(unlimited.window - 28 * Self.segment) < 1e-6)
    }

    @Test func aLossBelowTheLastMaximumRemembersLessOfItAsFastConvergenceDoes() {
        var window = Self.fresh()
        Self.grown(&window, rounds: 3, roundTrip: Self.roundTrip)
        window.fastRecovery(at: 4 * Self.roundTrip)
        #expect(window.windowMax == 80 * Self.segment, "the first loss: the window it found")
        // The next loss finds 56 segments, below the 80 remembered: CUBIC's maximum becomes
        // 56 × (1 + 0.7) / 2 = 47.6 segments, making room for newer flows (RFC 9438 §4.7).
        window.fastRecovery(at: 5 * Self.roundTrip)
        #expect(abs(window.windowMax - 47.6 * Self.segment) < 1e-6)
        window.timedOut(at: 6 * Self.roundTrip)
        #expect(abs(window.windowMax - 39.2 * 0.85 * Self.segment) < 1e-6, "a timeout below it too")
    }

    /// A congestion-avoidance round of the whole window, the window filled by its release.
    static func fullRound(_ window: inout CongestionWindow, at now: Int64) {
        window.released(window.window, room: window.window, burst: false)
        window.roundAcknowledged(bytes: window.window, waiting: 100_000_000, at: now, roundTrip: Self.roundTrip)
    }

    /// Slow start for `rounds` full rounds of `roundTrip` each, with plenty waiting.
    static func grown(_ window: inout CongestionWindow, rounds: Int, roundTrip: Int64, from start: Int64 = 0) {
        for round in 1...rounds {
            window.roundAcknowledged(bytes: window.window, waiting: 100_000_000, at: start + Int64(round) * roundTrip, roundTrip: roundTrip)
        }
    }

    @Test func hyStartEndsSlowStartWhenARoundTripExceedsTheMinimumByTheMinimum() {
        var window = Self.fresh()
        Self.grown(&window, rounds: 1, roundTrip: Self.roundTrip)
        #expect(window.window == 20 * Self.segment && window.inSlowStart)
        // 190 ms against a minimum of 100 ms: within the threshold, slow start goes on.
        window.roundAcknowledged(bytes: window.window, waiting: 100_000_000, at: 3 * Self.roundTrip, roundTrip: 190_000_000)
        #expect(window.window == 40 * Self.segment && window.inSlowStart)
        // 210 ms: the queue has added more than the minimum. The window keeps what the round's
        // first sixteen acknowledged segments added, and slow start ends there.
        window.roundAcknowledged(bytes: window.window, waiting: 100_000_000, at: 5 * Self.roundTrip, roundTrip: 210_000_000)
        #expect(window.window == 56 * Self.segment && !window.inSlowStart)
        #expect(window.threshold == window.window)
    }

    @Test func hyStartLooksOnlyAtWindowsOfSixteenSegmentsAndForgetsItsMinimumAtATimeout() {
        var small = Self.fresh()
        small.roundAcknowledged(bytes: small.window, waiting: 100_000_000, at: Self.roundTrip, roundTrip: Self.roundTrip)
        var fresh = Self.fresh()
        fresh.roundAcknowledged(bytes: fresh.window, waiting: 100_000_000, at: Self.roundTrip, roundTrip: 5 * Self.roundTrip)
        #expect(fresh.inSlowStart, "10 segments: below HyStart's low window")
        #expect(small.inSlowStart)
        // A timeout resets the minimum: round trips of 300 ms after it are measured against 300 ms.
        var window = Self.fresh()
        Self.grown(&window, rounds: 4, roundTrip: Self.roundTrip)
        window.timedOut(at: 5 * Self.roundTrip)
        Self.grown(&window, rounds: 6, roundTrip: 300_000_000, from: 5 * Self.roundTrip)
        #expect(window.inSlowStart && window.window == 64 * Self.segment, "300 ms is the new minimum: \(window.window / Self.segment)")
    }

    @Test func hyStartsTrainDetectorEndsSlowStartOnceARoundTakesLongerThanTheMinimumToLeaveAFastLink() {
        // wifi's 40 Mbit/s: 20 segments take 6 ms to leave, longer than the 2 ms round trip.
        var fast = CongestionWindow(initialSegments: 10, segmentBytes: 1_448, bottleneckBitsPerSecond: 40_000_000)
        fast.roundAcknowledged(bytes: fast.window, waiting: 100_000_000, at: 2_000_000, roundTrip: 2_000_000)
        #expect(fast.inSlowStart, "10 segments: below the low window")
        fast.roundAcknowledged(bytes: fast.window, waiting: 100_000_000, at: 4_000_000, roundTrip: 2_000_000)
        #expect(!fast.inSlowStart && fast.window == 36 * Self.segment)
        // dsl's 2 Mbit/s: acknowledgements 12 ms apart are no train.
        var slow = CongestionWindow(initialSegments: 10, segmentBytes: 1_448, bottleneckBitsPerSecond: 2_000_000)
        Self.grown(&slow, rounds: 3, roundTrip: 10_000_000)
        #expect(slow.inSlowStart && slow.window == 80 * Self.segment)
    }
}
