import FeedBench
import FeedServe
import Foundation
import TestScratch
import Testing

/// `bench serve` spoken to by a real HTTP client on 127.0.0.1: the feed and the images are the
/// simulator's, and the injected conditions are measured, not assumed.
@Suite(.scratchFolder, .serialized) struct FeedServerTests {
    static func instant(_ api: FeedAPIConfiguration = FeedAPIConfiguration(latency: .fixed(0))) -> ServeConditions {
        ServeConditions(network: RunningServer.instant, api: api)
    }

    struct Item: Decodable, Equatable {
        var id: String
        var url: String
        var width: Int
        var height: Int
    }

    @Test func pagesAreTheSimulatedFeedForTheSeed() async throws {
        let server = try await RunningServer.start(Self.instant(), seed: 5)
        var api = try MockFeedAPI(configuration: FeedAPIConfiguration(latency: .fixed(0)), seed: 5)
        for page in 1...4 {
            let reply = try await server.request("/v1/images/search?limit=10&page=\(page)")
            #expect(reply.status == 200 && reply.headers["content-type"] == "application/json")
            let items = try JSONDecoder().decode([Item].self, from: Data(reply.body))
            guard case let .page(expected) = api.requestPage(at: 0).outcome else { Issue.record("the mock failed"); return }
            #expect(items.map(\.id) == expected.map { String($0.url) }, "page \(page): the simulator's n-th call")
            #expect(items.map(\.width) == expected.map(\.pixelWidth) && items.map(\.height) == expected.map(\.pixelHeight))
            #expect(items.allSatisfy { $0.url == "\(server.base)/images/\($0.id).jpg" })
        }
        let three = try JSONDecoder().decode([Item].self, from: Data(try await server.request("/v1/images/search?limit=3&page=2").body))
        let second = try JSONDecoder().decode([Item].self, from: Data(try await server.request("/v1/images/search?page=2").body))
        #expect(three == Array(second.prefix(3)), "limit takes the first of the page's ten")
        await server.stop()
    }

    @Test(.enabled(if: JPEGDecoder.path != nil, Comment(rawValue: JPEGDecoder.missing)))
    func everyServedImageIsARealJPEGOfItsModelledSizeAndBytes() async throws {
        let folder = try ScratchFolder.make()
        let server = try await RunningServer.start(Self.instant())
        let catalog = ImageCatalog(seed: 0)
        for id in UInt64(0)..<20 {
            let reply = try await server.request("/images/\(id).jpg")
            let image = catalog.descriptor(id)
            #expect(reply.status == 200 && reply.headers["content-type"] == "image/jpeg")
            #expect(reply.body.count == Int(image.encodedBytes), "image \(id): exactly its modelled bytes")
            let size = try JPEGDecoder.size(of: reply.body, in: folder)
            #expect(size?.width == image.pixelWidth && size?.height == image.pixelHeight, "image \(id)")
        }
        await server.stop()
    }

    @Test func validationAndRangesAnswerAsAnHTTPCacheExpects() async throws {
        let server = try await RunningServer.start(Self.instant())
        let whole = try await server.request("/images/3.jpg")
        let etag = try #require(whole.headers["etag"])
        #expect(whole.headers["cache-control"] == "public, max-age=604800" && whole.headers["last-modified"] != nil)
        let revalidated = try await server.request("/images/3.jpg", headers: ["If-None-Match": etag])
        #expect(revalidated.status == 304 && revalidated.body.isEmpty)
        let part = try await server.request("/images/3.jpg", headers: ["Range": "bytes=100-1099"])
        #expect(part.status == 206 && part.body == Array(whole.body[100..<1100]))
        #expect(part.headers["content-range"] == "bytes 100-1099/\(whole.body.count)")
        let tail = try await server.request("/images/3.jpg", headers: ["Range": "bytes=-2"])
        #expect(tail.body == [0xFF, 0xD9])
        let outside = try await server.request("/images/3.jpg", headers: ["Range": "bytes=\(whole.body.count)-"])
        #expect(outside.status == 416 && outside.headers["content-range"] == "bytes */\(whole.body.count)")
        let ignored = try await server.request("/images/3.jpg", headers: ["Range": "pages=1-2"])
        #expect(ignored.status == 200 && ignored.body == whole.body, "a Range that is not bytes= is ignored")
        await server.stop()
    }

    /// The value at quantile `q` of `values` (nearest rank).
    static func quantile(_ values: [Double], _ q: Double) -> Double {
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((q * Double(sorted.count)).rounded(.up)) - 1)]
    }

    @Test func apiLatencyIsTheModelsWithinFiveMilliseconds() async throws {
        let model = FeedAPIConfiguration(latency: .uniform(20_000_000...120_000_000))
        let server = try await RunningServer.start(Self.instant(model), seed: 9)
        // The 240 latencies the server draws, whatever order the calls arrive in.
        var mock = try MockFeedAPI(configuration: model, seed: 9)
        let drawn = (0..<240).map { _ in Double(mock.requestPage(at: 0).completesAt) / 1e6 }
        let measured = try await withThrowingTaskGroup(of: [Double].self) { group in
            for worker in 0..<6 {
                group.addTask {
                    var seconds: [Double] = []
                    for call in 0..<40 { seconds.append(try await server.request("/v1/images/search?page=\(worker * 40 + call + 1)").seconds * 1_000) }
                    return seconds
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        for q in [0.5, 0.99] {
            let (model, real) = (Self.quantile(drawn, q), Self.quantile(measured, q))
            #expect(abs(real - model) <= 5, "p\(Int(q * 100)): model \(model) ms, measured \(real) ms")
        }
        await server.stop()
    }

    @Test func aDownloadTakesItsBytesOverTheBandwidthPlusARoundTripAndSixShareTheLink() async throws {
        let threeG = try NetworkProfile.named("3g")
        let server = try await RunningServer.start(ServeConditions(network: threeG, api: FeedAPIConfiguration(latency: .fixed(0))))
        let catalog = ImageCatalog(seed: 0)
        // The largest of the first 100 images, about half a megabyte.
        let image = (UInt64(0)..<100).map(catalog.descriptor).max { $0.encodedBytes < $1.encodedBytes }!
        let alone = try await server.request("/images/\(image.url).jpg")
        let expected = Double(image.encodedBytes) * 8 / Double(threeG.bitsPerSecond) + 0.2
        #expect(abs(alone.seconds - expected) <= 0.05 * expected, "\(image.encodedBytes) B on 3g: \(alone.seconds) s, model \(expected) s")

        // Six at once on an 8 Mbit/s link with no delay: each gets a sixth of it.
        let changed = try await server.put(conditions: #"{"network": {"bitsPerSecond": 8000000, "oneWayDelayMs": [0, 0]}}"#)
        #expect(changed.status == 200, "\(changed.text)")
        let single = Double(image.encodedBytes) * 8 / 8_000_000
        let together = try await withThrowingTaskGroup(of: Double.self) { group in
            for _ in 0..<6 { group.addTask { try await server.request("/images/\(image.url).jpg").seconds } }
            return try await group.reduce(into: [Double]()) { $0.append($1) }
        }
        for seconds in together {
            #expect(abs(seconds - 6 * single) <= 0.05 * 6 * single, "six sharing: \(seconds) s, model \(6 * single) s")
        }
        await server.stop()
    }

    @Test func conditionsChangedAtRunTimeApplyToTheNextRequest() async throws {
        let server = try await RunningServer.start(Self.instant())
        #expect(try await server.request("/v1/images/search").status == 200)
        let offline = try await server.put(conditions: #"{"offline": true}"#)
        #expect(offline.status == 200 && offline.text.hasSuffix(#""offline": true}"#))
        #expect(try await server.request("/v1/images/search").status == 503)
        #expect(try await server.request("/images/1.jpg").status == 503)
        _ = try await server.put(conditions: #"{"offline": false, "api": {"rateLimit": {"calls": 2, "windowMs": 10000}}}"#)
        #expect(try await server.request("/v1/images/search").status == 200)
        #expect(try await server.request("/v1/images/search").status == 200)
        let limited = try await server.request("/v1/images/search")
        #expect(limited.status == 429 && (Int(limited.headers["retry-after"] ?? "") ?? 0) >= 1, "\(limited.headers)")
        _ = try await server.put(conditions: #"{"api": {"rateLimit": null, "failureProbability": 1}}"#)
        #expect(try await server.request("/v1/images/search").status == 500)
        let current = try await server.request("/_conditions")
        #expect(current.text.contains(#""failureProbability": 1.0"#) && current.text.contains(#""rateLimit": null"#), "\(current.text)")
        await server.stop()
    }

    @Test func badRequestsGetOneLineOfJSONAndTheServerKeepsServing() async throws {
        let server = try await RunningServer.start(Self.instant())
        let cases: [(String, String, String?, Int)] = [
            ("/v1/images/search?limit=abc", "GET", nil, 400), ("/v1/images/search?limit=0", "GET", nil, 400),
            ("/v1/images/search?limit=11", "GET", nil, 400), ("/v1/images/search?page=-1", "GET", nil, 400),
            ("/images/999999.jpg", "GET", nil, 404), ("/images/cat.png", "GET", nil, 404), ("/nothing/here", "GET", nil, 404),
            ("/" + String(repeating: "a", count: 3_000), "GET", nil, 400),
            ("/_conditions", "PUT", "{not json", 400), ("/_conditions", "PUT", #"{"network": "5g"}"#, 400),
            ("/_conditions", "PUT", #"{"api": {"latency": {"model": "fixed", "ms": -1}}}"#, 400),
            ("/_conditions", "PUT", #"{"colour": "red"}"#, 400),
        ]
        for (path, method, body, status) in cases {
            let reply = try await server.request(path, method: method, body: body)
            #expect(reply.status == status, "\(method) \(path.prefix(40))")
            #expect(reply.text.hasPrefix(#"{"error": ""#) && !reply.text.contains("\n"), "\(reply.text)")
        }
        #expect(try await server.request("/v1/images/search").status == 200, "still serving")
        let document = try await server.request("/openapi.yaml")
        #expect(document.status == 200 && document.text.hasPrefix("openapi: 3.1.0"))
        await server.stop()
    }

    @Test func theLogHasALinePerRequestWithItsInjectedDelay() async throws {
        let log = try ScratchFolder.make().appendingPathComponent("requests.csv").path
        let server = try await RunningServer.start(Self.instant(FeedAPIConfiguration(latency: .fixed(30_000_000))), log: log)
        _ = try await server.request("/v1/images/search?page=1")
        _ = try await server.request("/images/7.jpg")
        _ = try await server.request("/images/nope.jpg")
        await server.stop()
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(lines.first?.joined(separator: ",") == "time_ms,method,path,status,bytes,injected_delay_ms,duration_ms,connection")
        #expect(lines.count == 4)
        #expect(lines[1][1] == "GET" && lines[1][2] == "/v1/images/search?page=1" && lines[1][3] == "200" && lines[1][5] == "30.000")
        #expect(lines[2][2] == "/images/7.jpg" && lines[2][4] == String(ImageCatalog(seed: 0).descriptor(7).encodedBytes))
        #expect(lines[3][3] == "404")
        #expect((Double(lines[1][6]) ?? 0) >= 30, "the whole time includes the injected latency")
    }
}
