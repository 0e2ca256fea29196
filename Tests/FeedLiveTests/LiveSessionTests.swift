#if HTTP
import FeedBench
import FeedLive
import FeedServe
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import Testing

/// `bench run --live` against servers on loopback: a short session against `bench serve` is the
/// simulation's session request for request, and a server that cannot be used is refused with
/// its URL and what was expected.
@Suite(.scratchFolder, .serialized) struct LiveSessionTests {
    static func configuration(seconds: Int64) throws -> RunConfiguration {
        try RunConfiguration.standard(profile: DeviceProfile.named("low-end"), policy: PolicySpec.parse("lru", source: "test"),
                                      window: .items(PrefetchWindow(ahead: 20)), workload: .behavior(.browser, duration: seconds * 1_000_000_000), seed: 1,
                                      network: wifiOverHTTP11())
    }

    /// The wifi preset over HTTP/1.1 (the presets speak HTTP/2, which needs TLS): the server
    /// these runs start speaks plain HTTP.
    static func wifiOverHTTP11() throws -> NetworkProfile {
        var network = try NetworkProfile.named("wifi")
        network.http = .http11
        return network
    }

    /// The image ids a request log shows requested, finished or abandoned: whether a download
    /// the run abandons finished a few milliseconds before the abandon is the loopback's timing,
    /// not what the run asked for.
    static func imageIDs(_ records: [RequestLogFile.Record]) -> Set<UInt64> {
        Set(records.compactMap { RequestLogFile.imageID(path: $0.path) })
    }

    /// Against `bench serve`'s model the run opens its connections before its clock starts (the
    /// model charges their handshakes itself), a `GET /_conditions` on each; through a real or
    /// emulated link (`throughLink`) it opens them with its first requests, as the simulated
    /// app does, and the server sees no warm-up.
    @Test func throughALinkTheRunOpensItsConnectionsWithItsFirstRequests() async throws {
        let configuration = try Self.configuration(seconds: 2)
        var warmUps: [Int] = []
        for throughLink in [false, true] {
            let log = try ScratchFolder.make().appendingPathComponent("serve-\(throughLink).csv").path
            let server = try await LiveServers.feed(ServeConditions(network: try Self.wifiOverHTTP11()), seed: configuration.seed, log: log)
            _ = try await OwnThreads.run { _ in try LiveSession.run(configuration, server: server.url, throughLink: throughLink) { _ in } }
            server.task.cancel()
            _ = try? await server.task.value
            let paths = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").dropFirst().map { $0.split(separator: ",")[2] }
            warmUps.append(paths.filter { $0 == "/_conditions" }.count)
            #expect(paths.contains { $0.hasPrefix("/v1/images/search") })
        }
        // Over HTTP/1.1, the preset's connections and one for the API.
        #expect(warmUps == [try Self.wifiOverHTTP11().connectionsPerHost + 1, 0])
    }

    @Test(.timedAlone) func aTenSecondLiveRunWritesEveryColumnAndRequestsOnlyWhatTheSimulationDoes() async throws {
        // The live run's requests leave a few milliseconds off the simulation's, and where the
        // buffer is full that can let a page arrive sooner: a run that asks for an image the
        // simulation does not is a miss of the round, run again.
        try await TimedRounds.check { _ in
            let configuration = try Self.configuration(seconds: 10)
            let log = try ScratchFolder.make().appendingPathComponent("serve.csv").path
            let network = try Self.wifiOverHTTP11()
            let server = try await LiveServers.feed(ServeConditions(network: network), seed: configuration.seed, log: log)
            // On a thread of its own: the run blocks the thread it runs on for 10 s.
            let (live, reports) = try await OwnThreads.run { _ in
                var reports: [LiveProgress] = []
                let live = try LiveSession.run(configuration, server: server.url, reportingEvery: 2_000_000_000) { reports.append($0) }
                return (live, reports)
            }[0]
            server.task.cancel()
            _ = try? await server.task.value

            #expect(live.scenario == "cacheFirst;mode=live")
            #expect(live.displays > 0 && live.imageRequests > 0 && live.apiRequests > 0)
            let cells = live.csvRow.split(separator: ",", omittingEmptySubsequences: false)
            #expect(cells.count == RunResult.csvHeader.split(separator: ",").count && cells.allSatisfy { !$0.isEmpty })
            // Every 2 s, then once at the end; the session is 10 s of frames, and it ran in real time.
            #expect(reports.count >= 5 && reports.last!.displays == live.displays && reports.last!.stalls == live.stalls.count)
            #expect(abs(reports.last!.duration - 10_000_000_000) <= configuration.profile.frameInterval)
            #expect(reports.last!.elapsed >= 9_900_000_000 && reports.last!.elapsed < 20_000_000_000)

            var simulated = configuration
            simulated.recording.requests = true
            let simulation = try FeedSimulation.run(simulated)
            let served = try RequestLogFile.records(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: log))), source: log)
            let requested = Self.imageIDs(served)
            let wouldRequest = Self.imageIDs(simulation.requests)
            #expect(!requested.isEmpty)
            // Call k asks for page k, the simulation's k-th page.
            let pages = served.filter { $0.path.hasPrefix("/v1/images/search") }.map(\.path)
            #expect(pages == (1...pages.count).map { "/v1/images/search?limit=10&page=\($0)" })
            // Its real connections were open before its clock started (one /_conditions on each):
            // those cross no network model and name none of its connections.
            let connections = network.connectionsPerHost + 1
            let warmUp = served.prefix(connections)
            #expect(warmUp.allSatisfy { $0.path == "/_conditions" && $0.connection == nil && !$0.newConnection })
            // The run's requests crossed the server's network model: its connections, each opened
            // by one request, the first by the first call, as in simulation.
            let modelled = served.dropFirst(connections)
            #expect(modelled.allSatisfy { $0.path != "/_conditions" && $0.httpProtocol == RequestLogFile.http11 })
            var opened: [Int?: Int] = [:]
            for record in modelled where record.newConnection { opened[record.connection, default: 0] += 1 }
            #expect(opened.values.allSatisfy { $0 == 1 } && Set(modelled.map(\.connection)) == Set(opened.keys) && opened[nil] == nil)
            let (first, simulatedFirst) = (modelled.first!, simulation.requests.min { $0.time < $1.time }!)
            #expect(first.path == simulatedFirst.path && first.connection == simulatedFirst.connection && first.newConnection && simulatedFirst.newConnection)
            let extra = requested.subtracting(wouldRequest)
            return extra.isEmpty ? [] : ["requested by the live run only: \(extra.sorted())"]
        }
    }

    /// Over HTTP/2 (`bench serve --tls`, a certificate made for the test and trusted by the run)
    /// the run's requests are streams: every one `h2`, the images' on the model's one connection
    /// to the image host with the priority each went with, the API's on its own; and the run
    /// asks for nothing the simulation does not.
    @Test(.timedAlone) func aLiveRunOverHTTP2SendsStreamsOfOneConnectionAndRequestsOnlyWhatTheSimulationDoes() async throws {
        try await TimedRounds.check { _ in
            var configuration = try Self.configuration(seconds: 10)
            configuration.network.http = .http2
            let log = try ScratchFolder.make().appendingPathComponent("serve.csv").path
            let tls = try ServeTLS.generated(host: "127.0.0.1")
            let server = try await LiveServers.feed(ServeConditions(network: configuration.network), seed: configuration.seed, log: log, tls: tls)
            #expect(server.url.hasPrefix("https://"))
            let run = configuration
            let live = try await OwnThreads.run { _ in
                try LiveSession.run(run, server: server.url, trusting: tls.certificatePEM) { _ in }
            }[0]
            server.task.cancel()
            _ = try? await server.task.value
            #expect(live.displays > 0 && live.imageRequests > 0 && live.apiRequests > 0)

            var simulated = configuration
            simulated.recording.requests = true
            let simulation = try FeedSimulation.run(simulated)
            let served = try RequestLogFile.records(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: log))), source: log)
            #expect(served.allSatisfy { $0.httpProtocol == RequestLogFile.http2 })
            // One warm-up request opens the one real connection.
            #expect(served.first?.path == "/_conditions" && served.dropFirst().allSatisfy { $0.path != "/_conditions" })
            let images = served.filter { RequestLogFile.imageID(path: $0.path) != nil }
            let calls = served.filter { $0.path.hasPrefix("/v1/images/search") }
            #expect(!images.isEmpty && Set(images.map(\.connection)).count == 1 && images.filter(\.newConnection).count == 1)
            #expect(!calls.isEmpty && Set(calls.map(\.connection)).count == 1 && calls[0].connection != images[0].connection)
            #expect(images.allSatisfy { $0.priority == RequestLogFile.highPriority || $0.priority == RequestLogFile.lowPriority })
            #expect(images.contains { $0.priority == RequestLogFile.lowPriority }, "window 20 prefetches")
            // The simulation's own log over HTTP/2 says the same of its connections.
            #expect(Set(simulation.requests.filter { RequestLogFile.imageID(path: $0.path) != nil }.map(\.connection)).count == 1)
            let extra = Self.imageIDs(served).subtracting(Self.imageIDs(simulation.requests))
            return extra.isEmpty ? [] : ["requested by the live run only: \(extra.sorted())"]
        }
    }

    @Test func anUnreachableServerIsRefusedWithItsURL() throws {
        let configuration = try Self.configuration(seconds: 10)
        let started = ContinuousClock.now
        #expect {
            try LiveSession.run(configuration, server: "http://127.0.0.1:1") { _ in }
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix("http://127.0.0.1:1/_conditions: expected a server of the feed API; cannot reach it")
        }
        #expect(ContinuousClock.now - started < .seconds(5))
    }

    @Test func aServerAnsweringGarbageIsRefusedWithWhatWasExpected() throws {
        let configuration = try Self.configuration(seconds: 10)
        let server = try LiveServers.garbage("hello")
        #expect {
            try LiveSession.run(configuration, server: server) { _ in }
        } throws: { error in
            "\(error)" == "\(server)/v1/images/search?limit=10&page=1: expected a JSON page of 10 images [{\"id\", \"url\", \"width\", \"height\"}] from the image catalogue of bench serve, found \"hello\""
        }
        let wrongImages = try LiveServers.garbage(#"[{"id": "1", "url": "x", "width": 1, "height": 1}]"#)
        #expect {
            try LiveSession.run(configuration, server: wrongImages) { _ in }
        } throws: { error in "\(error)".hasSuffix("found 1 images") }
    }

    @Test func aServerThatFailsTLSIsRefusedWithItsURL() throws {
        let configuration = try Self.configuration(seconds: 10)
        // A plain HTTP server spoken to over https://: the handshake fails.
        let server = try LiveServers.garbage("hello").replacingOccurrences(of: "http://", with: "https://")
        #expect {
            try LiveSession.run(configuration, server: server) { _ in }
        } throws: { error in
            "\(error)".hasPrefix("\(server)/_conditions: expected a server of the feed API; TLS failed: ")
        }
    }

    @Test func aMatrixOrSeveralLaunchesAreRefused() throws {
        var configuration = try Self.configuration(seconds: 10)
        configuration.launches = 2
        #expect {
            try LiveSession.run(configuration, server: "http://127.0.0.1:1") { _ in }
        } throws: { error in "\(error)".hasPrefix("--live: expected one launch") }
        #expect {
            try LiveSession.run(try Self.configuration(seconds: 10), server: "ftp://example.com") { _ in }
        } throws: { error in "\(error)".hasPrefix("--live: expected a server URL such as http://127.0.0.1:8080") }
    }

    /// Sends `PUT /_conditions` with `json` to `server` and waits for the answer.
    static func putConditions(_ json: String, to server: String) {
        var request = URLRequest(url: URL(string: server + "/_conditions")!)
        request.httpMethod = "PUT"
        request.httpBody = Data(json.utf8)
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: request) { _, _, _ in done.signal() }.resume()
        done.wait()
    }

    /// The server goes offline 3 s into a 12-second live run with no prefetching and back 4 s
    /// later, through `/_conditions`; the simulation of the same run with `--offline 3s-7s` makes
    /// the same requests, fails and retries alike (the attempts answered offline are not requests,
    /// as attempts made offline are not in simulation) and stalls alike, within `bench agree`'s
    /// bands. Bands of a live run are wall-clock figures: up to two rounds (`TimedRounds`).
    @Test(.timedAlone) func anOutageThroughTheConditionsGoesAsTheSimulatedOutage() async throws {
        var configuration = try Self.configuration(seconds: 12)
        configuration.window = .items(PrefetchWindow(ahead: 0))
        var outage = configuration
        try outage.offline.add("3s-7s", source: "test")
        let simulated = try FeedSimulation.run(outage)
        let online = try FeedSimulation.run(configuration)
        // The outage matters: displays wait through it (stall p95 219 ms online, 3 s with it),
        // and cells that scroll off meanwhile never send their requests.
        let p95 = ResultMetric.all.firstIndex { $0.name == "stall_ms_p95" }!
        #expect(simulated.metricValues[p95] > 2 * online.metricValues[p95] && simulated.imageRequests < online.imageRequests)

        try await TimedRounds.check(rounds: 2) { _ in
            let log = try ScratchFolder.make().appendingPathComponent("serve.csv").path
            let server = try await LiveServers.feed(ServeConditions(network: configuration.network), seed: configuration.seed, log: log)
            let (live, phase) = try await OwnThreads.run { [configuration] _ in
                var phase = 0
                let live = try LiveSession.run(configuration, server: server.url, reportingEvery: 20_000_000) { progress in
                    if phase == 0, progress.elapsed >= 3_000_000_000 {
                        Self.putConditions(#"{"offline": true}"#, to: server.url)
                        phase = 1
                    } else if phase == 1, progress.elapsed >= 7_000_000_000 {
                        Self.putConditions(#"{"offline": false}"#, to: server.url)
                        phase = 2
                    }
                }
                return (live, phase)
            }[0]
            server.task.cancel()
            _ = try? await server.task.value
            #expect(phase == 2)
            let served = try RequestLogFile.records(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: log))), source: log)
            #expect(served.contains { $0.status == 503 }, "the live run met the outage")
            // What reached the server is what the live run counts (a cancelled download too: the
            // server logs it as 499), but for a download cancelled before it got there.
            let reached = served.filter { $0.status != 503 }
            #expect(live.apiRequests == reached.filter { $0.path.hasPrefix("/v1/images/search") }.count)
            let images = Set(reached.compactMap { RequestLogFile.imageID(path: $0.path) }).count
            #expect((0...live.cancelledRequests).contains(live.imageRequests - images), "\(live.imageRequests) sent, \(images) reached")

            let agreement = Agreement(simulated: simulated, live: live)
            return agreement.agrees ? [] : ["live against simulated:\n\(agreement.table)"]
        }
    }
}
#endif
