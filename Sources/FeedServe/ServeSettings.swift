#if HTTP
import FeedBench

/// What `bench serve` is started with: where it listens, the feed it serves (catalogue and
/// seed, as `bench run` builds them for a profile) and the conditions it injects at first.
public struct ServeSettings: Sendable {
    public var host: String
    /// 0 lets the system choose a free port (tests); the URL printed names it.
    public var port: Int
    public var seed: UInt64
    public var catalog: ImageCatalog
    public var conditions: ServeConditions
    /// Where the request log goes (CSV), if anywhere.
    public var logPath: String?
    /// TLS, when served over it: HTTP/2 and HTTP/1.1 on the one port, chosen by ALPN; else
    /// plain HTTP/1.1.
    public var tls: ServeTLS?
    /// How long a client may send nothing before it is let go: before its TLS handshake is done,
    /// before its request's head is complete or between two pieces of its body, and between
    /// requests (HTTP/1.1) or with no stream open (HTTP/2); never while its answer is under way.
    /// 75 s by default: nginx's keep-alive timeout (its header and body timeouts are 60 s,
    /// Apache's `Timeout` 60 s), above the 60 s after which AsyncHTTPClient's pool (the live
    /// run's client) drops an idle connection itself, so the server never closes one just as the
    /// live run uses it again.
    public var clientTimeout: Duration
    /// Whether answers cross the network model (`bench serve`'s default) or are written as fast
    /// as TCP takes them (`--pace none`: the link between server and client does the rest).
    public var pace: ServePace

    public init(host: String = "127.0.0.1", port: Int = 8080, seed: UInt64 = 1, catalog: ImageCatalog = ImageCatalog(seed: 0),
                conditions: ServeConditions, logPath: String? = nil, tls: ServeTLS? = nil, clientTimeout: Duration = .seconds(75),
                pace: ServePace = .model) {
        self.host = host
        self.port = port
        self.seed = seed
        self.catalog = catalog
        self.conditions = conditions
        self.logPath = logPath
        self.tls = tls
        self.clientTimeout = clientTimeout
        self.pace = pace
    }
}
#endif
