import Foundation
@testable import FeedBench
import Testing

/// The wall clock takes its timers when the wall clock reaches them and what other threads post
/// at the time it arrived, in one order; it ends only when nothing is pending or expected.
@Suite struct WallClockTests {
    @Test func timersAndArrivalsComeInTimeOrderAtTheirTimes() {
        var clock = WallClock(frameInterval: 16_666_667)
        clock.schedule(.deadline(launch: 1), at: 400_000_000)
        clock.schedule(.deadline(launch: 0), at: 20_000_000)
        let inbox = clock.inbox
        inbox.expect()
        // A thread of its own: Dispatch's shared pool may be busy with the other tests.
        Thread.detachNewThread {
            usleep(40_000)
            inbox.post(.apiResponse(launch: 7))
        }
        var taken: [(Int64, SimulationEvent)] = []
        while let next = clock.next() {
            #expect(inbox.elapsed >= next.time, "taken before it was due")
            taken.append(next)
        }
        #expect(taken.count == 3)
        guard taken.count == 3 else { return }
        if case .deadline(0) = taken[0].1 {} else { Issue.record("the 20 ms timer first") }
        if case .apiResponse(7) = taken[1].1 {} else { Issue.record("the arrival second") }
        if case .deadline(1) = taken[2].1 {} else { Issue.record("the 400 ms timer last") }
        #expect(taken[1].0 >= 40_000_000 && taken[1].0 < 400_000_000, "the arrival at the time it was posted")
        #expect(clock.now == taken[2].0)
    }

    /// A run's time zero is when it starts, not when its clock was made: what it spent setting
    /// up before does not make its first events late.
    @Test func timeZeroIsTheStartNotTheClocksMaking() {
        var clock = WallClock(frameInterval: 16_666_667)
        usleep(50_000)
        #expect(clock.inbox.elapsed >= 50_000_000)
        clock.start()
        #expect(clock.inbox.elapsed < 50_000_000)
        clock.schedule(.frame(index: 0, launch: 0), at: 0)
        clock.schedule(.frame(index: 1, launch: 0), at: 16_666_667)
        _ = clock.next()
        #expect(clock.inbox.elapsed < 50_000_000, "the first frame is not late by the time before the start")
        _ = clock.next()
        #expect(clock.inbox.elapsed >= 16_666_667, "the second frame waited for its time from the start")
    }

    @Test func aFrameTakenMoreThanAFrameIntervalAfterItWasDueIsLate() {
        var clock = WallClock(frameInterval: 1_000_000)
        clock.schedule(.frame(index: 0, launch: 0), at: 0)
        clock.schedule(.frame(index: 1, launch: 0), at: 1)
        _ = clock.next()
        while clock.inbox.elapsed < 5_000_000 {}
        _ = clock.next()
        #expect(clock.framesLate == 1)
        #expect(clock.next() == nil)
    }
}
