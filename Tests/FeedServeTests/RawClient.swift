#if HTTP
import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import Synchronization

/// A client that sends bytes rather than requests, to a server on 127.0.0.1: over TCP, or over
/// TLS (any certificate accepted, the ALPN protocols given), keeping what it receives, so a test
/// can send what no HTTP client would (a half head, a bad frame, nothing) and see when the
/// server closes.
final class RawClient: Sendable {
    let channel: any Channel
    private let bytes: Received

    private init(channel: any Channel, bytes: Received) {
        self.channel = channel
        self.bytes = bytes
    }

    /// Connects to `port`; over TLS with `alpn` when it is not `nil`.
    static func connect(port: Int, alpn: [String]? = nil) async throws -> RawClient {
        let context = try alpn.map { protocols in
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.certificateVerification = .none
            configuration.applicationProtocols = protocols
            return try NIOSSLContext(configuration: configuration)
        }
        let received = Received()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).channelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                if let context { try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: context, serverHostname: nil)) }
                try channel.pipeline.syncOperations.addHandler(Collector(received))
            }
        }.connect(host: "127.0.0.1", port: port).get()
        return RawClient(channel: channel, bytes: received)
    }

    /// The bytes received so far.
    var received: [UInt8] { bytes.value.withLock { $0 } }

    func send(_ bytes: [UInt8]) async throws {
        try await channel.writeAndFlush(ByteBuffer(bytes: bytes)).get()
    }

    /// Waits until at least `count` bytes have come, or `limit` passes; whether they came.
    func received(atLeast count: Int, within limit: Duration) async -> Bool {
        await Self.poll(within: limit) { self.received.count >= count } != nil
    }

    /// How long after the call the server closed the connection, or `nil` if it stayed open
    /// for `limit`.
    func closed(within limit: Duration) async -> Duration? {
        await Self.poll(within: limit) { !self.channel.isActive }
    }

    /// Checks `condition` every 10 ms for `limit`: how long until it held, or `nil`.
    static func poll(within limit: Duration, _ condition: () -> Bool) async -> Duration? {
        let start = ContinuousClock.now
        while true {
            if condition() { return ContinuousClock.now - start }
            guard ContinuousClock.now - start < limit else { return nil }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    final class Received: Sendable {
        let value = Mutex<[UInt8]>([])
    }

    /// Appends what the server sends to `received`.
    final class Collector: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        let received: Received

        init(_ received: Received) {
            self.received = received
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = unwrapInboundIn(data)
            received.value.withLock { $0 += buffer.readableBytesView }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }
}

/// HTTP/2's bytes as a raw client sends and reads them (RFC 9113 §3.4, §4.1).
enum HTTP2Bytes {
    /// The client's preface and an empty SETTINGS frame.
    static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + frame(type: 0x4, payload: [])
    /// A SETTINGS frame of 5 bytes, not a multiple of 6: a FRAME_SIZE_ERROR for the connection.
    static let badSettings = frame(type: 0x4, payload: [0, 0, 0, 0, 0])

    static func frame(type: UInt8, payload: [UInt8]) -> [UInt8] {
        [UInt8(payload.count >> 16 & 0xFF), UInt8(payload.count >> 8 & 0xFF), UInt8(payload.count & 0xFF), type, 0, 0, 0, 0, 0] + payload
    }

    /// The error codes of the GOAWAY frames in `bytes`, the frames a server sent.
    static func goAwayErrors(in bytes: [UInt8]) -> [UInt32] {
        var errors: [UInt32] = [], index = 0
        while index + 9 <= bytes.count {
            let length = Int(bytes[index]) << 16 | Int(bytes[index + 1]) << 8 | Int(bytes[index + 2])
            let payload = index + 9
            guard payload + length <= bytes.count else { break }
            if bytes[index + 3] == 0x7, length >= 8 {
                errors.append(bytes[(payload + 4)..<(payload + 8)].reduce(0) { $0 << 8 | UInt32($1) })
            }
            index = payload + length
        }
        return errors
    }
}
#endif
