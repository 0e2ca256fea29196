import Testing
@testable import FeedBench

/// A connection opens with TCP's handshake and, with TLS, one more round trip whose server flight
/// its sender sends; it owns its sender, so a request that takes it again keeps the window the
/// last response left (TCP's state lives as long as the connection) but starts its transfer
/// afresh — unless the transfer is still under way (an HTTP/2 reset stream's bytes still queued,
/// or its lost bytes still owed). Over HTTP/2 it counts its streams.
@Suite struct TCPConnectionTests {
    static let network = NetworkProfile.lte.overHTTP11
    static let segment = 1_448.0

    static func opened(at now: Int64 = 0) -> TCPConnection {
        TCPConnection(id: 1, host: .images, network: network, sentAt: now, synArrives: now + 65_000_000)
    }

    @Test func theHandshakeGoesThroughItsStagesAndTheFlightIsTheSendersFirstTransfer() {
        var connection = Self.opened()
        #expect(connection.handshake == .synSent(sentAt: 0, arrives: 65_000_000) && connection.handshake.nextChange == 65_000_000)
        #expect(!connection.isEstablished && !connection.isIdle)
        connection.synReceived(synAckArrives: 115_000_000)
        #expect(connection.handshake == .synAckSent(sentAt: 0, arrives: 115_000_000))
        var timeoutAsked: Int64?
        connection.synAckReceived(at: 115_000_000, tls: true) { timeout in
            timeoutAsked = timeout
            return 180_000_000
        }
        // The SYN-ACK is the first round-trip sample: the ClientHello's loss would wait for a
        // timeout of at least 200 ms (RFC 6298 from one sample of 115 ms: 115 + 4 × 57.5).
        #expect(timeoutAsked == 345_000_000 && connection.sender.timeout == 345_000_000)
        #expect(connection.handshake == .helloSent(arrives: 180_000_000))
        connection.helloReceived(flightBytes: SimulatedNetwork.Sizes.serverFlight)
        #expect(connection.handshake.flight == Outbound(unsent: 4_000) && connection.handshake.nextChange == nil)
        #expect(connection.sender.unsent == 4_000 && connection.sender.isUnderWay)
        connection.updateFlight { $0.unsent = 0; $0.queued(3_000) }
        connection.flightServed(3_000, chunkLeft: true)
        #expect(connection.handshake.flight?.isDrained == true)
        connection.flightDeparted(arriving: 250_000_000)
        #expect(connection.handshake == .flightArriving(arrives: 250_000_000) && connection.handshake.flight == nil)
        connection.flightReceived(at: 250_000_000)
        #expect(connection.isEstablished && connection.idleSince == 250_000_000 && connection.handshake.nextChange == nil)
    }

    @Test func withoutTLSTheSynAckOpensTheConnection() {
        var connection = Self.opened()
        connection.synReceived(synAckArrives: 115_000_000)
        connection.synAckReceived(at: 115_000_000, tls: false) { _ in
            Issue.record("no ClientHello without TLS")
            return 0
        }
        #expect(connection.isEstablished)
    }

    @Test func aReusedConnectionKeepsItsWindowAndStartsItsTransferAfreshUnlessItIsStillUnderWay() {
        var connection = Self.opened()
        // A response all delivered: its window grew and its last round's figures stay behind.
        connection.sender.start(10 * Self.segment)
        TCPSenderTests.round(&connection.sender, at: 0)
        connection.sender.served(connection.sender.queuedWire, chunkLeft: true)
        connection.sender.finished(at: 100_000_000)
        let grown = connection.sender.window.window
        #expect(grown == 20 * Self.segment && connection.sender.roundBytes == 10 * Self.segment && connection.sender.clocked)
        connection.release(at: 200_000_000)
        #expect(connection.isIdle && !connection.sender.isUnderWay)
        connection.take(at: 300_000_000, restartAfterIdle: false)
        #expect(connection.sender.window.window == grown)
        #expect(connection.sender.unsent == 0 && connection.sender.queuedWire == 0 && connection.sender.queuedChunks == 0)
        #expect(connection.sender.roundBytes == 0 && connection.sender.pendingLoss == .none && connection.sender.timeoutAt == nil
                && !connection.sender.clocked)

        // An HTTP/2 connection whose reset stream's bytes still drain keeps counting them down.
        connection.sender.start(3 * Self.segment)
        TCPSenderTests.round(&connection.sender, at: 400_000_000)
        connection.sender.queuedChunk()
        let draining = (connection.sender.queuedWire, connection.sender.queuedChunks)
        connection.sender.stop()
        connection.release(at: 400_000_000)
        connection.take(at: 500_000_000, restartAfterIdle: false)
        #expect(draining.1 == 2 && connection.sender.queuedWire == draining.0 && connection.sender.queuedChunks == draining.1)

        // One whose lost bytes wait for the timer still owes them: TCP sends them again.
        var waiting = Self.opened()
        waiting.sender.start(1_000_000)
        let packetWire = Self.segment + SimulatedNetwork.Sizes.headers
        TCPSenderTests.round(&waiting.sender, at: 0, loss: RoundLoss(wire: 3 * packetWire, packets: 10, first: 2, beforeLoss: 2, tailDrop: false))
        _ = waiting.sender.endRoundTrip(at: 100_000_000, bufferMet: TCPSenderTests.path.capacity, roundTrip: 100_000_000,
                                        keepingThreshold: true, path: TCPSenderTests.path)
        let owed = (waiting.sender.unsent, waiting.sender.awaitingTimeout, waiting.sender.timeoutAt)
        #expect(owed.1 > 0 && owed.2 != nil)
        waiting.release(at: 600_000_000)
        waiting.take(at: 700_000_000, restartAfterIdle: false)
        #expect(waiting.sender.unsent == owed.0 && waiting.sender.awaitingTimeout == owed.1 && waiting.sender.timeoutAt == owed.2)
    }

    @Test func anHTTP2ConnectionCountsItsStreamsAndIsIdleAfterTheLast() {
        var connection = Self.opened()
        connection.join()
        connection.join()
        connection.release(at: 100)
        connection.release(at: 200)
        #expect(!connection.isIdle && connection.streams == 1)
        connection.release(at: 300)
        #expect(connection.isIdle && connection.idleSince == 300)
        connection.close()
        #expect(!connection.isIdle && connection.isClosed)
    }
}
