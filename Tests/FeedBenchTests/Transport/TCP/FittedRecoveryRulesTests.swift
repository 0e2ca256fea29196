import Testing
@testable import FeedBench

/// The loss-recovery rules fitted to ns-3, each as it decides: how the holes of a loss lie, a
/// window beyond the path and the buffer, the packets after a loss that bring fast retransmit,
/// and what the acknowledgements before a loss do to the buffer before fast retransmit sends.
@Suite struct FittedRecoveryRulesTests {
    static let segment = 1_448.0

    static func path(_ network: NetworkProfile) -> Path {
        Path(network: network, bottleneck: Bottleneck(schedule: ServiceSchedule(bitsPerSecond: network.bitsPerSecond), packets: network.bufferPackets,
                                                      packetWire: Double(network.maxSegmentBytes) + SimulatedNetwork.Sizes.headers))
    }

    @Test func holesComeInPairsWhereAPacketCrossesTheLinkWithinTheDelayedACKTimer() {
        // edge: 1,500 bytes at 240 kbit/s take 50 ms, more than the 40 ms timer.
        #expect([NetworkProfile.wifi, .dsl, .lte, .threeG, .veryBad].allSatisfy { Self.path($0).holesComeInPairs })
        #expect(!Self.path(.edge).holesComeInPairs)
        // The boundary: exactly 40 ms a packet is not within it.
        #expect(!FittedRecoveryRules.holesComeInPairs(packetWire: 1_500, wirePerNanosecond: 1_500 / 40_000_000))
        #expect(FittedRecoveryRules.holesComeInPairs(packetWire: 1_500, wirePerNanosecond: 1_500 / 39_999_999))
    }

    @Test func aWindowOvershootsWhenItExceedsThePathAndTheBufferTogether() {
        let lte = Self.path(.lte)
        let pathAndBuffer = (lte.capacity + lte.wirePerNanosecond * Double(lte.baseRoundTrip)) / lte.wirePerPayload
        #expect(FittedRecoveryRules.overshoots(window: pathAndBuffer + 1, at: 0, path: lte))
        #expect(!FittedRecoveryRules.overshoots(window: pathAndBuffer - 1, at: 0, path: lte))
        // Its first recovery keeps the buffer full itself when two segments or more were lost and
        // a buffer's worth is still to send.
        let buffer = Double(NetworkProfile.lte.bufferPackets) * Self.segment
        #expect(FittedRecoveryRules.keptTheBufferFull(overshot: true, lost: 2 * Self.segment, unsent: 2 * Self.segment + buffer, path: lte))
        #expect(!FittedRecoveryRules.keptTheBufferFull(overshot: true, lost: Self.segment, unsent: Self.segment + 10 * buffer, path: lte))
        #expect(!FittedRecoveryRules.keptTheBufferFull(overshot: true, lost: 2 * Self.segment, unsent: 2 * Self.segment + buffer - 1, path: lte))
        #expect(!FittedRecoveryRules.keptTheBufferFull(overshot: false, lost: 9 * Self.segment, unsent: 10 * buffer, path: lte))
    }

    @Test func thePacketsAfterALossAreTheRoundsAndTheNewDataItsSurvivorsLetOut() {
        let lost = RoundLoss(wire: 2 * 1_500, packets: 20, first: 5, beforeLoss: 5, tailDrop: false)
        // 14 of the round after the first loss; in slow start the 18 survivors let out 18 more.
        #expect(FittedRecoveryRules.packetsAfterLoss(lost, lost: 2 * Self.segment, unsent: 1_000 * Self.segment, slowStart: true,
                                                     segment: Self.segment) == 14 + 18)
        // In congestion avoidance, an eighth of them; and never more than is left to send.
        #expect(FittedRecoveryRules.packetsAfterLoss(lost, lost: 2 * Self.segment, unsent: 1_000 * Self.segment, slowStart: false,
                                                     segment: Self.segment) == 14 + 2)
        #expect(FittedRecoveryRules.packetsAfterLoss(lost, lost: 2 * Self.segment, unsent: 3 * Self.segment, slowStart: true,
                                                     segment: Self.segment) == 14 + 1)
        // A burst's lost tail has nothing of the round after it.
        let tail = RoundLoss(wire: 2 * 1_500, packets: 20, first: 18, beforeLoss: 18, tailDrop: true)
        #expect(FittedRecoveryRules.packetsAfterLoss(tail, lost: 2 * Self.segment, unsent: 2 * Self.segment, slowStart: true,
                                                     segment: Self.segment) == 0)
    }

    /// A round that sent `sent` segments and lost `lost` of them, `before` of the survivors ahead
    /// of the first loss, with `left` segments of new data still to send.
    static func rise(sent: Double, lost: Double, before: Double, left: Double) -> Double {
        FittedRecoveryRules.riseBeforeRetransmission(roundBytes: (sent - lost) * segment, acknowledgedBeforeLoss: before * segment,
                                                     left: left * segment, segment: segment)
    }

    @Test func eachAcknowledgementBeforeTheLossRaisesTheBufferByAPacketWhileDataLasts() {
        // lte's HTTP/2 launch: 160 segments, 99 through before the loss, plenty left.
        #expect(Self.rise(sent: 160, lost: 30, before: 99, left: 1_000) == 99 * Self.segment)
    }

    @Test func pastTheLastDataEachAcknowledgementDrainsAPacket() {
        // 104 segments left: the first 52 acknowledgements send them all (a rise of 52), the
        // other 47 each drain one.
        #expect(Self.rise(sent: 160, lost: 30, before: 99, left: 104) == 5 * Self.segment)
        #expect(Self.rise(sent: 160, lost: 30, before: 99, left: 0) == 0)
    }

    @Test func aRoundThatLostItsTailRaisesNothingByTheTimeItsLossIsFound() {
        // A burst of 63 into an empty 50-packet buffer: every survivor came before the loss, so
        // the duplicates come from the next round, when the rise has drained.
        #expect(Self.rise(sent: 63, lost: 13, before: 50, left: 1_000) == 0)
        // Two survivors after the loss are not three duplicates.
        #expect(Self.rise(sent: 65, lost: 13, before: 50, left: 1_000) == 0)
        #expect(Self.rise(sent: 66, lost: 13, before: 50, left: 1_000) == 50 * Self.segment)
    }
}
