import Testing
@testable import FeedBench

/// A connection owns its congestion window and what it is sending: a request that takes it
/// again keeps the window the last response left (TCP's state lives as long as the connection)
/// but starts its transfer afresh — nothing of the last round carries over — unless the transfer
/// is still under way (an HTTP/2 reset stream's bytes still queued, or its lost bytes still owed),
/// and a transfer's queued bytes are counted down chunk by chunk as the buffer serves them. Over
/// HTTP/2 it counts its streams.
@Suite struct TCPConnectionTests {
    static let segment = 1_448.0

    @Test func aReusedConnectionKeepsItsWindowAndStartsItsTransferAfreshUnlessItIsStillUnderWay() {
        var connection = TCPConnection(id: 1, host: .images, network: .lte)
        connection.window.roundAcknowledged(bytes: connection.window.window, waiting: 1_000_000, at: 100_000_000, roundTrip: 100_000_000)
        let grown = connection.window.window
        #expect(grown == 20 * Self.segment)
        // A response all delivered: its last round's figures stay behind.
        connection.transfer.start(50_000)
        connection.transfer.unsent = 0
        connection.transfer.roundBytes = 20_000
        connection.transfer.clocked = true
        connection.release(at: 200_000_000)
        #expect(connection.isIdle && !connection.transfer.isUnderWay)

        connection.take(at: 300_000_000, restartAfterIdle: false)
        #expect(connection.window.window == grown)
        #expect(connection.transfer.unsent == 0 && connection.transfer.queuedWire == 0 && connection.transfer.queuedChunks == 0)
        #expect(connection.transfer.roundBytes == 0 && connection.transfer.pendingLoss == .none && connection.transfer.timeoutAt == .max && !connection.transfer.clocked)

        // An HTTP/2 connection whose reset stream's bytes still drain keeps counting them down.
        connection.transfer.queuedWire = 10_000
        connection.transfer.queuedChunks = 2
        connection.release(at: 400_000_000)
        connection.take(at: 500_000_000, restartAfterIdle: false)
        #expect(connection.transfer.queuedWire == 10_000 && connection.transfer.queuedChunks == 2)

        // One whose reset stream's lost bytes wait for the timer still owes them: TCP sends them again.
        connection.transfer = Transfer()
        connection.transfer.unsent = 3_000
        connection.transfer.awaitingTimeout = 3_000
        connection.transfer.timeoutAt = 900_000_000
        connection.release(at: 600_000_000)
        connection.take(at: 700_000_000, restartAfterIdle: false)
        #expect(connection.transfer.unsent == 3_000 && connection.transfer.awaitingTimeout == 3_000 && connection.transfer.timeoutAt == 900_000_000)
    }

    @Test func anHTTP2ConnectionCountsItsStreamsAndIsIdleAfterTheLast() {
        var connection = TCPConnection(id: 1, host: .images, network: .lte)
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

    @Test func aTransferCountsItsQueuedBytesDownChunkByChunk() {
        var transfer = Transfer()
        transfer.start(8_000)
        transfer.queuedWire = 3_000
        transfer.queuedChunks = 2
        transfer.served(500, chunkLeft: false)
        #expect(transfer.queuedWire == 2_500 && transfer.queuedChunks == 2)
        transfer.served(1_000, chunkLeft: true)
        #expect(transfer.queuedWire == 1_500 && transfer.queuedChunks == 1)
        // The last chunk's departure clears what rounding may have left.
        transfer.served(1_499.9, chunkLeft: true)
        #expect(transfer.queuedWire == 0 && transfer.queuedChunks == 0)
    }

    @Test func aStoppedTransferSendsNothingMoreAndForgetsItsLoss() {
        var transfer = Transfer()
        transfer.start(100_000)
        transfer.nextRound = 1_000
        transfer.pendingLoss = .timeout
        transfer.queuedWire = 4_500
        transfer.queuedChunks = 1
        transfer.stop()
        #expect(transfer.unsent == 0 && transfer.nextRound == .max && transfer.pendingLoss == .none)
        // What is queued still drains.
        #expect(transfer.queuedWire == 4_500 && transfer.queuedChunks == 1)
    }
}
