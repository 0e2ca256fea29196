#if HTTP
import NIOCore
import NIOHTTP2

/// Closes an HTTP/2 connection where NIOHTTP2 leaves that to its user. It sits between TLS and
/// the HTTP/2 handler, and closes the connection
/// - when the client closes its side (a FIN, or TLS's close_notify): it can send nothing more,
///   not even the WINDOW_UPDATEs a response needs, so its streams are over. Left open, the
///   socket stayed in CLOSE-WAIT for good: 20 `h2load -n 1` runs, 20 descriptors more.
/// - once the server has sent a GOAWAY for an error: RFC 9113 §5.4.1 says the endpoint then
///   closes the TCP connection. The HTTP/2 handler stops decoding there but went on buffering
///   what came after it (100 MB sent after a bad frame, 97 MB more resident). From that GOAWAY
///   on, what arrives is dropped, and the connection is closed once the GOAWAY is flushed.
///
/// - `graceTime` after a graceful GOAWAY (NO_ERROR: the server stopping, or the connection idle):
///   the streams under way have that long to finish. NIO's connection manager times its grace
///   only from the client's answer to the PING it sends with the GOAWAY, so a client that never
///   answered kept the connection open for good.
///
/// It finds the GOAWAY by following the frames the HTTP/2 handler writes: each frame's 9-byte
/// header gives its length and type (RFC 9113 §4.1), and a GOAWAY's payload its error code in
/// bytes 4…7 (§6.8). O(1) a write, beyond gathering at most 9 bytes of a header.
final class HTTP2ConnectionEnd: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    /// The frame header's type of a GOAWAY (RFC 9113 §6.8).
    static let goAway: UInt8 = 0x7

    /// The bytes gathered of the current frame's header, or of a GOAWAY's first 8 payload bytes.
    private var gathered: [UInt8] = []
    /// The current frame's payload bytes not yet written.
    private var payloadLeft = 0
    /// Whether `gathered` holds the start of a GOAWAY's payload.
    private var inGoAway = false
    /// Whether a GOAWAY with an error code has been written.
    private var failed = false
    /// Whether a graceful GOAWAY has been written.
    private var graceful = false
    private var closing = false
    private let graceTime: TimeAmount
    private var graceEnd: Scheduled<Void>?

    init(graceTime: TimeAmount) {
        self.graceTime = graceTime
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !failed else { return }
        context.fireChannelRead(data)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        context.fireUserInboundEventTriggered(event)
        if let event = event as? ChannelEvent, event == .inputClosed { close(context) }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .byteBuffer(let buffer): follow(buffer.readableBytesView)
        // Only a DATA frame's payload is written from a file.
        case .fileRegion(let region): payloadLeft = max(0, payloadLeft - region.readableBytes)
        }
        context.write(data, promise: promise)
    }

    func flush(context: ChannelHandlerContext) {
        context.flush()
        if failed {
            close(context)
        } else if graceful && graceEnd == nil {
            let channel = context.channel
            graceEnd = context.eventLoop.scheduleTask(in: graceTime) { channel.close(promise: nil) }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        graceEnd?.cancel()
        context.fireChannelInactive()
    }

    private func close(_ context: ChannelHandlerContext) {
        guard !closing else { return }
        closing = true
        context.close(promise: nil)
    }

    /// Follows the frames in `bytes`, the next the connection writes.
    private func follow(_ bytes: ByteBufferView) {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if payloadLeft > 0 && !inGoAway {
                let passed = min(payloadLeft, bytes.endIndex - index)
                index += passed
                payloadLeft -= passed
                continue
            }
            gathered.append(bytes[index])
            index += 1
            if inGoAway {
                payloadLeft -= 1
                guard gathered.count == 8 else { continue }
                // The last stream's identifier, then the error code: NO_ERROR (0) or an error.
                if gathered[4...].contains(where: { $0 != 0 }) { failed = true } else { graceful = true }
                inGoAway = false
                gathered.removeAll(keepingCapacity: true)
            } else if gathered.count == 9 {
                payloadLeft = Int(gathered[0]) << 16 | Int(gathered[1]) << 8 | Int(gathered[2])
                inGoAway = gathered[3] == Self.goAway && payloadLeft >= 8
                gathered.removeAll(keepingCapacity: true)
            }
        }
    }
}

/// Lets an HTTP/2 connection go that opens no stream within `timeout` of its start. NIO's
/// connection manager times the idle spells between streams, but starts its clock on a
/// `channelActive` that a connection set up after TLS never shows it. At the tail of the
/// connection's pipeline this sees the streams created; at the deadline, with none, it asks the
/// manager for its graceful close (`ChannelShouldQuiesceEvent`: a GOAWAY, then the close).
final class HTTP2FirstStreamDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTP2Frame
    private let timeout: TimeAmount
    private var deadline: Scheduled<Void>?

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        deadline = context.eventLoop.scheduleTask(in: timeout) { channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent()) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is NIOHTTP2StreamCreatedEvent {
            deadline?.cancel()
            deadline = nil
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        context.fireChannelInactive()
    }
}
#endif
