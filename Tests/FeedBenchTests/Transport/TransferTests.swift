import Testing
@testable import FeedBench

/// A connection's transfer: what its last round's acknowledgements do to the buffer before fast
/// retransmit sends.
@Suite struct TransferTests {
    static let segment = 1_448.0

    /// A transfer whose last round sent `sent` segments and lost `lost` of them, `before` of the
    /// survivors ahead of the first loss, with `left` segments of new data still to send.
    static func lossyRound(sent: Double, lost: Double, before: Double, left: Double) -> Transfer {
        var transfer = Transfer()
        transfer.roundBytes = (sent - lost) * segment
        transfer.lostInRound = lost * segment
        transfer.acknowledgedBeforeLoss = before * segment
        transfer.unsent = (left + lost) * segment
        return transfer
    }

    @Test func eachAcknowledgementBeforeTheLossRaisesTheBufferByAPacketWhileDataLasts() {
        // lte's HTTP/2 launch: 160 segments, 99 through before the loss, plenty left.
        let launch = Self.lossyRound(sent: 160, lost: 30, before: 99, left: 1_000)
        #expect(launch.riseBeforeRetransmission(segment: Self.segment) == 99 * Self.segment)
    }

    @Test func pastTheLastDataEachAcknowledgementDrainsAPacket() {
        // 104 segments left: the first 52 acknowledgements send them all (a rise of 52), the
        // other 47 each drain one.
        let short = Self.lossyRound(sent: 160, lost: 30, before: 99, left: 104)
        #expect(short.riseBeforeRetransmission(segment: Self.segment) == 5 * Self.segment)
        let nothingLeft = Self.lossyRound(sent: 160, lost: 30, before: 99, left: 0)
        #expect(nothingLeft.riseBeforeRetransmission(segment: Self.segment) == 0)
    }

    @Test func aRoundThatLostItsTailRaisesNothingByTheTimeItsLossIsFound() {
        // A burst of 63 into an empty 50-packet buffer: every survivor came before the loss, so
        // the duplicates come from the next round, when the rise has drained.
        let burst = Self.lossyRound(sent: 63, lost: 13, before: 50, left: 1_000)
        #expect(burst.riseBeforeRetransmission(segment: Self.segment) == 0)
        // Two survivors after the loss are not three duplicates.
        let twoAfter = Self.lossyRound(sent: 65, lost: 13, before: 50, left: 1_000)
        #expect(twoAfter.riseBeforeRetransmission(segment: Self.segment) == 0)
        let threeAfter = Self.lossyRound(sent: 66, lost: 13, before: 50, left: 1_000)
        #expect(threeAfter.riseBeforeRetransmission(segment: Self.segment) == 50 * Self.segment)
    }
}
