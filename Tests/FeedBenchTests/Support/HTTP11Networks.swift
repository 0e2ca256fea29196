@testable import FeedBench

extension NetworkProfile {
    /// This network over HTTP/1.1 (the presets speak HTTP/2): six connections a host, each
    /// carrying one response at a time, for specifications of the per-host connection limit
    /// and the queues behind it, which HTTP/2 does not have.
    var overHTTP11: NetworkProfile {
        var network = self
        network.http = .http11
        return network
    }
}
