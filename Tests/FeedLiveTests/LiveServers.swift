#if HTTP
import FeedBench
import FeedServe
import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The servers the live tests run against, on 127.0.0.1 at free ports.
enum LiveServers {
    /// Starts `bench serve` in process, on threads of its own (`OwnThreads`); returns its URL
    /// and the task to cancel when done.
    static func feed(_ conditions: ServeConditions, seed: UInt64, log: String, tls: ServeTLS? = nil) async throws -> (url: String, task: Task<Void, Error>) {
        try await FeedServer(settings: ServeSettings(host: "127.0.0.1", port: 0, seed: seed, conditions: conditions, logPath: log, tls: tls))
            .start(on: OwnThreads.executor)
    }

    /// A server that answers every request with `200 OK` and `body`, on a thread of its own,
    /// until the process ends. Returns its URL.
    static func garbage(_ body: String) throws -> String {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        guard bound, listen(listener, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
        let response = Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)".utf8)
        Thread.detachNewThread {
            while true {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { return }
                var request = [UInt8](repeating: 0, count: 4_096)
                _ = read(client, &request, request.count)
                _ = response.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
                close(client)
            }
        }
        return "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))"
    }
}
#endif
