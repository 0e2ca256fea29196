#if HTTP
import FeedBench

/// `bench run --live URL`: one configuration run in real time (`LiveRun`) against the feed API
/// and image host at a server URL (`bench serve`, started with the run's seed, serves the very
/// feed the simulation sees), its downloads and API calls over HTTP (`HTTPImageTransport`,
/// `HTTPFeedTransport`).
public enum LiveSession {
    /// Runs `configuration` against `server`, telling `progress` how far it is every `interval`
    /// ns of wall time, and returns the results row (`scenario` ending in `;mode=live`). Over
    /// HTTP/2 (the configuration's network) `server` is `https://`, and `trusting` may name the
    /// PEM certificate to trust as its root. `warmingUp` opens the connections before the clock
    /// starts (`LiveHTTP.warmUp`: against `bench serve`'s network model, which charges their
    /// handshakes itself); without it they are opened by the run's first requests, as the
    /// simulated app's are (through a real or emulated link, where the handshakes are the
    /// network's). Throws an `InputError` naming the URL and what was expected when the server
    /// cannot be reached, fails TLS or answers something that is not the feed API.
    public static func run(_ configuration: RunConfiguration, server: String, trusting certificatePEM: String? = nil, warmingUp: Bool = true,
                           reportingEvery interval: Int64 = 1_000_000_000, progress: (LiveProgress) -> Void) throws -> RunResult {
        // The API call shares the host with the images: one connection more than the pipeline's
        // over HTTP/1.1; over HTTP/2, the one connection.
        let http2 = configuration.network.multiplexes
        let connections = http2 ? 1 : configuration.network.connectionsPerHost + 1
        let http = try LiveHTTP(server: server, connections: connections, http2: http2, trusting: certificatePEM)
        defer { http.close() }
        var run = try LiveRun(configuration) { inbox in
            (HTTPImageTransport(http: http, inbox: inbox, network: configuration.network),
             HTTPFeedTransport(http: http, inbox: inbox, catalog: configuration.api.catalog))
        }
        if warmingUp {
            http.warmUp(connections: connections)
            try http.check()
        }
        return try run.run(reportingEvery: interval, progress: progress, check: http.check)
    }
}
#endif
