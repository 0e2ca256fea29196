import Testing
@testable import FeedBench

/// `bench run --requests`: the requests a run sends, as `bench serve` would log them, add up to
/// the run's own figures and do not change it.
@Suite struct RequestRecorderTests {
    static func configuration(network: NetworkProfile = .wifi, api: FeedAPIConfiguration = FeedAPIConfiguration()) throws -> RunConfiguration {
        var configuration = try RunConfiguration.standard(
            profile: .lowEnd, policy: PolicySpec.parse("lru", source: "test"), window: .items(PrefetchWindow(ahead: 10)),
            workload: .behavior(.skimmer, duration: 40_000_000_000), seed: 3, network: network)
        configuration.pipeline.memoryLimits = .bytes(30_000_000)
        configuration.api = api
        configuration.recording.requests = true
        return configuration
    }

    @Test func theRequestsAddUpToTheRunsFigures() throws {
        let result = try FeedSimulation.run(Self.configuration())
        let downloads = result.requests.filter { $0.path.hasPrefix("/images/") }
        let calls = result.requests.filter { $0.path.hasPrefix("/v1/images/search") }
        #expect(downloads.count + calls.count == result.requests.count)
        let images = downloads.filter { $0.status == 200 }
        #expect(downloads.count - images.count == result.cancelledRequests)
        // Every download that completed, once; a session can end with the connections' worth in flight.
        let completed = result.imageRequests - result.cancelledRequests
        #expect(images.count <= completed && images.count >= completed - NetworkProfile.wifi.connectionsPerHost)
        #expect(Set(images.map(\.path)).count == images.count)
        #expect(images.reduce(0) { $0 + $1.bytes } == result.bytesDownloaded)
        #expect(images.allSatisfy { $0.status == 200 && $0.objectBytes == $0.bytes && $0.imageAccess != nil })
        #expect(calls.count == result.apiRequests)
        #expect(calls.map(\.path) == (1...calls.count).map { "/v1/images/search?limit=10&page=\($0)" }, "page N is the N-th call")
        // What the client waited includes the network; the server's own time is the API's latency.
        #expect(result.requests.allSatisfy { $0.duration > $0.injectedDelay && $0.time >= 0 })
        #expect(downloads.allSatisfy { $0.injectedDelay == 0 } && calls.allSatisfy { $0.injectedDelay > 0 })
        #expect(result.requests.map { $0.time + $0.duration } == result.requests.map { $0.time + $0.duration }.sorted(), "in order of completion")
    }

    /// A download cancelled after it was sent (at 3g, skimming, nearly all are) is a line too,
    /// as the server logs a client that closed: 499, the bytes that had arrived, not an access.
    @Test func aCancelledDownloadIsA499WithTheBytesThatHadArrived() throws {
        let result = try FeedSimulation.run(Self.configuration(network: .threeG))
        let cancelled = result.requests.filter { $0.status == RequestLogFile.clientClosed }
        #expect(result.cancelledRequests > 100 && cancelled.count == result.cancelledRequests)
        #expect(cancelled.allSatisfy { $0.path.hasPrefix("/images/") && $0.bytes < $0.objectBytes! && $0.imageAccess == nil })
        let partWay = cancelled.filter { $0.bytes > 0 }
        #expect(!partWay.isEmpty, "cancelled part way")
        // No faster than the link: a transfer gets at most the whole bandwidth from its first byte.
        #expect(partWay.allSatisfy { Double($0.bytes) <= NetworkProfile.threeG.bytesPerSecond * Double($0.duration) / 1e9 })
    }

    /// A connection carries one download at a time, its first request opens it, the API's host
    /// has connections of its own, and at most the network's limit of image connections are busy.
    @Test func downloadsOnOneConnectionDoNotOverlap() throws {
        let result = try FeedSimulation.run(Self.configuration(network: NetworkProfile.wifi.overHTTP11))
        let images = result.requests.filter { $0.path.hasPrefix("/images/") }
        let calls = result.requests.filter { $0.path.hasPrefix("/v1/") }
        #expect(Set(images.map(\.connection)).isDisjoint(with: Set(calls.map(\.connection))))
        #expect(result.requests.allSatisfy { $0.httpProtocol == RequestLogFile.http11 })
        let byStart = result.requests.sorted { ($0.time, $0.connection ?? 0) < ($1.time, $1.connection ?? 0) }
        var seen = Set<Int>()
        for record in byStart { #expect(record.newConnection == seen.insert(record.connection ?? 0).inserted, "\(record.csvLine)") }
        let limit = NetworkProfile.wifi.connectionsPerHost
        for record in images {
            let busy = images.filter { $0.time <= record.time && record.time < $0.time + $0.duration }.count
            #expect(busy <= limit, "\(busy) image connections busy at \(record.time)")
        }
        for connection in Set(images.map(\.connection)) {
            let spans = images.filter { $0.connection == connection }.map { $0.time..<($0.time + $0.duration) }.sorted { $0.lowerBound < $1.lowerBound }
            for (a, b) in zip(spans, spans.dropFirst()) { #expect(a.upperBound <= b.lowerBound, "connection \(connection)") }
        }
    }

    /// Over HTTP/2 the host sees each download's `URLSessionTask` priority as its stream's
    /// urgency: SDWebImage gives its prefetcher's tasks low priority and a cell's the default;
    /// Nuke's data loader sets none, so every stream has URLSession's default, prefetches too.
    @Test func overHTTP2TheLogsPriorityIsTheTasksAsTheLibrarySetsIt() throws {
        func priorities(_ preset: CachePreset) throws -> [String: Int] {
            var network = NetworkProfile.lte
            network.http = .http2
            var configuration = try Self.configuration(network: network)
            configuration.pipeline = preset.pipeline(on: .lowEnd)
            let downloads = try FeedSimulation.run(configuration).requests.filter { $0.path.hasPrefix("/images/") }
            return Dictionary(grouping: downloads, by: \.priority).mapValues(\.count)
        }
        let sdwebimage = try priorities(.sdwebimage)
        #expect(sdwebimage.keys.sorted() == ["high", "low"] && sdwebimage["low"]! > 10, "\(sdwebimage)")
        let nuke = try priorities(.nuke)
        #expect(nuke.keys.sorted() == ["high"] && nuke["high"]! > 10, "\(nuke)")
    }

    @Test func failedCallsAreLoggedWithTheServersStatusAndBody() throws {
        let api = FeedAPIConfiguration(failureProbability: 0.5)
        let result = try FeedSimulation.run(Self.configuration(api: api))
        let calls = result.requests.filter { $0.path.hasPrefix("/v1/") }
        #expect(calls.contains { $0.status == 500 } && calls.contains { $0.status == 200 })
        #expect(calls.filter { $0.status == 500 }.allSatisfy { $0.bytes == Int64(FeedAPIBody.error("injected server error").utf8.count) })
        #expect(calls.filter { $0.status == 200 }.allSatisfy { $0.bytes > 800 }, "ten items of about 90 bytes")
    }

    @Test func recordingDoesNotChangeTheRun() throws {
        var recorded = try FeedSimulation.run(Self.configuration(network: .threeG))
        var configuration = try Self.configuration(network: .threeG)
        configuration.recording.requests = false
        let plain = try FeedSimulation.run(configuration)
        #expect(plain.requests.isEmpty && !recorded.requests.isEmpty)
        recorded.requests = []
        #expect(recorded == plain)
    }
}
