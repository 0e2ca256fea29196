import Testing
@testable import FeedBench

/// What a round loses at the bottleneck's door: a burst arrives all at once and loses its tail;
/// a slow-start round rises by half of itself, a congestion-avoidance round by what exceeds a
/// round trip of draining; what the buffer held before counts; random loss strikes packets.
@Suite struct RoundLossTests {
    /// 8 Mbit/s (a wire byte a microsecond), 10 packets of 1,500 wire bytes.
    static let bottleneck = Bottleneck(schedule: ServiceSchedule(bitsPerSecond: 8_000_000), packets: 10, packetWire: 1_500)
    static let segment = 1_448.0

    static func loss(_ segments: Double, burst: Bool, slowStart: Bool = true, queued: Double = 0, roundTrip: Int64 = 5_000_000,
                     random: Double = 0, seed: UInt64 = 1) -> RoundLoss {
        var generator = SeededGenerator(seed: seed, stream: 2)
        return bottleneck.loss(ofRound: segments * segment, at: 0, burst: burst, slowStart: slowStart, queuedBefore: queued, segment: segment,
                               baseRoundTrip: roundTrip, randomLoss: random, drawing: &generator)
    }

    @Test func aBurstLosesItsTail() {
        let loss = Self.loss(14, burst: true)
        #expect(loss.tailDrop && loss.packets == 14 && loss.wire == 4 * 1_500 && loss.first == 10 && loss.beforeLoss == 10)
        #expect(Self.loss(9, burst: true).wire == 0)
        // Behind 4 packets already queued, only 6 of 9 get in.
        let behind = Self.loss(9, burst: true, queued: 4 * 1_500)
        #expect(abs(behind.wire - 3 * 1_500) < 1e-6 && behind.first == 6)
    }

    @Test func aClockedRoundRisesByWhatItAddsWhileItArrives() {
        // Slow start: 19 packets arrive at twice the rate they leave, a rise of 9.5 — it fits.
        #expect(Self.loss(19, burst: false).wire == 0)
        let over = Self.loss(24, burst: false)
        #expect(!over.tailDrop && over.wire == 2 * 1_500 && over.first == 0 && over.beforeLoss == 20)
        // Congestion avoidance: a round trip of 5 ms drains 5,000 wire bytes as it arrives.
        #expect(Self.loss(13, burst: false, slowStart: false).wire == 0)
        #expect(Self.loss(14, burst: false, slowStart: false).wire == 1_500)
    }

    @Test func randomLossStrikesPacketsWithItsProbability() {
        let rounds = (1...400 as ClosedRange<UInt64>).map { Self.loss(5, burst: true, random: 0.1, seed: $0) }
        let lostPackets = rounds.reduce(0.0) { $0 + $1.wire / 1_500 }
        #expect(lostPackets > 150 && lostPackets < 250, "\(lostPackets) of 2,000 packets")
        #expect(rounds.allSatisfy { $0.wire == 0 || $0.first < 5 })
    }
}
