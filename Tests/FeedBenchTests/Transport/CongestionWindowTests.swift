import Testing
@testable import FeedBench

/// A TCP sender's window a round at a time: slow start doubles it while the sender has data
/// it holds back, CUBIC's decrease is β = 0.7, a timeout collapses it to a segment and doubles
/// the next timeout, and an idle connection restarts as Linux's does.
@Suite struct CongestionWindowTests {
    static let segment = 1_448.0
    static let roundTrip: Int64 = 100_000_000

    static func fresh() -> CongestionWindow { CongestionWindow(initialSegments: 10, segmentBytes: 1_448) }

    @Test func slowStartDoublesOnlyWhileDataWaitsBehindTheWindow() {
        var window = Self.fresh()
        #expect(window.window == 10 * Self.segment && window.inSlowStart)
        window.roundAcknowledged(bytes: window.window, waiting: 1_000_000, at: Self.roundTrip, roundTrip: Self.roundTrip)
        #expect(window.window == 20 * Self.segment)
        // Twelve segments were left: each acknowledgement lets out its bytes and as many again,
        // so the window grows by six (ns-3 and Linux: 40 → 46 on the last round of a transfer).
        var ending = window
        ending.roundAcknowledged(bytes: ending.window, waiting: 12 * Self.segment, at: 2 * Self.roundTrip, roundTrip: Self.roundTrip)
        #expect(ending.window == 26 * Self.segment)
        // Nothing waiting (the transfer is done, or a TLS flight of three segments): no growth.
        var idle = window
        idle.roundAcknowledged(bytes: 3 * Self.segment, waiting: 0, at: 2 * Self.roundTrip, roundTrip: Self.roundTrip)
        #expect(idle.window == window.window)
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
}
