#if HTTP
import FeedBench
import FeedServe
import Foundation
import TestSupport
import Testing

/// A client that sends nothing for the server's client timeout is let go: mid-head, mid-body,
/// idle between requests, before its TLS handshake, on an HTTP/2 connection with no stream;
/// never while its answer is under way. Raw clients on 127.0.0.1, a timeout of 0.5 s: each test
/// takes its turn among the timed ones (`timedAlone`), so that the heaviest of them (a live run
/// through the emulated link) does not hold up its client past the timeout.
@Suite(.scratchFolder, .serialized) struct ClientTimeoutTests {
    static let timeout = Duration.milliseconds(500)
    static let instant = ServeConditions(network: RunningServer.instant, api: FeedAPIConfiguration(latency: .fixed(0)))

    /// Sends `bytes` to a plain HTTP/1.1 server: how long the connection lasted, and what came.
    static func heldAfterSending(_ bytes: String) async throws -> (held: Duration?, received: [UInt8]) {
        let server = try await RunningServer.start(instant, clientTimeout: timeout)
        do {
            // Timed from before the connection: the server's clock starts when it accepts it.
            let start = ContinuousClock.now
            let client = try await RawClient.connect(port: Int(server.port!))
            try await client.send(Array(bytes.utf8))
            let held = await client.closed(within: .seconds(10)).map { _ in ContinuousClock.now - start }
            await server.stop()
            return (held, client.received)
        } catch {
            await server.stop()
            throw error
        }
    }

    @Test(.timedAlone, arguments: [
        "GET /_conditions HTTP/1.1\r\nHost: 127.0.0.1\r\n",
        "GET /_conditions",
        "PUT /_conditions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000000000\r\n\r\n{",
    ])
    func anUnfinishedRequestIsDroppedAfterTheTimeout(request: String) async throws {
        let (held, received) = try await Self.heldAfterSending(request)
        let closed = try #require(held, "the connection was still open after 10 s")
        #expect(closed >= Self.timeout && received.isEmpty, "closed after \(closed), \(received.count) bytes answered")
    }

    @Test(.timedAlone) func anIdleConnectionIsClosedAfterTheTimeout() async throws {
        let (held, received) = try await Self.heldAfterSending("GET /_conditions HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(String(decoding: received, as: UTF8.self).hasPrefix("HTTP/1.1 200"))
        let closed = try #require(held, "the connection was still open after 10 s")
        #expect(closed >= Self.timeout)
    }

    /// An API call of 1.5 s (three timeouts) is answered: the server is the one that is silent.
    @Test(.timedAlone) func anAnswerUnderWayIsNotCutByTheTimeout() async throws {
        let conditions = ServeConditions(network: RunningServer.instant, api: FeedAPIConfiguration(latency: .fixed(1_500_000_000)))
        let server = try await RunningServer.start(conditions, clientTimeout: Self.timeout)
        let reply = try await server.request("/v1/images/search?limit=2&page=1")
        await server.stop()
        #expect(reply.status == 200 && reply.seconds >= 1.5)
    }

    @Test(.timedAlone) func aTLSHandshakeNeverStartedIsDroppedAfterTheTimeout() async throws {
        let log = try ScratchFolder.make().appendingPathComponent("requests.csv").path
        let held = try await ServeTLSTests.Served.serving(ServeTLSTests.conditions(http: .http2), log: log, clientTimeout: Self.timeout) { served in
            let start = ContinuousClock.now
            let client = try await RawClient.connect(port: served.port)
            return await client.closed(within: .seconds(10)).map { _ in ContinuousClock.now - start }
        }
        let closed = try #require(held, "the connection was still open after 10 s")
        #expect(closed >= Self.timeout)
    }

    /// An HTTP/2 connection with no stream open is closed gracefully: a GOAWAY with NO_ERROR.
    @Test(.timedAlone) func anHTTP2ConnectionWithNoStreamIsClosedAfterTheTimeout() async throws {
        let log = try ScratchFolder.make().appendingPathComponent("requests.csv").path
        let (held, received) = try await ServeTLSTests.Served.serving(ServeTLSTests.conditions(http: .http2), log: log,
                                                                     clientTimeout: Self.timeout) { served in
            let start = ContinuousClock.now
            let client = try await RawClient.connect(port: served.port, alpn: ["h2"])
            try await client.send(HTTP2Bytes.preface)
            return (await client.closed(within: .seconds(10)).map { _ in ContinuousClock.now - start }, client.received)
        }
        let closed = try #require(held, "the connection was still open after 10 s; received \(received)")
        #expect(closed >= Self.timeout && HTTP2Bytes.goAwayErrors(in: received).first == 0)
    }
}
#endif
