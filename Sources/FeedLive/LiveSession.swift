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
    /// PEM certificate to trust as its root. Throws an `InputError` naming the URL and what was
    /// expected when the server cannot be reached, fails TLS or answers something that is not
    /// the feed API.
    ///
    /// Against `bench serve`'s network model (`throughLink` false) the run opens its connections
    /// before its clock starts (`LiveHTTP.warmUp`), and the feed calls share the images' host,
    /// the model charging each kind's handshakes and connections itself. Through a real or
    /// emulated link (`throughLink`), where the handshakes and connections are the network's, it
    /// starts cold and gives the feed calls a connection of their own, as the simulated app
    /// does (the API's host and the image host): its first requests open them.
    public static func run(_ configuration: RunConfiguration, server: String, trusting certificatePEM: String? = nil, throughLink: Bool = false,
                           reportingEvery interval: Int64 = 1_000_000_000, progress: (LiveProgress) -> Void) throws -> RunResult {
        let http2 = configuration.network.multiplexes
        if throughLink {
            let images = try LiveHTTP(server: server, connections: http2 ? 1 : configuration.network.connectionsPerHost, http2: http2,
                                      trusting: certificatePEM)
            let api = try LiveHTTP(server: server, connections: 1, http2: http2, trusting: certificatePEM, numbering: images.numbers)
            defer {
                images.close()
                api.close()
            }
            var run = try LiveRun(configuration) { inbox in
                (HTTPImageTransport(http: images, inbox: inbox, network: configuration.network, imageWidth: configuration.imageWidth),
                 HTTPFeedTransport(http: api, inbox: inbox, catalog: configuration.api.catalog))
            }
            return try run.run(reportingEvery: interval, progress: progress) {
                try images.check()
                try api.check()
            }
        }
        // The API call shares the host with the images: one connection more than the pipeline's
        // over HTTP/1.1; over HTTP/2, the one connection.
        let connections = http2 ? 1 : configuration.network.connectionsPerHost + 1
        let http = try LiveHTTP(server: server, connections: connections, http2: http2, trusting: certificatePEM)
        defer { http.close() }
        var run = try LiveRun(configuration) { inbox in
            (HTTPImageTransport(http: http, inbox: inbox, network: configuration.network, imageWidth: configuration.imageWidth),
             HTTPFeedTransport(http: http, inbox: inbox, catalog: configuration.api.catalog))
        }
        http.warmUp(connections: connections)
        try http.check()
        return try run.run(reportingEvery: interval, progress: progress, check: http.check)
    }
}
#endif
