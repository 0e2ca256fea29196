import Testing
@testable import FeedBench

/// How requests map onto connections: HTTP/1.1's pool reuses the most recently idle connection
/// until the idle timeout and cancels by closing; HTTP/2 carries a host's requests as streams of
/// its one connection, cancels by resetting the stream and keeps the connection, a cancelled
/// opener handing its handshake to the first stream waiting.
@Suite struct ConnectionPoolTests {
    static let network = NetworkProfile.lte

    /// A connection made for the table, numbered in the order made.
    final class Opener {
        var made = 0
        func open(_ host: SimulatedNetwork.Host, at now: Int64) -> TCPConnection {
            made += 1
            return TCPConnection(id: made, host: host, network: ConnectionPoolTests.network, sentAt: now, synArrives: now + 1)
        }
    }

    static func exchange(_ id: Int, on connection: Int, _ stage: Exchange.Stage) -> Exchange {
        Exchange(id: id, payload: .image(url: UInt64(id), serial: id), stage: stage, urgent: true, connection: connection, think: 0,
                 responseBytes: 10_300)
    }

    @Test func http11ReusesTheMostRecentlyIdleConnectionAndOpensAnotherWhenAllAreBusy() {
        let pool = HTTP11Pool(network: Self.network.overHTTP11)
        let opener = Opener()
        var connections: [TCPConnection] = []
        let first = pool.acquire(.images, at: 0, connections: &connections, exchanges: []) { _ in opener.open(.images, at: 0) }
        let second = pool.acquire(.images, at: 0, connections: &connections, exchanges: []) { _ in opener.open(.images, at: 0) }
        let api = pool.acquire(.api, at: 0, connections: &connections, exchanges: []) { _ in opener.open(.api, at: 0) }
        #expect(first == (0, true) && second == (1, true) && api == (2, true))
        connections[0].release(at: 100)
        connections[1].release(at: 200)
        let reused = pool.acquire(.images, at: 300, connections: &connections, exchanges: []) { _ in opener.open(.images, at: 300) }
        #expect(reused == (1, false) && opener.made == 3, "the most recently idle one")
        // Past the idle timeout (3 s on cellular) the idle one is closed, and a new connection
        // takes its slot unless an exchange still names it (its bytes draining).
        let late: Int64 = 100 + Self.network.idleTimeout + 1
        connections[1].release(at: late)
        let draining = [Self.exchange(9, on: 0, .responding(Outbound(unsent: 0), reset: nil))]
        let fresh = pool.acquire(.images, at: late, connections: &connections, exchanges: draining) { _ in opener.open(.images, at: late) }
        #expect(connections[0].isClosed && fresh == (1, false), "connection 2, idle since the late release, is reused")
        connections[1].release(at: late + 1)
        connections[1].close()
        let opened = pool.acquire(.images, at: late + 2, connections: &connections, exchanges: draining) { _ in opener.open(.images, at: late + 2) }
        #expect(opened == (1, true) && connections[1].id == 4 && connections.count == 3)
    }

    @Test func http11CancelsByClosingTheConnection() {
        let pool = HTTP11Pool(network: Self.network.overHTTP11)
        var connections = [TCPConnection(id: 1, host: .images, network: Self.network.overHTTP11, sentAt: 0, synArrives: 1)]
        connections[0].sender.start(10_300)
        var exchanges = [Self.exchange(1, on: 0, .responding(Outbound(unsent: 10_300), reset: nil))]
        let ended = pool.cancel(0, at: 5, connections: &connections, exchanges: &exchanges) { _ in
            Issue.record("no RST_STREAM over HTTP/1.1")
            return 0
        }
        #expect(ended && connections[0].isClosed && connections[0].sender.unsent == 0 && exchanges[0].response?.unsent == 0)
    }

    @Test func http2CarriesAHostsRequestsAsStreamsOfOneConnection() {
        let pool = HTTP2Connections(network: Self.network)
        let opener = Opener()
        var connections: [TCPConnection] = []
        let first = pool.acquire(.images, at: 0, connections: &connections, exchanges: []) { _ in opener.open(.images, at: 0) }
        let second = pool.acquire(.images, at: 1, connections: &connections, exchanges: []) { _ in opener.open(.images, at: 1) }
        let api = pool.acquire(.api, at: 2, connections: &connections, exchanges: []) { _ in opener.open(.api, at: 2) }
        #expect(first == (0, true) && second == (0, false) && api == (1, true) && connections[0].streams == 2)
    }

    @Test func aCancelledOpenerHandsItsHandshakeToTheFirstStreamWaitingWhichTakesItsPlace() {
        let pool = HTTP2Connections(network: Self.network)
        var connections = [TCPConnection(id: 1, host: .images, network: Self.network, sentAt: 0, synArrives: 1),
                           TCPConnection(id: 2, host: .api, network: Self.network, sentAt: 0, synArrives: 1)]
        connections[0].join()
        connections[0].join()
        var exchanges = [Self.exchange(1, on: 0, .opening), Self.exchange(2, on: 1, .opening),
                         Self.exchange(3, on: 0, .awaitingConnection), Self.exchange(4, on: 0, .awaitingConnection)]
        let ended = pool.cancel(0, at: 5, connections: &connections, exchanges: &exchanges) { _ in 0 }
        #expect(!ended && exchanges.map(\.id) == [3, 2, 4] && connections[0].streams == 2 && !connections[0].isClosed)
        if case .opening = exchanges[0].stage {} else { Issue.record("stream 3 opens the connection now: \(exchanges[0].stage)") }
        // With nobody waiting the connection is abandoned.
        var alone = [Self.exchange(2, on: 1, .opening)]
        #expect(pool.cancel(0, at: 5, connections: &connections, exchanges: &alone) { _ in 0 })
        #expect(connections[1].isClosed && connections[1].sender.nextRound == nil)
    }

    @Test func aCancelledStreamIsResetAndItsServerSendsUntilTheResetArrives() {
        let pool = HTTP2Connections(network: Self.network)
        var connections = [TCPConnection(id: 1, host: .images, network: Self.network, sentAt: 0, synArrives: 1)]
        connections[0].join()
        var exchanges = [Self.exchange(1, on: 0, .responding(Outbound(unsent: 5_000), reset: nil)),
                         Self.exchange(2, on: 0, .responding(Outbound(unsent: 8_000), reset: nil))]
        let ended = pool.cancel(0, at: 5, connections: &connections, exchanges: &exchanges) { c in
            #expect(c == 0)
            return 70_000_000
        }
        #expect(!ended && exchanges[0].payload == .discarded && exchanges[0].wake == 70_000_000 && !connections[0].isClosed)
        #expect(connections[0].streams == 1)
        // Its bytes still count among the connection's until the reset arrives.
        pool.responsesChanged(on: 0, connections: &connections, exchanges: exchanges)
        #expect(connections[0].sender.unsent == 13_000)
    }

    /// A burst meets what has reached the buffer: each sender's clocked round still arriving is
    /// taken off once — over HTTP/1.1 for each exchange (one a connection), over HTTP/2 for each
    /// connection however many streams it carries.
    @Test func whatHasArrivedCountsEachSenderOnce() {
        var connection = TCPConnection(id: 1, host: .images, network: Self.network, sentAt: 0, synArrives: 1)
        connection.sender.start(1_000_000)
        TCPSenderTests.round(&connection.sender, at: 0)
        connection.sender.served(connection.sender.queuedWire, chunkLeft: true)
        _ = connection.sender.endRoundTrip(at: 100_000_000, bufferMet: 0, roundTrip: 100_000_000, keepingThreshold: true,
                                           path: TCPSenderTests.path)
        TCPSenderTests.round(&connection.sender, at: 100_000_000)
        let pending = min(connection.sender.queuedWire, connection.sender.arrival.pending(at: 100_000_000))
        #expect(pending > 0)
        let streams = [Self.exchange(1, on: 0, .responding(Outbound(unsent: 1), reset: nil)),
                       Self.exchange(2, on: 0, .responding(Outbound(unsent: 1), reset: nil))]
        let http2 = HTTP2Connections(network: Self.network).arrived(1e6, at: 100_000_000, connections: [connection], exchanges: streams)
        #expect(http2 == 1e6 - pending)
        let http11 = HTTP11Pool(network: Self.network.overHTTP11).arrived(1e6, at: 100_000_000, connections: [connection],
                                                                       exchanges: [streams[0]])
        #expect(http11 == 1e6 - pending)
    }
}
