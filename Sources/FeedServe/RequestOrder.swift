#if HTTP
import NIOCore
import Synchronization

/// The order in which a client sent its requests, when it says (`header`, which a live run
/// sends: 1, 2, … in the order the app made them): a numbered request enters the network model
/// only after the ones numbered before it have, as in the simulation, where requests made in one
/// frame take connections, the uplink and the buffer in the app's order.
///
/// On loopback, requests sent in one frame over several connections reach the server's handlers
/// in any order (two event loops, two threads of tasks): at 3g the four downloads of the first
/// page came 333, 3217 swapped, each on the other's connection and behind the other's request
/// on an uplink that takes 11 ms a request, and the bytes each had when cancelled differed by
/// up to 17 %. A request waits for its predecessors at most `patience` (one the client cancelled
/// before sending never comes); a request without the header is not ordered.
///
/// Each client address keeps its own count (a count starting again at 1 is a new run). O(1)
/// under one lock per call, but for the waiters released by an expiry.
final class RequestOrder: Sendable {
    /// The request header a live run numbers its requests with.
    static let header = "FeedBench-Request"
    /// How long a request waits for the ones numbered before it, in nanoseconds.
    static let patience: Int64 = 5_000_000

    struct Client {
        /// The lowest number that has not had its turn.
        var next = 1
        /// Numbers at or above `next` that have had theirs, and those having it now.
        var done: Set<Int> = []
        var going: Set<Int> = []
        /// Numbers below it that have not come are skipped (a waiting request expired).
        var skipBelow = 1
        var waiting: [Int: CheckedContinuation<Void, Never>] = [:]

        /// Moves `next` past the numbers done or skipped; the request waiting at it, if any, is
        /// to go (and is marked going). O(numbers that came × their count): the numbers skipped
        /// are jumped over, not counted, so a client's huge number costs its patience and no more.
        mutating func advance() -> CheckedContinuation<Void, Never>? {
            while true {
                if going.contains(next) { return nil }
                if done.remove(next) != nil { next += 1; continue }
                if let continuation = waiting.removeValue(forKey: next) {
                    going.insert(next)
                    return continuation
                }
                guard next < skipBelow else { return nil }
                // No number from here to the next one that came (or to `skipBelow`) ever will.
                let came = [done.min(), going.min(), waiting.keys.min()].compactMap { $0 }.filter { $0 > next }.min()
                next = min(skipBelow, came ?? skipBelow)
            }
        }
    }

    private let clients = Mutex([String: Client]())

    /// Waits until the requests of `client` numbered below `number` have had their turn, or
    /// `patience` has passed (on `eventLoop`'s timer). No wait without a number; a number that
    /// comes after its turn was skipped goes at once.
    func turn(_ number: Int?, client: String, eventLoop: any EventLoop) async {
        guard let number else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = clients.withLock { clients -> Bool in
                var state = Self.state(of: client, for: number, in: clients)
                defer { clients[client] = state }
                if number < state.next { return true }
                if number == state.next && !state.going.contains(number) {
                    state.going.insert(number)
                    return true
                }
                state.waiting[number] = continuation
                return false
            }
            if now {
                continuation.resume()
            } else {
                eventLoop.scheduleTask(in: .nanoseconds(Self.patience)) { self.expire(number, client: client) }
            }
        }
    }

    /// Request `number` of `client` has had its turn: it entered the model, or it never will.
    /// Idempotent. Lets the next request go if it is waiting.
    func done(_ number: Int?, client: String) {
        guard let number else { return }
        let next = clients.withLock { clients -> CheckedContinuation<Void, Never>? in
            var state = Self.state(of: client, for: number, in: clients)
            defer { clients[client] = state }
            state.going.remove(number)
            if number >= state.next { state.done.insert(number) }
            return state.advance()
        }
        next?.resume()
    }

    /// Request `number` of `client` has waited long enough: the numbers below it that have not
    /// come are skipped, and the requests waiting before it then go one after another.
    private func expire(_ number: Int, client: String) {
        let next = clients.withLock { clients -> CheckedContinuation<Void, Never>? in
            guard var state = clients[client], state.waiting[number] != nil else { return nil }
            defer { clients[client] = state }
            state.skipBelow = max(state.skipBelow, number)
            return state.advance()
        }
        next?.resume()
    }

    /// The count of `client` as request `number` finds it: a new one for a client not seen, or
    /// whose count starts again (number 1 after others: a new run from the same address; not
    /// right after number 1 itself, whose `done` may come twice).
    private static func state(of client: String, for number: Int, in clients: [String: Client]) -> Client {
        guard let state = clients[client], !(number == 1 && state.next > 2) else {
            return Client()
        }
        return state
    }

    /// The number `header` gives, if it is a positive whole number.
    static func number(_ value: String?) -> Int? {
        guard let value, let number = Int(value), number > 0 else { return nil }
        return number
    }
}
#endif
