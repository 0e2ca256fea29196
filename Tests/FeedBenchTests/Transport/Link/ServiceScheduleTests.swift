@testable import FeedBench
import Testing

/// A recorded schedule serves 1,500 bytes an opportunity of what is queued at that instant, as a
/// walk over its opportunities does; a constant recording is the fixed link of its rate, served
/// at whole milliseconds.
@Suite struct ServiceScheduleTests {
    static let ms: Int64 = 1_000_000

    /// Opportunities at 2, 2, 5 and 9 ms, repeating every 9 ms, read from 3 ms in.
    static let schedule = ServiceSchedule.recorded(DeliveryTrace(path: "t", milliseconds: [2, 2, 5, 9]), offset: 3 * ms)

    @Test func capacityCountsTheOpportunitiesAfterTheStartUpToTheEnd() {
        let s = Self.schedule
        // Run time 0 is the recording's 3 ms: its opportunities are at run times 2, 6, 8, 8, 11, 15, …
        #expect(s.capacity(from: 0, to: 1 * Self.ms) == 0)
        #expect(s.capacity(from: 0, to: 2 * Self.ms) == 1_500)
        #expect(s.capacity(from: 2 * Self.ms, to: 8 * Self.ms) == 4_500)
        #expect(s.capacity(from: 0, to: 15 * Self.ms) == 9_000)
        #expect(s.capacity(from: 5 * Self.ms, to: 5 * Self.ms) == 0 && s.capacity(from: 6 * Self.ms, to: 1) == 0)
        #expect(abs(s.wirePerNanosecond - 4 * 1_500 / Double(9 * Self.ms)) < 1e-15)
    }

    @Test func bytesLeaveAtTheOpportunityThatServesTheirLastByte() {
        let s = Self.schedule
        #expect(s.departure(of: 1, from: 0) == 2 * Self.ms)
        #expect(s.departure(of: 1_500, from: 0) == 2 * Self.ms)
        #expect(s.departure(of: 1_501, from: 0) == 6 * Self.ms)
        #expect(s.departure(of: 4_000, from: 3 * Self.ms) == 8 * Self.ms)
        #expect(s.departure(of: 4_500.000_000_001, from: 3 * Self.ms) == 8 * Self.ms, "a byte count a hair over whole opportunities is theirs")
        #expect(s.departure(of: 0, from: 4 * Self.ms) == 4 * Self.ms)
        // A byte arriving in a silence waits for the next opportunity; behind 1,500 bytes, for the one after.
        #expect(s.wait(behind: 0, from: 3 * Self.ms) == 3 * Self.ms)
        #expect(s.wait(behind: 1_500, from: 3 * Self.ms) == 5 * Self.ms)
        #expect(s.wait(behind: 1_499, from: 3 * Self.ms) == 3 * Self.ms, "what an opportunity leaves over serves the next in line")
    }

    /// On random recordings, the departure is the first opportunity time by which the capacity
    /// covers the bytes, and nothing earlier does: what a walk over the opportunities gives.
    @Test func theDepartureIsTheFirstTimeTheCapacityCoversTheBytes() {
        for seed in UInt64(1)...30 {
            var generator = SeededGenerator(seed: seed)
            var times: [UInt32] = []
            var now: UInt32 = 0
            for _ in 0..<(2 + Int(generator.next() % 20)) {
                now += UInt32(generator.next() % 3 == 0 ? generator.next() % 200 : generator.next() % 2)
                times.append(now)
            }
            if times.last == 0 { times.append(7) }
            let s = ServiceSchedule.recorded(DeliveryTrace(path: "r", milliseconds: times), offset: Int64(generator.next() % 50) * Self.ms)
            for _ in 0..<40 {
                let start = Int64(generator.next() % (400 * UInt64(Self.ms)))
                let wire = Double(1 + generator.next() % 20_000)
                let departure = s.departure(of: wire, from: start)
                #expect(s.capacity(from: start, to: departure) >= wire, "seed \(seed)")
                #expect(s.capacity(from: start, to: departure - 1) < wire, "seed \(seed)")
            }
        }
    }

    /// A recording of one opportunity a millisecond is 12 Mbit/s: over whole milliseconds it
    /// serves what the fixed link does, and bytes leave at a whole millisecond within one of the
    /// fixed link's departure.
    @Test func aConstantRecordingIsTheFixedLinkServedAtWholeMilliseconds() {
        let recorded = ServiceSchedule.recorded(DeliveryTrace(path: "1", milliseconds: [1]), offset: 0)
        let fixed = ServiceSchedule(bitsPerSecond: 12_000_000)
        #expect(recorded.wirePerNanosecond == fixed.wirePerNanosecond)
        for k in Int64(0)..<50 {
            #expect(abs(recorded.capacity(from: k * Self.ms, to: (k + 7) * Self.ms) - fixed.capacity(from: k * Self.ms, to: (k + 7) * Self.ms)) < 1e-6)
        }
        var generator = SeededGenerator(seed: 5)
        for _ in 0..<200 {
            let start = Int64(generator.next() % (100 * UInt64(Self.ms)))
            let wire = Double(1 + generator.next() % 30_000)
            let exact = fixed.departure(of: wire, from: start)
            let served = recorded.departure(of: wire, from: start)
            #expect(served % Self.ms == 0 && served >= exact - 1 - Self.ms && served <= exact + Self.ms)
        }
    }
}
