#if HTTP
import FeedBench
import Foundation
import Synchronization

/// Everything the server's requests share, under one lock: the conditions (changed by
/// `PUT /_conditions`), the mock API that draws each call's latency and fault in arrival order,
/// the page book, the link's transfers in flight, and connection numbers for the log.
final class ServeState: Sendable {
    struct Inner {
        var conditions: ServeConditions
        var api: MockFeedAPI
        var pages: FeedPageBook
        /// The round trips and losses, drawn as the simulated link draws them for the same seed,
        /// in the app's order of attempts when the requests are numbered.
        var attempts: NumberedAttempts
        /// Image bodies being sent now: they share the bandwidth equally.
        private(set) var transfers = 0
        /// Processor sharing's virtual time: the seconds of the whole link each transfer in
        /// flight has had since the server started, exact whenever transfers come and go (a
        /// transfer's bytes are its bandwidth times its share since it began).
        private(set) var share = 0.0
        private(set) var sharedUntil = ContinuousClock.now

        /// Brings `share` to `now`, at the sharing of the time since it was last brought.
        mutating func advanceShare(to now: ContinuousClock.Instant) {
            if transfers > 0, now > sharedUntil { share += (now - sharedUntil).seconds / Double(transfers) }
            sharedUntil = max(sharedUntil, now)
        }

        /// A transfer begins at `now`: returns the share so far, its starting point.
        mutating func beginTransfer(at now: ContinuousClock.Instant) -> Double {
            advanceShare(to: now)
            transfers += 1
            return share
        }

        /// A transfer ends (sent, or its client went away) at `now`.
        mutating func endTransfer(at now: ContinuousClock.Instant) {
            advanceShare(to: now)
            transfers -= 1
        }
        /// Image responses under way per client address, and the ones waiting for a slot.
        var slots: [String: Int] = [:]
        var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]
        var connections: [ObjectIdentifier: Int] = [:]
    }

    let inner: Mutex<Inner>
    let seed: UInt64
    let catalog: ImageCatalog
    let started = ContinuousClock.now
    let log: RequestLog?

    init(settings: ServeSettings, log: RequestLog?) throws {
        var api = settings.conditions.api
        api.catalog = settings.catalog
        var conditions = settings.conditions
        conditions.api = api
        inner = Mutex(Inner(conditions: conditions, api: try MockFeedAPI(configuration: api, seed: settings.seed),
                            pages: FeedPageBook(catalog: settings.catalog, seed: settings.seed),
                            attempts: NumberedAttempts(seed: settings.seed)))
        seed = settings.seed
        catalog = settings.catalog
        self.log = log
    }

    /// Nanoseconds since the server started.
    var now: Int64 {
        (ContinuousClock.now - started).nanoseconds
    }

    var conditions: ServeConditions { inner.withLock { $0.conditions } }

    /// Replaces the conditions; the API's draws continue (its call count, its window of 429s)
    /// under the new models.
    func update(_ conditions: ServeConditions) throws {
        var api = conditions.api
        api.catalog = catalog
        try api.validate(source: "/_conditions")
        inner.withLock { state in
            var updated = conditions
            updated.api = api
            state.conditions = updated
            state.api.reconfigure(api)
        }
    }

    /// The connection's number in the log: 1, 2, … in order of first request.
    func connectionNumber(_ id: ObjectIdentifier) -> Int {
        inner.withLock { state in
            if let number = state.connections[id] { return number }
            let number = state.connections.count + 1
            state.connections[id] = number
            return number
        }
    }

    /// Waits for one of the client's connections (the network preset's per-host limit).
    func acquireSlot(for client: String) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = inner.withLock { state -> Bool in
                if state.slots[client, default: 0] < state.conditions.network.connectionsPerHost {
                    state.slots[client, default: 0] += 1
                    return true
                }
                state.waiting[client, default: []].append(continuation)
                return false
            }
            if granted { continuation.resume() }
        }
    }

    /// Gives the client's slot to its next waiting response, or frees it.
    func releaseSlot(for client: String) {
        let next = inner.withLock { state -> CheckedContinuation<Void, Never>? in
            if var queue = state.waiting[client], !queue.isEmpty {
                let next = queue.removeFirst()
                state.waiting[client] = queue.isEmpty ? nil : queue
                return next
            }
            state.slots[client, default: 1] -= 1
            if state.slots[client] == 0 { state.slots[client] = nil }
            return nil
        }
        next?.resume()
    }
}

extension Duration {
    /// The duration in whole nanoseconds (truncated).
    var nanoseconds: Int64 { components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000 }

    /// The duration in seconds.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
#endif
