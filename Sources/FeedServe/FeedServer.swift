#if HTTP
import FeedBench
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import Synchronization

/// `bench serve`: the mock feed API and the image host as a real HTTP server (Hummingbird 2 on
/// SwiftNIO), driven by the simulator's own models so that a real app and `bench run` see the
/// same feed under the same conditions. Plain HTTP/1.1, or with `ServeSettings.tls` HTTP/2 and
/// HTTP/1.1 over TLS on one port, as the client's ALPN chooses.
///
/// - `GET /v1/images/search?limit=10&page=N`: page N of `MockFeedAPI`'s feed for the seed (the
///   first `limit` of its 10 images) as `[{id, url, width, height}]`, after a latency drawn from
///   the API's model in arrival order; spikes, 5xx failures, timeouts (504 after the timeout)
///   and 429s with `Retry-After` as the simulator draws them.
/// - `GET /images/{id}.jpg`: a baseline JPEG of the catalogue image's size in pixels and exactly
///   its modelled bytes (`SyntheticJPEG`), with `ETag`, `Cache-Control`, `Last-Modified`,
///   `If-None-Match` (304) and `Range` (206, 416); at most `requestsPerHost` at once per
///   client (its connections over HTTP/1.1, its streams over HTTP/2). Over HTTP/2 a request's
///   RFC 9218 `priority` header with an urgency of 0…2 makes its stream urgent in the model.
/// Both cross the simulation's network model (`ServedNetwork`: handshakes, slow start, the shared
/// bottleneck, losses), the API's latency being the server's own time: each response's bytes are
/// written as the model delivers them, so the client has its last byte when the simulated app
/// would.
/// - `GET`/`PUT /_conditions`: the conditions as JSON (`ServeConditions`), changed at run time.
/// - `GET /openapi.yaml`: the API in OpenAPI 3.1.
/// Errors are one-line JSON objects (`{"error": "…"}`); the server keeps serving.
public struct FeedServer: Sendable {
    public let settings: ServeSettings

    public init(settings: ServeSettings) {
        self.settings = settings
    }

    /// Serves in a task of its own (`run`) and returns, once the socket is bound, the URL it
    /// listens on and the task: cancel it to stop the server. Throws what `run` throws if it
    /// stops before listening. With an `executor`, the server's tasks run on it rather than on
    /// Swift's shared pool, which other work in the process may keep busy.
    public func start(on executor: (any TaskExecutor)? = nil) async throws -> (url: String, task: Task<Void, Error>) {
        let (urls, continuation) = AsyncStream<String>.makeStream()
        let task = Task(executorPreference: executor) {
            defer { continuation.finish() }
            try await run { url in continuation.yield(url) }
        }
        var iterator = urls.makeAsyncIterator()
        guard let url = await iterator.next() else {
            try await task.value
            throw InputError(source: "serve", "stopped before listening")
        }
        return (url, task)
    }

    /// Serves until SIGINT or SIGTERM (then finishes the responses under way) or until the task
    /// is cancelled. `onListening` gets the URL once the socket is bound. Throws an `InputError`
    /// when the address cannot be listened on (taken, not local) or the log cannot be written,
    /// at the start or later (then the server stops, the log holding every line written whole).
    public func run(onListening: @escaping @Sendable (String) async -> Void) async throws {
        let log = try settings.logPath.map(RequestLog.init(path:))
        defer { log?.close() }
        let state = try ServeState(settings: settings, log: log)
        let router = Router(context: ServeContext.self)
        router.add(middleware: ErrorMiddleware(state: state))
        let handlers = Handlers(state: state)
        router.get("/v1/images/search", use: handlers.search)
        router.get("/images/:file", use: handlers.image)
        router.get("/_conditions", use: handlers.conditions)
        router.put("/_conditions", use: handlers.changeConditions)
        router.get("/openapi.yaml", use: handlers.openAPI)
        let host = settings.host
        let closures = state.closures
        let listened = SharedFlag()
        // Tells the server when a client closes its connection or resets its stream (`ClientClosures`).
        let clientTimeout = TimeAmount(settings.clientTimeout)
        let http1 = HTTP1Channel.Configuration(additionalChannelHandlers: [ClientClosures.Watcher(closures)], idleTimeout: clientTimeout)
        let quota = ConnectionQuota()
        let server: HTTPServerBuilder = try settings.tls.map { tls in
            let configuration = try tls.configuration()
            // HTTP/2 connections advertise the stream limit of the conditions current when they start.
            return HTTPServerBuilder { responder in
                ConnectionQuota.Gate(base: try NegotiatedHTTPChannel(tls: configuration, requests: http1, clientTimeout: clientTimeout,
                                                                     streamLimit: { state.conditions.network.maxConcurrentStreams },
                                                                     responder: responder), quota: quota)
            }
        } ?? HTTPServerBuilder { responder in ConnectionQuota.Gate(base: HTTP1Channel(responder: responder, configuration: http1), quota: quota) }
        let scheme = state.scheme
        let app = Application(
            router: router,
            server: server,
            // A backlog of 1,024 connections waiting to be accepted, not Hummingbird's 256: the
            // conditions allow 1,000 connections per host, and when 1,000 clients connected at
            // once (.ci/serve-checks) the kernel's queue overflowed, delaying connections by SYN
            // retransmissions and resetting some (the kernel caps it at net.core.somaxconn).
            configuration: ApplicationConfiguration(address: .hostname(host, port: settings.port), serverName: "bench-serve", backlog: 1_024),
            onServerRunning: { channel in
                listened.withLock { $0 = true }
                let port = channel.localAddress?.port ?? 0
                await onListening("\(scheme)://\(host.contains(":") ? "[\(host)]" : host):\(port)")
            },
            logger: Logger(label: "bench-serve", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        do {
            // The server stops when the log cannot be written: it says so rather than serve on
            // with requests missing from the log.
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await app.runService() }
                if let log { group.addTask { try await log.failure() } }
                try await group.next()
                group.cancelAll()
            }
        } catch {
            // A server that never listened leaves no log behind.
            if let path = settings.logPath, !listened.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: path) }
            guard let error = error as? IOError else { throw error }
            // "Address already in use", not NIO's description of the call that failed.
            throw InputError(source: "serve", "cannot listen on \(host):\(settings.port): \(String(cString: strerror(error.errnoCode)))")
        }
    }
}

/// A flag set on one task and read on another (whether the server got to listen).
final class SharedFlag: Sendable {
    private let value = Mutex(false)

    func withLock<Result>(_ body: (inout Bool) -> Result) -> Result { value.withLock { body(&$0) } }
}

/// Each request's context: the client's address (its connections are limited) and its channel
/// (an HTTP/2 stream's, or its connection's).
struct ServeContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let client: String
    let channel: any Channel
    /// Whether the request came as an HTTP/2 stream.
    let isStream: Bool
    /// The connection's event loop: its responses' waits are timed on it.
    let eventLoop: any EventLoop

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
        isStream = source.channel.isHTTP2Stream
        client = (isStream ? source.channel.parent : source.channel)?.remoteAddress?.ipAddress ?? "unknown"
        eventLoop = source.channel.eventLoop
    }

    /// What the client cancels the request by closing (its channel's identity while it lives,
    /// for the closures' watch): its connection over HTTP/1.1, its stream over HTTP/2.
    var connection: ObjectIdentifier { ObjectIdentifier(channel) }

    /// The protocol as the request log names it.
    var httpProtocol: String { isStream ? RequestLogFile.http2 : RequestLogFile.http11 }
}

extension Channel {
    /// Whether this is an HTTP/2 stream's channel: a child of its connection's channel, itself a
    /// child of the listening socket's (a connection's channel has no grandparent).
    var isHTTP2Stream: Bool { parent?.parent != nil }
}

/// Turns every error into a one-line JSON body (and logs it): unknown routes, oversized paths,
/// anything a handler throws.
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = ServeContext
    let state: ServeState

    func handle(_ request: Request, context: ServeContext, next: (Request, ServeContext) async throws -> Response) async throws -> Response {
        let arrived = state.now
        // A numbered request has had its turn once answered, whether it crossed the model or not.
        let number = Handlers.number(request)
        defer { state.order.done(number, client: context.client) }
        let response: Response
        if request.uri.string.utf8.count > 2_048 {
            response = Handlers.error(.badRequest, "path longer than 2048 bytes")
        } else {
            do {
                return try await next(request, context)
            } catch is ClientClosed {
                // The client closed its connection before the answer: its line is written.
                return Response(status: .init(code: RequestLogFile.clientClosed))
            } catch let error as HTTPError where error.status == .notFound && request.method.rawValue != "GET" {
                response = Self.notFound(request)
            } catch let error as HTTPError {
                response = Handlers.error(error.status, error.body ?? (error.status == .notFound ? "no such resource" : error.status.reasonPhrase))
            } catch {
                response = Handlers.error(.internalServerError, "\(error)")
            }
        }
        Handlers.log(state, request, context, status: response.status.code, bytes: response.body.contentLength ?? 0, arrived: arrived, delay: 0)
        return response
    }

    /// The methods each route answers, for the 405s of the others.
    static func allowedMethods(path: String) -> [String]? {
        let route = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        switch route {
        case "/v1/images/search", "/openapi.yaml": return ["GET"]
        case "/_conditions": return ["GET", "PUT"]
        case _ where route.hasPrefix("/images/") && !route.dropFirst(8).isEmpty && !route.dropFirst(8).contains("/"): return ["GET"]
        default: return nil
        }
    }

    /// What a request no route took gets: 405 with `Allow` when its path exists for other
    /// methods, else 404.
    static func notFound(_ request: Request) -> Response {
        guard let allowed = allowedMethods(path: request.uri.string) else { return Handlers.error(.notFound, "no such resource") }
        var response = Handlers.error(.methodNotAllowed, "\(request.method.rawValue) \(request.uri.path): expected \(allowed.joined(separator: " or "))")
        response.headers[.allow] = allowed.joined(separator: ", ")
        return response
    }
}
#endif
