/// `bench serve`'s flags for the feed API's models — the command-line spelling of the `api`
/// fields of the conditions JSON (`ServeConditions`), applied after `--conditions FILE`:
///
/// - `--api-latency`: `300ms` or `fixed:300ms`; `uniform:20ms,80ms`; `lognormal:300ms,1.2s`
///   (mean, then p99);
/// - `--api-failures P`: the probability that a call fails with a 500;
/// - `--api-spikes P` or `PxM`: the probability that a call is M times slower (M 5 unless given);
/// - `--api-timeout D` or `none`: calls longer than D end in a 504 at D;
/// - `--api-rate-limit N/D` or `none`: a 429 for a call when N calls were served in the D before it.
///
/// Each value is checked as it is read and refused in one line naming its flag.
public struct APIModelFlags: Sendable, Equatable {
    public var latency: String?
    public var failures: String?
    public var spikes: String?
    public var timeout: String?
    public var rateLimit: String?

    public init(latency: String? = nil, failures: String? = nil, spikes: String? = nil, timeout: String? = nil, rateLimit: String? = nil) {
        self.latency = latency
        self.failures = failures
        self.spikes = spikes
        self.timeout = timeout
        self.rateLimit = rateLimit
    }

    /// `api` with the given flags applied. O(length of the values).
    public func applied(to api: FeedAPIConfiguration) throws -> FeedAPIConfiguration {
        var api = api
        if let latency { api.latency = try Self.latency(latency) }
        if let failures { api.failureProbability = try Self.probability(failures, source: "--api-failures") }
        if let spikes {
            let parts = spikes.split(separator: "x", maxSplits: 1, omittingEmptySubsequences: false)
            api.spikeProbability = try Self.probability(String(parts[0]), source: "--api-spikes")
            if parts.count == 2 {
                guard let multiplier = Double(parts[1]), FeedAPIConfiguration.spikeMultipliers.contains(multiplier) else {
                    throw InputError(source: "--api-spikes", "expected P or PxM with a factor M in 1…1,000,000 (0.05x5), found \(InputError.quote(spikes))")
                }
                api.spikeMultiplier = multiplier
            }
        }
        if let timeout { api.timeout = timeout == "none" ? nil : try Quantities.duration(timeout, source: "--api-timeout") }
        if let rateLimit {
            if rateLimit == "none" {
                api.rateLimit = nil
            } else {
                let parts = rateLimit.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2, let calls = Int(parts[0]), calls > 0 else {
                    throw InputError(source: "--api-rate-limit", "expected N/DURATION with N calls a window (10/1s) or none, found \(InputError.quote(rateLimit))")
                }
                api.rateLimit = .init(calls: calls, window: try Quantities.duration(String(parts[1]), source: "--api-rate-limit"))
            }
        }
        return api
    }

    static func latency(_ text: String) throws -> LatencyModel {
        let source = "--api-latency"
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let model = parts.count == 2 ? String(parts[0]) : "fixed"
        let values = (parts.count == 2 ? parts[1] : parts[0]).split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let durations = { try values.map { try Quantities.duration($0, source: source, allowZero: true) } }
        switch (model, values.count) {
        case ("fixed", 1): return .fixed(try durations()[0])
        case ("uniform", 2):
            let bounds = try durations()
            guard bounds[0] <= bounds[1] else { throw InputError(source: source, "expected uniform:MIN,MAX with MIN ≤ MAX, found \(InputError.quote(text))") }
            return .uniform(bounds[0]...bounds[1])
        case ("lognormal", 2):
            let (mean, p99) = (try durations()[0], try durations()[1])
            guard LatencyModel.logNormalParameters(mean: mean, p99: p99) != nil else {
                throw InputError(source: source, "expected lognormal:MEAN,P99 with MEAN < P99 ≤ 14.97 × MEAN, found \(InputError.quote(text))")
            }
            return .logNormal(mean: mean, p99: p99)
        default:
            throw InputError(source: source, "expected 300ms, fixed:300ms, uniform:20ms,80ms or lognormal:MEAN,P99, found \(InputError.quote(text))")
        }
    }

    static func probability(_ text: String, source: String) throws -> Double {
        guard let value = Double(text), (0...1).contains(value) else {
            throw InputError(source: source, "expected a probability in 0…1, found \(InputError.quote(text))")
        }
        return value
    }
}
