#if HTTP
import FeedBench
import FeedServe
import Foundation
import TestSupport
import Testing

/// What the server learns from the client beyond its requests: that it closed a connection
/// (`ClientClosures`), in which order it sent requests that reach the server out of it
/// (`RequestOrder`), and which requests open its connections together (`WarmUpGathering`).
extension FeedServerTests {
    /// A client that closes its connection while its response is still queued in the model is
    /// cancelled there when it closes, not at the server's next write (here seconds later: a
    /// 2 s one-way delay): its line says 499 after the 300 ms it waited.
    @Test func aClientThatClosesIsCancelledWhenItCloses() async throws {
        let log = try ScratchFolder.make().appendingPathComponent("requests.csv").path
        let slow = NetworkProfile(name: "slow", bitsPerSecond: 1_000_000, oneWayDelay: 2_000_000_000...2_000_000_000)
        let server = try await RunningServer.start(ServeConditions(network: slow), log: log)
        let port = try #require(server.port)
        _ = try await OwnThreads.run { _ in try TimingConnection(port: port).giveUp("/images/7.jpg", after: 300) }
        var records: [RequestLogFile.Record] = []
        for _ in 0..<100 where records.isEmpty {
            try await Task.sleep(nanoseconds: 20_000_000)
            records = try RequestLogFile.records(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: log))), source: log)
        }
        await server.stop()
        let record = try #require(records.first, "no line within 2 s")
        #expect(record.status == 499 && record.bytes == 0)
        #expect((250_000_000...400_000_000).contains(record.duration), "closed 300 ms after sending, logged after \(record.duration) ns")
    }

    /// A client's number far ahead of its count (here 10¹⁵, with nothing before it) waits its
    /// patience for the numbers before it and then goes, and so do the requests after it: the
    /// server jumps over the numbers that never came instead of counting through them (it
    /// counted, and a single such header held the order's lock for days).
    @Test(.timeLimit(.minutes(1))) func aHugeRequestNumberCostsItsPatienceAndNothingMore() async throws {
        let server = try await RunningServer.start(ServeConditions(network: RunningServer.instant))
        let huge = 1_000_000_000_000_000
        let far = try await server.request("/v1/images/search", headers: ["FeedBench-Request": String(huge)])
        let next = try await server.request("/images/3.jpg", headers: ["FeedBench-Request": String(huge + 1)])
        let unnumbered = try await server.request("/images/4.jpg")
        await server.stop()
        #expect(far.status == 200 && next.status == 200 && unnumbered.status == 200)
    }

    /// Two requests numbered by their client (`FeedBench-Request`) that reach the server in the
    /// other order enter the model in the client's: the first numbered opens connection 1.
    /// Which arrives first is the wall clock's (the second numbered is sent 2 ms before the
    /// first), so it is checked in rounds.
    @Test(.timedAlone) func numberedRequestsEnterTheModelInTheClientsOrder() async throws {
        let network = NetworkProfile(name: "slow", bitsPerSecond: 10_000_000, oneWayDelay: 50_000_000...50_000_000)
        try await TimedRounds.check { _ in
            let log = try ScratchFolder.make().appendingPathComponent("requests.csv").path
            let server = try await RunningServer.start(ServeConditions(network: network), log: log)
            async let second = server.request("/images/1.jpg", headers: ["FeedBench-Request": "2"])
            try await Task.sleep(nanoseconds: 2_000_000)
            async let first = server.request("/images/2.jpg", headers: ["FeedBench-Request": "1"])
            _ = try await (first, second)
            await server.stop()
            let records = try RequestLogFile.records(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: log))), source: log)
            let connections = Dictionary(records.map { ($0.path, $0.connection) }, uniquingKeysWith: { a, _ in a })
            return connections == ["/images/2.jpg": 1, "/images/1.jpg": 2] ? [] : ["connections \(connections)"]
        }
    }

    /// A warm-up set (`FeedBench-Warm-Up: 3`) sent 300 ms apart is answered together once its
    /// third request has come; a set that never completes
    /// answers each request after 1 s; a value out of range is ignored.
    @Test(.timedAlone) func warmUpRequestsAreAnsweredTogetherOnceTheirSetHasCome() async throws {
        let log = try ScratchFolder.make().appendingPathComponent("requests.csv").path
        let server = try await RunningServer.start(ServeConditions(network: RunningServer.instant), log: log)
        let set = ["FeedBench-Warm-Up": "3"]
        async let first = server.request("/_conditions", headers: set)
        try await Task.sleep(nanoseconds: 300_000_000)
        async let second = server.request("/_conditions", headers: set)
        try await Task.sleep(nanoseconds: 300_000_000)
        async let third = server.request("/_conditions", headers: set)
        let together = try await [first, second, third]
        let alone = try await server.request("/_conditions", headers: ["FeedBench-Warm-Up": "2"])
        let ignored = try await server.request("/_conditions", headers: ["FeedBench-Warm-Up": "1002"])
        await server.stop()
        #expect(together.allSatisfy { $0.status == 200 } && alone.status == 200 && ignored.status == 200)
        #expect(together[0].seconds >= 0.55 && together[1].seconds >= 0.25, "\(together.map(\.seconds))")
        #expect(alone.seconds >= 0.95 && ignored.seconds < 0.5, "alone \(alone.seconds) s, ignored \(ignored.seconds) s")
        // They crossed no network model: the log names none of its connections for them.
        let records = try RequestLogFile.records(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: log))), source: log)
        #expect(records.count == 5 && records.allSatisfy { $0.connection == nil && !$0.newConnection })
    }
}
#endif
