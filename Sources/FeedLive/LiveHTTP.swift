#if HTTP
import AsyncHTTPClient
import FeedBench
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL

/// The live transports' HTTP client: GETs to one server over AsyncHTTPClient (HTTP/1.1 with at
/// most `connections` kept-alive connections, or HTTP/2 negotiated over TLS, its requests
/// streams of one connection; TLS for `https://`), counting each response's bytes as they
/// arrive.
///
/// Not Foundation's `URLSession`: on Linux it burns CPU while it waits for bytes. Twelve images
/// paced by `bench serve` at 3g took 31 s of CPU (7.6 s user, 23.2 s system) over 24.7 s of wall
/// time on six connections; a live run at 3g spent 1.35 s of CPU per displayed image.
///
/// What the server answers goes to each request's completion on the client's event loop. An
/// answer that means the server is not one a live run can use — it cannot be reached, TLS
/// fails — is kept as the run's `failure` (the first one) and `check()` throws it; the request's
/// completion gets `.none`.
final class LiveHTTP: Sendable {
    /// How a request ended.
    enum Answer: Sendable {
        /// The server answered `status`; `body` is kept only when asked for, `bytes` always counted.
        case reply(status: Int, body: [UInt8], bytes: Int64)
        /// The attempt was lost on the way (timed out, connection dropped): it may be retried.
        case lost
        /// The server answered that the network is down (`ServeConditions.offlineHeader`): the
        /// request never left the device, as far as the run is concerned.
        case offline
        /// Cancelled, or refused (see `failure`): nothing to act on.
        case none
    }

    /// The header each request carries its number in (1, 2, … in the order the app made them):
    /// `bench serve` lets requests into its network model in that order (`RequestOrder`).
    static let numberHeader = "FeedBench-Request"
    /// The header the warm-up's requests carry their count in: `bench serve` holds each answer
    /// until the whole set has come (its `WarmUpGathering`).
    static let warmUpHeader = "FeedBench-Warm-Up"

    /// The server's URL, without a trailing slash: `http://127.0.0.1:8080`.
    let server: String
    let client: HTTPClient
    /// The requests under way, by number: to cancel them, and the bytes the images have received.
    let requests = Locked([Int: (task: HTTPClient.Task<Void>?, bytes: Int64, keepsBody: Bool)]())
    /// The last number given to a request: shared by the clients of one run, so that its
    /// requests are numbered in the order the app made them whichever client sends them.
    let numbers: Locked<Int>
    let failure = Locked<InputError?>(nil)

    /// A client of `server` (an `http://` or `https://` URL) with at most `connections`
    /// connections to it over HTTP/1.1, or one over HTTP/2 (`http2`: `server` must be
    /// `https://`). `trusting` is a PEM certificate to trust as the server's root instead of
    /// the system's (`bench serve --tls`'s own). Throws an `InputError` for anything else.
    init(server: String, connections: Int, http2: Bool = false, trusting certificatePEM: String? = nil,
         numbering numbers: Locked<Int> = Locked(0)) throws {
        self.numbers = numbers
        guard let url = URL(string: server), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              url.host != nil, url.query == nil else {
            throw InputError(source: "--live", "expected a server URL such as http://127.0.0.1:8080, found \(InputError.quote(server))")
        }
        guard !http2 || scheme == "https" else {
            throw InputError(source: "--live", "expected an https:// server for HTTP/2, which is negotiated over TLS (bench serve --tls), found \(InputError.quote(server))")
        }
        self.server = server.hasSuffix("/") ? String(server.dropLast()) : server
        var configuration = HTTPClient.Configuration()
        if let certificatePEM {
            var tls = TLSConfiguration.makeClientConfiguration()
            guard let roots = try? NIOSSLCertificate.fromPEMBytes(Array(certificatePEM.utf8)), !roots.isEmpty else {
                throw InputError(source: "--live-ca", "expected a PEM certificate that TLS can use")
            }
            tls.trustRoots = .certificates(roots)
            configuration.tlsConfiguration = tls
        }
        configuration.httpVersion = http2 ? .automatic : .http1Only
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: connections)
        // A server that cannot be reached is refused at once, not retried until a timeout.
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout = .init(connect: .seconds(5), read: .seconds(60))
        configuration.redirectConfiguration = .disallow
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Starts `GET server + path`, with `headers` besides its number; returns the request's
    /// number (for `cancel(_:)`).
    func get(_ path: String, keepsBody: Bool, headers: [(name: String, value: String)] = [],
             completion: @escaping @Sendable (Answer) -> Void) -> Int {
        let number = numbers.withLock { number in
            number += 1
            return number
        }
        requests.withLock { $0[number] = (nil, 0, keepsBody) }
        do {
            var request = try HTTPClient.Request(url: server + path)
            // The app's order of requests, which `bench serve` keeps whatever order they reach it in.
            request.headers.add(name: Self.numberHeader, value: String(number))
            for header in headers { request.headers.add(name: header.name, value: header.value) }
            let task = client.execute(request: request, delegate: Reader(number: number, path: path, keepsBody: keepsBody, http: self,
                                                                         completion: completion))
            let cancelled = requests.withLock { requests -> Bool in
                guard requests[number] != nil else { return true }
                requests[number]!.task = task
                return false
            }
            if cancelled { task.cancel() }
        } catch {
            requests.withLock { $0[number] = nil }
            refuse(path, "expected a URL of the feed API: \(error)")
            completion(.none)
        }
        return number
    }

    /// Opens `count` connections before a run's clock starts, with a `GET /_conditions` on each
    /// (`bench serve`'s conditions; any answer will do), and waits for the answers. A simulated
    /// link has no connection set-up: here a cold client sent its first request 6.4 ms after it
    /// was asked to, which moved the first page past a frame. A server that cannot be reached
    /// is refused here (`check()`).
    ///
    /// Each request carries the set's count (`warmUpHeader`), and the server holds each answer
    /// until all `count` have come: HTTP/1.1 carries one request at a time on a connection, so
    /// the client opens `count` of them (over HTTP/2, `count` is 1: its one connection). Holding the answers here would not do: the client's pool
    /// takes a connection back as soon as an answer's last byte arrives, and a fast answer to the
    /// first request freed its connection for the last. `count` is at most the client's
    /// connection limit, so every request of the set can be sent.
    func warmUp(connections count: Int) {
        let answered = DispatchSemaphore(value: 0)
        for _ in 0..<count {
            _ = get("/_conditions", keepsBody: false, headers: [(Self.warmUpHeader, String(count))]) { _ in answered.signal() }
        }
        for _ in 0..<count { answered.wait() }
    }

    /// Cancels request `number`; its completion gets `.none`. Returns the bytes it had received.
    @discardableResult
    func cancel(_ number: Int) -> Int64 {
        let request = requests.withLock { $0[number] }
        request?.task?.cancel()
        return request?.bytes ?? 0
    }

    /// Bytes received so far by the requests under way whose bodies are not kept (the images).
    var bytesInFlight: Int64 {
        requests.withLock { $0.values.reduce(0) { $0 + ($1.keepsBody ? 0 : $1.bytes) } }
    }

    /// Throws the first refusal: the server cannot be used.
    func check() throws {
        if let error = failure.withLock({ $0 }) { throw error }
    }

    /// Records that the server at `path` cannot be used: `expected` is what was expected there.
    func refuse(_ path: String, _ expected: String) {
        failure.withLock { $0 = $0 ?? InputError(source: server + path, expected) }
    }

    /// Cancels every request and shuts the client down.
    func close() {
        for task in requests.withLock({ $0.values.compactMap(\.task) }) { task.cancel() }
        try? client.syncShutdown()
    }

    /// What one request reads: the status, the body's bytes as they arrive (kept when asked for),
    /// and how it ended, given once to its completion.
    final class Reader: HTTPClientResponseDelegate, @unchecked Sendable {
        typealias Response = Void

        let number: Int
        let path: String
        let keepsBody: Bool
        let http: LiveHTTP
        let completion: @Sendable (Answer) -> Void
        // Touched only on the request's event loop, one callback at a time.
        var status = 0
        var offline = false
        var body: [UInt8] = []
        var bytes: Int64 = 0

        init(number: Int, path: String, keepsBody: Bool, http: LiveHTTP, completion: @escaping @Sendable (Answer) -> Void) {
            (self.number, self.path, self.keepsBody, self.http, self.completion) = (number, path, keepsBody, http, completion)
        }

        func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
            status = Int(head.status.code)
            offline = head.headers.first(name: ServeConditions.offlineHeader.name) == ServeConditions.offlineHeader.value
            return task.eventLoop.makeSucceededVoidFuture()
        }

        func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
            bytes += Int64(buffer.readableBytes)
            if keepsBody {
                body += buffer.readableBytesView
            } else {
                let (number, bytes) = (number, bytes)
                http.requests.withLock { $0[number]?.bytes = bytes }
            }
            return task.eventLoop.makeSucceededVoidFuture()
        }

        func didFinishRequest(task: HTTPClient.Task<Void>) throws {
            http.requests.withLock { $0[number] = nil }
            completion(offline ? .offline : .reply(status: status, body: body, bytes: bytes))
        }

        func didReceiveError(task: HTTPClient.Task<Void>, _ error: Error) {
            http.requests.withLock { $0[number] = nil }
            switch error as? HTTPClientError {
            case .cancelled?:
                completion(.none)
            case .readTimeout?, .writeTimeout?, .remoteConnectionClosed?:
                completion(.lost)
            case .tlsHandshakeTimeout?:
                http.refuse(path, "expected a server of the feed API; TLS failed: \(error)")
                completion(.none)
            default:
                let text = String(describing: error)
                let tls = ["SSL", "TLS", "certificate", "handshake"].contains { text.localizedCaseInsensitiveContains($0) }
                http.refuse(path, "expected a server of the feed API; " + (tls ? "TLS failed: " : "cannot reach it: ") + text)
                completion(.none)
            }
        }
    }
}
#endif
