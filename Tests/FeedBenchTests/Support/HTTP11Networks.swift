@testable import FeedBench

extension NetworkProfile {
    /// The wifi preset over HTTP/1.1 (the presets speak HTTP/2): for specifications of the
    /// per-host connection limit and the queues behind it, which HTTP/2 does not have.
    static var wifiOverHTTP11: NetworkProfile { NetworkProfile.wifi.overHTTP11 }
}

extension NetworkProfile {
    /// This network over HTTP/1.1: six connections a host, each carrying one response at a time.
    var overHTTP11: NetworkProfile {
        var network = self
        network.http = "1.1"
        return network
    }
}
