import Testing
@testable import FeedBench

/// The rate limiter in front of the download queues: a burst goes at once, the rest wait and
/// are released in arrival order as tokens come, with one retry on the clock at a time.
@Suite struct RateLimitFrontTests {
    static let millisecond: Int64 = 1_000_000

    /// 40 tokens a second (one every 25 ms), bursts of 3; URLs 1…3 took the burst at 0 and
    /// 4…8 wait.
    static func spentBurst() -> RateLimitFront {
        var front = RateLimitFront(DownloadRateLimit(rate: 40, burst: 3))
        let admitted = (UInt64(1)...8).map { front.admit($0, at: 0) }
        #expect(admitted == [true, true, true, false, false, false, false, false])
        return front
    }

    /// Releases what `front` lets through at `now`.
    static func release(_ front: inout RateLimitFront, at now: Int64) -> [UInt64] {
        var urls: [UInt64] = []
        while let url = front.release(at: now) { urls.append(url) }
        return urls
    }

    @Test func withoutALimitEveryDownloadGoesOnAndNoRetryIsScheduled() {
        var front = RateLimitFront(nil)
        #expect((1...1_000).allSatisfy { front.admit(UInt64($0), at: 0) })
        #expect(front.waiting.isEmpty && front.retryToSchedule() == nil)
    }

    @Test func aBurstGoesAtOnceAndTheRestWaitInArrivalOrder() {
        let front = Self.spentBurst()
        #expect(front.waiting == [4, 5, 6, 7, 8])
    }

    @Test func waitingDownloadsAreReleasedInArrivalOrderAsTokensCome() {
        var front = Self.spentBurst()
        #expect(Self.release(&front, at: 52 * Self.millisecond) == [4, 5], "2.08 tokens by 52 ms")
        #expect(Self.release(&front, at: 60 * Self.millisecond) == [])
        #expect(Self.release(&front, at: 77 * Self.millisecond) == [6])
        #expect(Self.release(&front, at: 10_000 * Self.millisecond) == [7, 8], "never more than are waiting")
    }

    @Test func aNewDownloadWaitsBehindEarlierOnesEvenWhenATokenIsThere() {
        var front = Self.spentBurst()
        let admitted = front.admit(9, at: 1_000 * Self.millisecond)
        #expect(!admitted, "the bucket is full again, but 4…8 go first")
        #expect(Self.release(&front, at: 1_000 * Self.millisecond) == [4, 5, 6])
        #expect(front.waiting == [7, 8, 9])
    }

    @Test func oneRetryIsOnTheClockAtATimeAfterAboutTwoTokensTime() {
        var front = Self.spentBurst()
        #expect(front.retryToSchedule() == 52 * Self.millisecond, "2.1 × 25 ms, in whole milliseconds")
        #expect(front.retryToSchedule() == nil, "already scheduled")
        front.retryDue()
        #expect(front.retryToSchedule() == 52 * Self.millisecond, "downloads still wait")
        front.retryDue()
        #expect(Self.release(&front, at: 10_000 * Self.millisecond) == [4, 5, 6], "a full bucket's worth")
        #expect(Self.release(&front, at: 20_000 * Self.millisecond) == [7, 8])
        #expect(front.retryToSchedule() == nil, "nothing waits")
    }

    @Test func aWithdrawnDownloadLeavesTheLineWithoutAToken() {
        var front = Self.spentBurst()
        front.withdraw(4)
        front.withdraw(42)
        #expect(Self.release(&front, at: 52 * Self.millisecond) == [5, 6])
    }

    @Test func removingEverythingForgetsTheWaitingAndTheRetryButKeepsTheTokensSpent() {
        var front = Self.spentBurst()
        _ = front.retryToSchedule()
        front.removeAll()
        #expect(front.waiting.isEmpty && !front.retryScheduled)
        let admitted = front.admit(9, at: 0)
        #expect(!admitted, "the burst is still spent")
        #expect(front.retryToSchedule() != nil)
    }
}
