import Testing
@testable import FeedBench

/// A TCP sender's window a round at a time: slow start doubles it while the sender has data
/// it holds back (or its last send filled the window) until a loss or HyStart ends it, CUBIC's decrease is β = 0.7, a timeout
/// collapses it to a segment and doubles the next timeout, and an idle connection restarts as
/// Linux's does.
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
        window.lastRoundAcknowledged(bytes: 11.5 * Self.segment, at: 3 * Self.roundTrip)
        #expect(window.window == 51.5 * Self.segment)
        // A last round that leaves more than a segment unused adds nothing.
        var spare = Self.fresh()
        spare.released(10.5 * Self.segment, room: 40 * Self.segment, burst: false)
        spare.lastRoundAcknowledged(bytes: 10.5 * Self.segment, at: Self.roundTrip)
        #expect(spare.window == 10 * Self.segment)
        // A burst fills the window when less than a segment of it stays free: a response of
        // nine and a half segments in a window of ten does; a TLS flight of three does not.
        var burst = Self.fresh()
        burst.released(9.5 * Self.segment, room: 10 * Self.segment, burst: true)
        burst.lastRoundAcknowledged(bytes: 9.5 * Self.segment, at: Self.roundTrip)
        #expect(burst.window == 19.5 * Self.segment)
        var flight = Self.fresh()
        flight.released(3 * Self.segment, room: 10 * Self.segment, burst: true)
        flight.lastRoundAcknowledged(bytes: 3 * Self.segment, at: Self.roundTrip)
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
            window.roundAcknowledged(bytes: window.window, waiting: 10_000_000, at: Int64(round) * Self.roundTrip, roundTrip: Self.roundTrip)
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
            window.roundAcknowledged(bytes: window.window, waiting: 100_000_000, at: 3 * Self.roundTrip, roundTrip: Self.roundTrip)
            let before = window.window
            // Ten seconds idle, then a round with plenty to send.
            window.roundAcknowledged(bytes: window.window, waiting: 100_000_000, at: 10_000_000_000, roundTrip: Self.roundTrip)
            return (before, window.window)
        }
        let linux = afterIdle(clockPauses: true), ns3 = afterIdle(clockPauses: false)
        #expect(linux.before == ns3.before, "the same until the idle")
        // Linux: 0.2 s into the epoch, CUBIC is still below the 40 segments it lost at.
        #expect(linux.after < 1.1 * linux.before && linux.after < 40 * Self.segment)
        // ns-3: 10 s into the epoch, far past them: the fastest growth CUBIC allows, half a round.
        #expect(ns3.after == 1.5 * ns3.before)
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
