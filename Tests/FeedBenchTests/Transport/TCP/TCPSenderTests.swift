import Testing
@testable import FeedBench

/// A connection's sender, a round trip at a time: a round lets out what the window allows of the
/// bytes owed, its queued bytes are counted down chunk by chunk as the buffer serves them, a loss
/// is repaired by fast retransmit when three packets follow it (or by the timer), a recovery's
/// retransmissions that meet a full buffer wait for one timer, and a transfer started afresh
/// keeps the window.
@Suite struct TCPSenderTests {
    static let network = NetworkProfile.lte.overHTTP11
    static let path = Path(network: network, bottleneck: Bottleneck(schedule: ServiceSchedule(bitsPerSecond: network.bitsPerSecond), packets: network.bufferPackets,
                                                                    packetWire: 1_500))
    static let segment = 1_448.0
    static let roundTrip: Int64 = 100_000_000

    /// No loss, `packets` sent.
    static func noLoss(packets: Int) -> RoundLoss { RoundLoss(wire: 0, packets: packets, first: packets, beforeLoss: packets, tailDrop: false) }

    /// One round at `now` of what the window lets out (at most `bytes`), losing `loss` (none by
    /// default), its survivors queued as one chunk; the sender told what is left. Returns the
    /// round's bytes.
    @discardableResult
    static func round(_ sender: inout TCPSender, upTo bytes: Double = .infinity, at now: Int64, loss: RoundLoss? = nil) -> Double {
        let room = sender.room(wirePerPayload: path.wirePerPayload)
        let sent = min(bytes, sender.sendable(within: room))
        let burst = !sender.clocked
        guard sender.beginRound(sent, room: room, burst: burst, at: now, roundTrip: roundTrip) else { return 0 }
        let loss = loss ?? noLoss(packets: Int((sent / segment).rounded(.up)))
        sender.queuedChunk()
        sender.owe(sender.unsent - (sent - loss.wire / path.wirePerPayload))
        sender.roundSent(sent, loss: loss, burst: burst, at: now, roundTrip: roundTrip, path: path)
        return sent
    }

    @Test func aRoundLetsOutTheWindowAndItsAcknowledgementsGrowIt() {
        var sender = TCPSender(network: Self.network)
        sender.start(1_000_000)
        #expect(sender.isUnderWay && sender.window.window == 10 * Self.segment)
        let sent = Self.round(&sender, at: 0)
        #expect(sent == 10 * Self.segment && sender.unsent == 1_000_000 - sent && sender.roundBytes == sent)
        #expect(sender.nextRound == Self.roundTrip && sender.pendingLoss == .none && sender.clocked)
        // Nothing left in the window until the buffer serves the round.
        #expect(sender.sendable(within: sender.room(wirePerPayload: Self.path.wirePerPayload)) == 0)
        sender.served(sent * Self.path.wirePerPayload, chunkLeft: true)
        #expect(sender.queuedWire == 0 && sender.queuedChunks == 0)
        let outcome = sender.endRoundTrip(at: Self.roundTrip, bufferMet: 0, roundTrip: Self.roundTrip, keepingThreshold: true, path: Self.path)
        #expect(outcome.doomed == 0 && sender.window.window == 20 * Self.segment)
    }

    @Test func aTransferCountsItsQueuedBytesDownChunkByChunk() {
        var sender = TCPSender(network: Self.network)
        sender.start(8_000)
        Self.round(&sender, upTo: 2_000, at: 0)
        sender.queuedChunk()
        let queued = sender.queuedWire
        #expect(sender.queuedChunks == 2 && queued == 2_000 * Self.path.wirePerPayload)
        sender.served(500, chunkLeft: false)
        #expect(sender.queuedWire == queued - 500 && sender.queuedChunks == 2)
        sender.served(1_000, chunkLeft: true)
        #expect(sender.queuedWire == queued - 1_500 && sender.queuedChunks == 1)
        // The last chunk's departure clears what rounding may have left.
        sender.served(queued - 1_500 - 0.1, chunkLeft: true)
        #expect(sender.queuedWire == 0 && sender.queuedChunks == 0)
    }

    @Test func aStoppedTransferSendsNothingMoreAndForgetsItsLoss() {
        var sender = TCPSender(network: Self.network)
        sender.start(10 * Self.segment)
        // A burst that lost its tail, nothing after it to send: the timer repairs it.
        let packetWire = Self.segment + SimulatedNetwork.Sizes.headers
        Self.round(&sender, at: 0, loss: RoundLoss(wire: 2 * packetWire, packets: 10, first: 8, beforeLoss: 8, tailDrop: true))
        #expect(sender.pendingLoss == .timeout && sender.nextRound != nil)
        let queued = (sender.queuedWire, sender.queuedChunks)
        sender.stop()
        #expect(sender.unsent == 0 && sender.nextRound == nil && sender.pendingLoss == .none)
        // What is queued still drains.
        #expect(sender.queuedWire == queued.0 && sender.queuedChunks == queued.1)
    }

    /// Fast retransmit's retransmissions that meet a full buffer wait for one timer: two
    /// segments' worth (`FittedRecoveryRules.retransmissionsLostToAFullBuffer`), and the recovery
    /// goes on sending at its cut window; when the timer fires they go again from one segment.
    @Test func retransmissionsThatMeetAFullBufferWaitForOneTimer() {
        var sender = TCPSender(network: Self.network)
        sender.start(1_000_000)
        let packetWire = Self.segment + SimulatedNetwork.Sizes.headers
        Self.round(&sender, at: 0, loss: RoundLoss(wire: 3 * packetWire, packets: 10, first: 2, beforeLoss: 2, tailDrop: false))
        #expect(sender.pendingLoss == .fastRecovery && sender.hasRecovered)
        let window = sender.window.window
        let outcome = sender.endRoundTrip(at: Self.roundTrip, bufferMet: Self.path.capacity, roundTrip: Self.roundTrip,
                                          keepingThreshold: true, path: Self.path)
        #expect(outcome.doomed == 2 * Self.segment && outcome.of == sender.lostInRound)
        #expect(sender.awaitingTimeout == outcome.doomed && sender.timeoutAt == 2 * Self.roundTrip + sender.timeout)
        #expect(sender.window.window < window && sender.recovering && sender.pendingLoss == .none)
        // The recovery keeps sending, but not what waits for the timer.
        let room = sender.room(wirePerPayload: Self.path.wirePerPayload)
        #expect(sender.sendable(within: room) == min(sender.unsent - outcome.doomed, room))
        #expect(!sender.timerFired(by: sender.timeoutAt! - 1) && sender.timerFired(by: sender.timeoutAt!))
        sender.fireTimer(at: sender.timeoutAt!, keepingThreshold: true)
        #expect(sender.awaitingTimeout == 0 && sender.timeoutAt == nil && sender.window.window == Self.segment && !sender.recovering)
    }

    /// A transfer started afresh forgets the last one's rounds, losses and timer, but keeps the
    /// window and whether the connection has recovered before.
    @Test func startingAfreshKeepsTheWindowAndForgetsTheTransfer() {
        var sender = TCPSender(network: Self.network)
        sender.start(1_000_000)
        let packetWire = Self.segment + SimulatedNetwork.Sizes.headers
        Self.round(&sender, at: 0, loss: RoundLoss(wire: 3 * packetWire, packets: 10, first: 2, beforeLoss: 2, tailDrop: false))
        _ = sender.endRoundTrip(at: Self.roundTrip, bufferMet: Self.path.capacity, roundTrip: Self.roundTrip, keepingThreshold: true,
                                path: Self.path)
        let window = sender.window
        sender.startAfresh()
        #expect(!sender.isUnderWay && sender.unsent == 0 && sender.awaitingTimeout == 0 && sender.queuedWire == 0 && sender.queuedChunks == 0)
        #expect(sender.roundBytes == 0 && sender.timeoutAt == nil && sender.nextRound == nil && !sender.clocked && !sender.recovering)
        #expect(sender.window.window == window.window && sender.window.threshold == window.threshold && sender.hasRecovered)
    }

    /// HTTP/2's streams join a transfer under way: with no round due, the last round's
    /// acknowledgements clock their bytes out a round trip after it left.
    @Test func aStreamJoiningATransferGoesWithTheNextRound() {
        var sender = TCPSender(network: Self.network)
        sender.start(10 * Self.segment)
        Self.round(&sender, at: 0)
        #expect(sender.nextRound == nil, "all sent")
        sender.joined(at: 30_000_000, roundTrip: Self.roundTrip)
        #expect(sender.nextRound == Self.roundTrip)
        sender.joined(at: 50_000_000, roundTrip: 2 * Self.roundTrip)
        #expect(sender.nextRound == Self.roundTrip, "a round already due stays")
    }
}
