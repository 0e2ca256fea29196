import Testing
@testable import FeedBench

/// Events come out by time, and by scheduling order at equal times; time only moves forward.
@Suite struct EventQueueTests {
    @Test func ordersByTimeThenBySequence() {
        var queue = EventQueue<String>()
        queue.schedule("c", at: 30)
        queue.schedule("a1", at: 10)
        queue.schedule("b", at: 20)
        queue.schedule("a2", at: 10)
        queue.schedule("a3", at: 10)
        var seen: [String] = []
        var times: [Int64] = []
        while let (time, event) = queue.next() {
            seen.append(event)
            times.append(time)
            #expect(queue.now == time)
        }
        #expect(seen == ["a1", "a2", "a3", "b", "c"])
        #expect(times == [10, 10, 10, 20, 30])
    }

    @Test func relativeSchedulingCountsFromNow() {
        var queue = EventQueue<Int>(startingAt: 100)
        queue.schedule(1, after: 5)
        _ = queue.next()
        queue.schedule(2, after: 5)
        #expect(queue.next()?.time == 110)
    }

    @Test(arguments: 0..<5)
    func randomSchedulesComeOutSorted(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var queue = EventQueue<Int>()
        for i in 0..<2000 { queue.schedule(i, at: Int64(generator.next(below: 50))) }
        var last: (Int64, Int) = (-1, -1)
        while let (time, index) = queue.next() {
            #expect(time > last.0 || (time == last.0 && index > last.1))
            last = (time, index)
        }
    }

    @Test func removeAllDropsEventsAndAdvanceMovesTheClock() {
        var queue = EventQueue<Int>()
        queue.schedule(1, at: 5)
        queue.removeAll()
        #expect(queue.next() == nil)
        queue.advance(to: 1_000)
        #expect(queue.now == 1_000)
    }
}
