#if HTTP
import AsyncHTTPClient
import FeedBench
import FeedServe
import Foundation
import NIOCore
import NIOHTTP2
import NIOPosix
import NIOSSL
import TestSupport
import Testing

/// `bench serve` over TLS: HTTP/2 and HTTP/1.1 on one port as ALPN chooses, spoken to on
/// 127.0.0.1 by AsyncHTTPClient trusting the certificate the server made; a certificate and
/// key brought in PEM files are checked before anything is served.
@Suite(.scratchFolder, .serialized) struct ServeTLSTests {
    /// No delay and 10 Gbit/s, over `http`.
    static func conditions(http: HTTPVersion, bitsPerSecond: Int64 = 10_000_000_000, delay: Int64 = 0) -> ServeConditions {
        var network = NetworkProfile(name: "served", bitsPerSecond: bitsPerSecond, oneWayDelay: delay...delay)
        network.http = http
        return ServeConditions(network: network, api: FeedAPIConfiguration(latency: .fixed(0)))
    }

    /// A server over TLS with a certificate made for 127.0.0.1, and a client that trusts only it.
    struct Served {
        let tls: ServeTLS
        let base: String
        let task: Task<Void, Error>
        let client: HTTPClient

        init(_ conditions: ServeConditions, log: String, http1Only: Bool = false, clientTimeout: Duration = .seconds(75)) async throws {
            tls = try ServeTLS.generated(host: "127.0.0.1")
            let settings = ServeSettings(host: "127.0.0.1", port: 0, seed: 1, conditions: conditions, logPath: log, tls: tls,
                                         clientTimeout: clientTimeout)
            (base, task) = try await FeedServer(settings: settings).start(on: OwnThreads.executor)
            var tlsConfiguration = TLSConfiguration.makeClientConfiguration()
            tlsConfiguration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(tls.certificatePEM.utf8)))
            var configuration = HTTPClient.Configuration(tlsConfiguration: tlsConfiguration)
            configuration.httpVersion = http1Only ? .http1Only : .automatic
            client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        }

        /// The port the server listens on.
        var port: Int { Int(base.split(separator: ":").last!)! }

        /// GETs `path`: the status, the HTTP version's major number and the body.
        func get(_ path: String, priority: String? = nil) async throws -> (status: Int, version: Int, body: ByteBuffer) {
            var request = HTTPClientRequest(url: base + path)
            if let priority { request.headers.add(name: "priority", value: priority) }
            let response = try await client.execute(request, timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 10_000_000)
            return (Int(response.status.code), response.version.major, body)
        }

        /// Runs `body` against a server started for it, then stops the client and the server,
        /// whether `body` threw or not.
        static func serving<Result>(_ conditions: ServeConditions, log: String, http1Only: Bool = false, clientTimeout: Duration = .seconds(75),
                                    _ body: (Served) async throws -> Result) async throws -> Result {
            let served = try await Served(conditions, log: log, http1Only: http1Only, clientTimeout: clientTimeout)
            let result: Swift.Result<Result, Error>
            do { result = .success(try await body(served)) } catch { result = .failure(error) }
            try await served.client.shutdown()
            served.task.cancel()
            _ = try? await served.task.value
            return try result.get()
        }
    }

    static func records(_ log: String) throws -> [RequestLogFile.Record] {
        try RequestLogFile.records(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: log))), source: log)
    }

    @Test func overHTTP2EveryRequestIsAStreamOfOneConnectionWithTheUrgencyItAsked() async throws {
        let log = try ScratchFolder.make().appendingPathComponent("requests.csv").path
        let catalog = ImageCatalog(seed: 0)
        let priorities = ["u=1", "u=5", nil, "u=0, i", "u=3"]
        let replies = try await Served.serving(Self.conditions(http: .http2), log: log) { served in
        #expect(served.base.hasPrefix("https://127.0.0.1:"))
        let replies = try await withThrowingTaskGroup(of: (id: Int, status: Int, version: Int, bytes: Int).self) { group in
            for id in 0..<20 {
                group.addTask {
                    let reply = try await served.get("/images/\(id).jpg", priority: priorities[id % priorities.count])
                    return (id, reply.status, reply.version, reply.body.readableBytes)
                }
            }
            var replies: [(id: Int, status: Int, version: Int, bytes: Int)] = []
            for try await reply in group { replies.append(reply) }
            return replies
        }
        // Two requests the model does not carry: logged on their real connection.
        _ = try await served.get("/images/nope.jpg")
        _ = try await served.get("/images/nope.jpg")
        return replies
        }
        #expect(replies.count == 20)
        for reply in replies {
            let size = Int(catalog.descriptor(UInt64(reply.id)).encodedBytes)
            #expect(reply.status == 200 && reply.version == 2 && reply.bytes == size, "image \(reply.id)")
        }

        let records = try Self.records(log)
        #expect(records.count == 22 && records.allSatisfy { $0.httpProtocol == RequestLogFile.http2 })
        let images = records.filter { $0.status == 200 }
        // The model's one connection to the image host, opened by one stream.
        #expect(Set(images.map(\.connection)).count == 1 && images.filter(\.newConnection).count == 1)
        for record in images {
            let id = Int(RequestLogFile.imageID(path: record.path)!)
            let expected = ["u=1": "high", "u=0, i": "high", "u=5": "low", "u=3": "low"][priorities[id % priorities.count] ?? ""] ?? ""
            #expect(record.priority == expected, "\(record.path)")
        }
        // One real connection: both 404s on it.
        let missing = records.filter { $0.status == 404 }
        #expect(missing.count == 2 && missing[0].connection == missing[1].connection)
    }

    /// A page's image URLs are the server's own: `https` over TLS, a URL the client can follow.
    @Test func aPagesImageURLsSayHTTPSOverTLS() async throws {
        let log = try ScratchFolder.make().appendingPathComponent("requests.csv").path
        let (base, page, image) = try await Served.serving(Self.conditions(http: .http2), log: log) { served in
            let page = String(buffer: try await served.get("/v1/images/search?limit=2&page=1").body)
            let url = try #require(page.split(separator: "\"").first { $0.hasSuffix(".jpg") })
            return (served.base, page, try await served.get(String(url.dropFirst(served.base.count))))
        }
        #expect(page.components(separatedBy: "\"url\": \"\(base)/images/").count == 3, "\(page)")
        #expect(base.hasPrefix("https://") && image.status == 200)
    }

    @Test func aClientThatOffersOnlyHTTP11GetsItOnTheSamePort() async throws {
        let log = try ScratchFolder.make().appendingPathComponent("requests.csv").path
        let reply = try await Served.serving(Self.conditions(http: .http11), log: log, http1Only: true) { try await $0.get("/images/3.jpg") }
        #expect(reply.status == 200 && reply.version == 1)
        #expect(try Self.records(log).map(\.httpProtocol) == [RequestLogFile.http11])
    }

    /// A stream the client resets mid-response is logged 499 with the bytes that reached it;
    /// the connection stays, and the next stream goes on it.
    @Test func aResetStreamIsCancelledInTheModelAndItsConnectionKept() async throws {
        let log = try ScratchFolder.make().appendingPathComponent("requests.csv").path
        // 2 Mbit/s: an image of ~100 KB takes a few hundred milliseconds.
        let catalog = ImageCatalog(seed: 0)
        let big = (0..<100).max { catalog.descriptor(UInt64($0)).encodedBytes < catalog.descriptor(UInt64($1)).encodedBytes }!
        let next = try await Served.serving(Self.conditions(http: .http2, bitsPerSecond: 2_000_000, delay: 5_000_000), log: log) { served in
            let abandoned = Task { try await served.get("/images/\(big).jpg") }
            try await Task.sleep(for: .milliseconds(150))
            abandoned.cancel()
            _ = try? await abandoned.value
            try await Task.sleep(for: .milliseconds(50))
            return try await served.get("/images/1.jpg")
        }
        #expect(next.status == 200 && next.version == 2)
        let records = try Self.records(log)
        let reset = try #require(records.first { $0.path == "/images/\(big).jpg" })
        let after = try #require(records.first { $0.path == "/images/1.jpg" })
        #expect(reset.status == RequestLogFile.clientClosed && reset.bytes > 0 && reset.bytes < Int64(catalog.descriptor(UInt64(big)).encodedBytes))
        #expect(after.connection == reset.connection && !after.newConnection, "the model's connection is kept: the stream was reset, not the connection")
    }

    /// The SETTINGS_MAX_CONCURRENT_STREAMS a new HTTP/2 connection to the server is offered:
    /// a bare client (ALPN `h2`, trusting only the server's certificate) reads the server's
    /// first SETTINGS frame.
    static func advertisedStreamLimit(_ served: Served) async throws -> Int? {
        var tlsConfiguration = TLSConfiguration.makeClientConfiguration()
        tlsConfiguration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(served.tls.certificatePEM.utf8)))
        tlsConfiguration.applicationProtocols = ["h2"]
        let context = try NIOSSLContext(configuration: tlsConfiguration)
        let settings = MultiThreadedEventLoopGroup.singleton.any().makePromise(of: HTTP2Settings.self)
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).channelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandlers([
                    NIOSSLClientHandler(context: context, serverHostname: nil), NIOHTTP2Handler(mode: .client), SettingsReader(settings),
                ])
            }
        }.connect(host: "127.0.0.1", port: served.port).get()
        defer { channel.close(promise: nil) }
        return try await settings.futureResult.get().last { $0.parameter == .maxConcurrentStreams }?.value
    }

    @Test(arguments: [7, nil] as [Int?])
    func anHTTP2ConnectionIsOfferedTheStreamLimitOfTheConditions(limit: Int?) async throws {
        var conditions = Self.conditions(http: .http2)
        if let limit { conditions.network.maxConcurrentStreams = limit }
        let log = try ScratchFolder.make().appendingPathComponent("requests.csv").path
        let advertised = try await Served.serving(conditions, log: log) { try await Self.advertisedStreamLimit($0) }
        #expect(advertised == (limit ?? 100))
    }

    /// Changed conditions reach the connections set up after the change.
    @Test func aNewConnectionIsOfferedTheStreamLimitOfTheConditionsThen() async throws {
        var conditions = Self.conditions(http: .http2)
        conditions.network.maxConcurrentStreams = 7
        let log = try ScratchFolder.make().appendingPathComponent("requests.csv").path
        let (before, status, after) = try await Served.serving(conditions, log: log) { served in
            let before = try await Self.advertisedStreamLimit(served)
            var request = HTTPClientRequest(url: served.base + "/_conditions")
            request.method = .PUT
            request.body = .bytes(ByteBuffer(string: #"{"network": {"maxConcurrentStreams": 1000}}"#))
            let status = try await served.client.execute(request, timeout: .seconds(30)).status.code
            return (before, status, try await Self.advertisedStreamLimit(served))
        }
        #expect(before == 7)
        #expect(status == 200 && after == 1_000)
    }

    @Test func http2IsServedOverTLSOnly() async throws {
        let server = try await RunningServer.start(Self.conditions(http: .http11))
        let reply = try await server.put(conditions: #"{"network": {"http": "2"}}"#)
        await server.stop()
        #expect(reply.status == 400 && reply.text.contains("HTTP/2 is served over TLS only (bench serve --tls)"))
    }

    @Test func aBroughtCertificateAndKeyAreCheckedBeforeServing() throws {
        let folder = try ScratchFolder.make()
        let (one, other) = (try ServeTLS.generated(host: "127.0.0.1"), try ServeTLS.generated(host: "127.0.0.1"))
        let certificate = folder.appendingPathComponent("cert.pem").path
        let key = folder.appendingPathComponent("key.pem").path
        let otherKey = folder.appendingPathComponent("other-key.pem").path
        let garbage = folder.appendingPathComponent("garbage.pem").path
        try one.certificatePEM.write(toFile: certificate, atomically: true, encoding: .utf8)
        try one.keyPEM.write(toFile: key, atomically: true, encoding: .utf8)
        try other.keyPEM.write(toFile: otherKey, atomically: true, encoding: .utf8)
        try "hello\n".write(toFile: garbage, atomically: true, encoding: .utf8)

        let loaded = try ServeTLS.loading(certificate: certificate, key: key)
        #expect(loaded.fingerprint == one.fingerprint && loaded.fingerprint != other.fingerprint)
        #expect(one.fingerprint.split(separator: ":").count == 32)
        func refusal(_ certificate: String, _ key: String) -> String {
            do {
                _ = try ServeTLS.loading(certificate: certificate, key: key)
                return "loaded"
            } catch { return "\(error)" }
        }
        #expect(refusal(folder.appendingPathComponent("none.pem").path, key) == "--tls-cert: cannot read \(folder.appendingPathComponent("none.pem").path)")
        #expect(refusal(garbage, key) == "\(garbage): expected PEM certificates (-----BEGIN CERTIFICATE-----), leaf first")
        #expect(refusal(certificate, garbage) == "\(garbage): expected a PEM private key (PKCS#8, EC or RSA)")
        #expect(refusal(certificate, otherKey) == "\(otherKey): expected the private key of the certificate in \(certificate); this key is another's")
    }
}

/// Hands on the settings of the first SETTINGS frame a connection receives, or the error or end
/// of the connection before it (whichever comes first; the promise is completed once).
final class SettingsReader: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame
    let settings: EventLoopPromise<HTTP2Settings>
    var completed = false

    init(_ settings: EventLoopPromise<HTTP2Settings>) {
        self.settings = settings
    }

    func complete(_ result: Result<HTTP2Settings, any Error>) {
        guard !completed else { return }
        completed = true
        settings.completeWith(result)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .settings(.settings(let received)) = unwrapInboundIn(data).payload { complete(.success(received)) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        complete(.failure(error))
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        complete(.failure(ChannelError.eof))
    }
}
#endif
