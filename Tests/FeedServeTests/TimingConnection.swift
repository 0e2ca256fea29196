#if HTTP
import Foundation
import Synchronization
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A stopwatch client for the latency tests: HTTP/1.1 GETs on one kept-alive TCP connection to
/// 127.0.0.1, sent and read with blocking calls on a thread of its own.
///
/// URLSession's replies resume the awaiting task on Swift's cooperative pool, which has two
/// threads here and shares them with the server under test; with six requests in flight its p99
/// came back 7–10 ms late while the server's own log showed its delays within 0.6 ms. On a thread
/// of its own, the time measured is the server's and the kernel's.
final class TimingConnection {
    private let socket: Int32
    private var buffer: [UInt8] = []
    private var closed = false

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Connects to `port` on 127.0.0.1.
    init(port: UInt16) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(socket)
            throw Failure(description: "connect to 127.0.0.1:\(port): errno \(errno)")
        }
        var one: Int32 = 1
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit { if !closed { close(socket) } }

    /// Sends `GET path` and reads the whole reply (its body by Content-Length); returns the status
    /// and the seconds from the first byte sent to the last byte read.
    func get(_ path: String) throws -> (status: Int, seconds: Double) {
        let start = ContinuousClock.now
        try send(path)
        let separator = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        while headEnd == nil {
            headEnd = buffer.indices.dropLast(3).first { buffer[$0..<$0 + 4].elementsEqual(separator) }
            if headEnd == nil { try receive() }
        }
        let head = String(decoding: buffer[..<headEnd!], as: UTF8.self).split(separator: "\r\n")
        guard let statusLine = head.first, statusLine.hasPrefix("HTTP/1.1 "), let status = Int(statusLine.dropFirst(9).prefix(3)) else {
            throw Failure(description: "not an HTTP/1.1 reply: \(head.first ?? "")")
        }
        let lengthField = head.dropFirst().first { $0.lowercased().hasPrefix("content-length:") }
        guard let lengthField, let length = Int(lengthField.dropFirst(15).trimmingCharacters(in: .whitespaces)) else {
            throw Failure(description: "reply without a Content-Length")
        }
        let end = headEnd! + 4 + length
        while buffer.count < end { try receive() }
        let elapsed = ContinuousClock.now - start
        buffer.removeFirst(end)
        return (status, elapsed.inSeconds)
    }

    /// Sends `GET path`, reads until `bytes` bytes of the reply (its head included) have come,
    /// then resets the connection, as a client that cancels a download does.
    func abandon(_ path: String, after bytes: Int) throws {
        try send(path)
        while buffer.count < bytes { try receive() }
        var linger = linger(l_onoff: 1, l_linger: 0)
        setsockopt(socket, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
        close(socket)
        closed = true
    }

    /// Sends `GET path`, waits `milliseconds` without reading, and closes the connection (a
    /// FIN, as a client that cancels its request does).
    func giveUp(_ path: String, after milliseconds: UInt32) throws {
        try send(path)
        usleep(milliseconds * 1_000)
        close(socket)
        closed = true
    }

    private func send(_ path: String) throws {
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        var sent = 0
        while sent < request.count {
            let count = request[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw Failure(description: "send: errno \(errno)") }
            sent += count
        }
    }

    private func receive() throws {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { throw Failure(description: count == 0 ? "the server closed the connection" : "recv: errno \(errno)") }
        buffer += chunk[..<count]
    }
}
#endif
