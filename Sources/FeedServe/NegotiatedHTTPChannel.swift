#if HTTP
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP2
import NIOHTTPTypesHTTP2
import NIOSSL
import NIOTLS

/// A `bench serve --tls` connection: TLS, then HTTP/2 or HTTP/1.1 as the client's ALPN chooses,
/// on one port. An HTTP/2 connection advertises and enforces the stream limit the conditions had
/// when it was set up (`maxConcurrentStreams`), where Hummingbird's `http2Upgrade` always says 100.
/// A client silent for `clientTimeout` is let go: before its TLS handshake and ALPN are done,
/// with no stream open (HTTP/2), or with a request's head or body unfinished (each stream's
/// handler, as an HTTP/1.1 connection's).
struct NegotiatedHTTPChannel: HTTPChannelHandler {
    typealias Streams = NIOHTTP2Handler.AsyncStreamMultiplexer<HTTP1Channel.Value>
    typealias Negotiated = NIONegotiatedHTTPVersion<HTTP1Channel.Value, Streams>

    struct Value: ServerChildChannelValue {
        let negotiated: EventLoopFuture<Negotiated>
        let channel: any Channel
    }

    let responder: Responder
    private let tls: NIOSSLContext
    /// Each request's handlers after the HTTP codec, over either protocol.
    private let requests: HTTP1Channel.Configuration
    private let http1: HTTP1Channel
    private let streamLimit: @Sendable () -> Int
    private let clientTimeout: TimeAmount

    /// `streamLimit` is read as each HTTP/2 connection is set up.
    init(tls configuration: TLSConfiguration, requests: HTTP1Channel.Configuration, clientTimeout: TimeAmount,
         streamLimit: @escaping @Sendable () -> Int, responder: @escaping Responder) throws {
        var configuration = configuration
        configuration.applicationProtocols = ["h2", "http/1.1"]
        tls = try NIOSSLContext(configuration: configuration)
        self.requests = requests
        self.streamLimit = streamLimit
        self.clientTimeout = clientTimeout
        self.responder = responder
        http1 = HTTP1Channel(responder: responder, configuration: requests)
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls))
            let alpn = NIOTypedApplicationProtocolNegotiationHandler<Negotiated> { result in
                switch result {
                case .negotiated("h2"):
                    return channel.eventLoop.makeCompletedFuture { .http2(try http2(channel, logger: logger)) }
                case .negotiated("http/1.1"), .fallback:
                    return http1.setup(channel: channel, logger: logger).map { .http1_1($0) }
                case .negotiated:
                    return channel.close().flatMapThrowing { throw NIOHTTP2Errors.invalidALPNToken() }
                }
            }
            try channel.pipeline.syncOperations.addHandler(alpn)
            let handshakeTimeout = channel.eventLoop.scheduleTask(in: clientTimeout) { channel.close(promise: nil) }
            alpn.protocolNegotiationResult.whenComplete { _ in handshakeTimeout.cancel() }
            return Value(negotiated: alpn.protocolNegotiationResult, channel: channel)
        }
    }

    /// The HTTP/2 connection's pipeline: the connection closed when its client closes it, after
    /// a GOAWAY for an error, and `clientTimeout` after a graceful one (`HTTP2ConnectionEnd`);
    /// SETTINGS with the current stream limit; a graceful close on shutdown or after
    /// `clientTimeout` with no stream open (GOAWAY, then the streams under way finish; no age
    /// limit; `HTTP2FirstStreamDeadline` before the first stream); and each stream's channel
    /// decoding HTTP as an HTTP/1.1 connection's does.
    private func http2(_ channel: any Channel, logger: Logger) throws -> Streams {
        try channel.pipeline.syncOperations.addHandler(HTTP2ConnectionEnd(graceTime: clientTimeout))
        var settings = nioDefaultSettings.filter { $0.parameter != .maxConcurrentStreams }
        settings.append(HTTP2Setting(parameter: .maxConcurrentStreams, value: streamLimit()))
        var configuration = NIOHTTP2Handler.Configuration()
        configuration.connection.initialSettings = settings
        let streams = try channel.pipeline.syncOperations.configureAsyncHTTP2Pipeline(
            mode: .server,
            connectionManagerConfiguration: .init(maxIdleTime: clientTimeout, maxAge: nil, maxGraceTime: nil, keepalive: nil),
            http2HandlerConfiguration: configuration
        ) { stream in
            stream.eventLoop.makeCompletedFuture {
                let pipeline = stream.pipeline.syncOperations
                try pipeline.addHandler(HTTP2FramePayloadToHTTPServerCodec())
                try pipeline.addHandlers(requests.additionalChannelHandlers())
                try pipeline.addHandler(HTTPConnectionStateHandler(idleTimeout: requests.idleTimeout.map(Duration.init), logger: logger))
                return try HTTP1Channel.Value(wrappingChannelSynchronously: stream)
            }
        }
        try channel.pipeline.syncOperations.addHandler(HTTP2FirstStreamDeadline(timeout: clientTimeout))
        return streams
    }

    func handle(value: Value, logger: Logger) async {
        do {
            switch try await value.negotiated.get() {
            case .http1_1(let connection):
                await http1.handle(value: connection, logger: logger)
            case .http2(let streams):
                // Every stream is one request, answered as HTTP/1.1's are.
                try await withThrowingDiscardingTaskGroup { group in
                    for try await stream in streams.inbound {
                        group.addTask { await handleHTTP(asyncChannel: stream, logger: logger) }
                    }
                }
            }
        } catch {
            logger.debug("connection ended: \(error)")
        }
    }
}
#endif
