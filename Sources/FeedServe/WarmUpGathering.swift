#if HTTP
import NIOCore
import Synchronization

/// Warm-up requests held until a client's whole set has come: a live run opens its connections
/// before its clock starts with `count` `GET /_conditions` at once, each carrying
/// `header: count`, and each answer waits until `count` of that client's are waiting, or until
/// `patience` has passed. HTTP/1.1 carries one request at a time on a connection, so `count`
/// requests held together came on `count` connections.
///
/// Held by the client it would not be: AsyncHTTPClient gives a connection back to its pool as
/// soon as an answer's last byte arrives, whatever its reader has consumed, so a fast answer
/// to the first request freed its connection for the last one, and the run started with fewer
/// connections open (2 of 5 runs of the 10-second live session with FeedBench built `-O`).
///
/// Each client address has its own gathering. O(1) under one lock per request, but for the
/// release of a complete set (O(`count`)).
final class WarmUpGathering: Sendable {
    /// The request header a live run's warm-up requests carry their count in.
    static let header = "FeedBench-Warm-Up"
    /// The counts a request may carry: a client's connections (at most 1,000 per host) and the
    /// API's. Any other value is ignored, as a missing header is.
    static let counts = 1...1_001
    /// How long a request waits for the rest of its set, in nanoseconds.
    static let patience: Int64 = 1_000_000_000

    private struct Waiting {
        /// The requests waiting, by client and then by id.
        var clients: [String: [UInt64: CheckedContinuation<Void, Never>]] = [:]
        /// The next request's id: ids are never reused, so a late expiry finds nothing.
        var nextID: UInt64 = 0
    }

    private let waiting = Mutex(Waiting())

    /// Waits until `count` requests of `client` are waiting here, this one included, or until
    /// `patience` has passed (on `eventLoop`'s timer). No wait for a count of 1.
    func gather(_ count: Int, client: String, eventLoop: any EventLoop) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let (id, released) = waiting.withLock { waiting -> (UInt64, [CheckedContinuation<Void, Never>]) in
                let id = waiting.nextID
                waiting.nextID += 1
                var set = waiting.clients[client, default: [:]]
                set[id] = continuation
                guard set.count >= count else {
                    waiting.clients[client] = set
                    return (id, [])
                }
                waiting.clients[client] = nil
                return (id, Array(set.values))
            }
            guard released.isEmpty else {
                for request in released { request.resume() }
                return
            }
            eventLoop.scheduleTask(in: .nanoseconds(Self.patience)) { self.expire(id, client: client) }
        }
    }

    /// Request `id` of `client` has waited long enough: it goes alone.
    private func expire(_ id: UInt64, client: String) {
        let continuation = waiting.withLock { waiting -> CheckedContinuation<Void, Never>? in
            guard var set = waiting.clients[client], let continuation = set.removeValue(forKey: id) else { return nil }
            waiting.clients[client] = set.isEmpty ? nil : set
            return continuation
        }
        continuation?.resume()
    }

    /// The count `header` gives, if it is a whole number in `counts`.
    static func count(_ value: String?) -> Int? {
        guard let value, let count = Int(value), counts.contains(count) else { return nil }
        return count
    }
}
#endif
