/// How the mock feed API behaves: its latency, its faults and the images it serves (docs/model.md, "The feed API").
///
/// Defaults: log-normal latency with mean 300 ms and p99 1.2 s, no spikes, no failures, no rate
/// limit, URLSession's default 60 s request timeout, a 5,000-image catalog with seed 0.
/// Fields are plain values; `validate(source:)` checks them (`MockFeedAPI` calls it).
public struct FeedAPIConfiguration: Sendable, Hashable {
    /// Images per successful call: fixed by the API.
    public static let pageSize = 10

    /// An HTTP 429 rule over a **sliding** window: a call is refused when `calls` calls were
    /// already accepted in the `window` nanoseconds before it (times `t` with
    /// `now − window < t ≤ now`). Refused calls do not count, so a client that waits out the
    /// window is served again.
    public struct RateLimit: Sendable, Hashable {
        public var calls: Int
        public var window: Int64

        public init(calls: Int, window: Int64) {
            self.calls = calls
            self.window = window
        }
    }

    public var latency: LatencyModel
    /// The probability that a call's latency is multiplied by `spikeMultiplier`.
    public var spikeProbability: Double
    /// How much slower a spiking call is (`spikeMultipliers`).
    public var spikeMultiplier: Double
    /// The factors a spike may have: the OpenAPI schema's range.
    public static let spikeMultipliers = 1.0...1_000_000
    /// The probability that a call fails with a server error after its latency.
    public var failureProbability: Double
    /// A call whose latency exceeds this fails with `.timeout` when it elapses; `nil`: no timeout.
    public var timeout: Int64?
    public var rateLimit: RateLimit?
    /// The images pages are drawn from.
    public var catalog: ImageCatalog

    public init(latency: LatencyModel = .logNormal(mean: 300_000_000, p99: 1_200_000_000),
                spikeProbability: Double = 0, spikeMultiplier: Double = 5,
                failureProbability: Double = 0, timeout: Int64? = 60_000_000_000,
                rateLimit: RateLimit? = nil, catalog: ImageCatalog = ImageCatalog(seed: 0)) {
        self.latency = latency
        self.spikeProbability = spikeProbability
        self.spikeMultiplier = spikeMultiplier
        self.failureProbability = failureProbability
        self.timeout = timeout
        self.rateLimit = rateLimit
        self.catalog = catalog
    }

    /// Throws an `InputError` naming the first field out of range; `source` names where the
    /// configuration came from (an option or a file).
    public func validate(source: String) throws {
        try latency.validate(source: source, field: "latency")
        for (field, probability) in [("spikeProbability", spikeProbability), ("failureProbability", failureProbability)] {
            guard (0...1).contains(probability) else {
                throw InputError(source: source, field: field, "expected a probability in [0, 1], found \(probability)")
            }
        }
        guard Self.spikeMultipliers.contains(spikeMultiplier) else {
            throw InputError(source: source, field: "spikeMultiplier", "expected a factor in 1…1,000,000, found \(spikeMultiplier)")
        }
        if let timeout, timeout <= 0 {
            throw InputError(source: source, field: "timeout", "expected a positive duration in ns, found \(timeout)")
        }
        if let rateLimit {
            guard rateLimit.calls > 0 else {
                throw InputError(source: source, field: "rateLimit.calls", "expected a positive number of calls, found \(rateLimit.calls)")
            }
            guard rateLimit.window > 0 else {
                throw InputError(source: source, field: "rateLimit.window", "expected a positive duration in ns, found \(rateLimit.window)")
            }
        }
    }
}
