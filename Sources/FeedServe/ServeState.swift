#if HTTP
import FeedBench
import Foundation
import NIOCore
import Synchronization

/// Everything the server's requests share, under one lock: the conditions (changed by
/// `PUT /_conditions`), the mock API that draws each call's latency and fault in arrival order,
/// the page book, the network model the responses cross, and connection numbers for the log.
final class ServeState: Sendable {
    struct Inner {
        var conditions: ServeConditions
        var api: MockFeedAPI
        var pages: FeedPageBook
        /// The simulated network of the current conditions, shared by every request (one per
        /// server, not per client: a second client shares the first one's bottleneck). A new
        /// network in the conditions starts a new one; responses under way finish on theirs.
        var network: ServedNetwork
        /// Image responses under way per client address, and the ones waiting for a slot.
        var slots: [String: Int] = [:]
        var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]
    }

    let inner: Mutex<Inner>
    let seed: UInt64
    let catalog: ImageCatalog
    let started = ContinuousClock.now
    let log: RequestLog?
    /// Whether the server speaks TLS (and so HTTP/2).
    let overTLS: Bool
    /// Whether answers cross the network model or are written at once.
    let pace: ServePace
    /// The scheme of the server's URLs: `https` over TLS, else `http`.
    var scheme: String { overTLS ? "https" : "http" }

    init(settings: ServeSettings, log: RequestLog?) throws {
        var api = settings.conditions.api
        api.catalog = settings.catalog
        var conditions = settings.conditions
        conditions.api = api
        inner = Mutex(Inner(conditions: conditions, api: try MockFeedAPI(configuration: api, seed: settings.seed),
                            pages: FeedPageBook(catalog: settings.catalog, seed: settings.seed),
                            network: ServedNetwork(profile: conditions.network, seed: settings.seed)))
        seed = settings.seed
        catalog = settings.catalog
        overTLS = settings.tls != nil
        pace = settings.pace
        self.log = log
    }

    /// Nanoseconds since the server started.
    var now: Int64 {
        (ContinuousClock.now - started).nanoseconds
    }

    var conditions: ServeConditions { inner.withLock { $0.conditions } }

    /// Sleeps until `time`, in nanoseconds since the server started, on the request's event
    /// loop; throws `ClientClosed` as soon as the client closes the request's connection.
    func sleep(until time: Int64, watching context: ServeContext) async throws {
        try await closures.wait(time - now, on: context.connection, eventLoop: context.eventLoop)
    }

    /// The connections whose clients have closed them, for the requests waiting on them.
    let closures = ClientClosures()
    /// The order in which clients that number their requests sent them.
    let order = RequestOrder()
    /// The warm-up requests held until their client's whole set has come.
    let warmUp = WarmUpGathering()

    /// The network model new requests cross.
    var network: ServedNetwork { inner.withLock { $0.network } }

    /// Replaces the conditions; the API's draws continue (its call count, its window of 429s)
    /// under the new models. A changed network starts a model of its own, drawing from the seed.
    func update(_ conditions: ServeConditions) throws {
        var api = conditions.api
        api.catalog = catalog
        try api.validate(source: "/_conditions")
        try ServeConditions.checkServed(conditions.network, overTLS: overTLS, source: "/_conditions")
        inner.withLock { state in
            var updated = conditions
            updated.api = api
            // A new network numbers its connections on from the last one's, so the log's
            // connections stay distinct.
            if updated.network != state.conditions.network {
                state.network = ServedNetwork(profile: updated.network, seed: seed, connectionsOpened: state.network.connectionsOpened)
            }
            state.conditions = updated
            state.api.reconfigure(api)
        }
    }

    /// Waits for one of the client's connections over HTTP/1.1, or streams over HTTP/2 (the
    /// network's per-host limit of requests under way).
    func acquireSlot(for client: String) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = inner.withLock { state -> Bool in
                if state.slots[client, default: 0] < state.conditions.network.requestsPerHost {
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
}
#endif
