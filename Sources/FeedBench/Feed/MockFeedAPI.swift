import DequeModule

/// Why a feed API call returned no page.
public enum FeedAPIFailure: Error, Sendable, Hashable {
    /// The server answered with an error (HTTP 5xx) after the call's latency.
    case serverError
    /// The call took longer than the configured timeout; it fails when the timeout elapses.
    case timeout
    /// HTTP 429: the rate limit was exceeded.
    case rateLimited
}

/// What one feed API call returns, and when.
public struct FeedAPIResponse: Sendable, Hashable {
    /// A page of images, or why there is none.
    public enum Outcome: Sendable, Hashable {
        /// Exactly `FeedAPIConfiguration.pageSize` images.
        case page([ImageDescriptor])
        case failure(FeedAPIFailure)
    }

    /// The virtual time (ns) at which the client receives the outcome.
    public var completesAt: Int64
    public var outcome: Outcome

    public init(completesAt: Int64, outcome: Outcome) {
        self.completesAt = completesAt
        self.outcome = outcome
    }
}

/// The image-list API the simulated app calls: "give me a page of 10 random images", answered
/// after a latency drawn from `FeedAPIConfiguration`, possibly with a fault.
///
/// A page is 10 ids drawn **uniformly** and independently from the catalog (a random-image API
/// such as TheCatAPI's search), so pages repeat images across calls, and occasionally within one.
///
/// Each call, made at `now` (calls must come in non-decreasing time):
/// 1. draws its latency, multiplied by `spikeMultiplier` with probability `spikeProbability`;
/// 2. the server admits it or refuses it under the rate limit (see `RateLimit`); an admitted
///    call counts against the limit even if the client then times out;
/// 3. if the latency exceeds the timeout, the call fails with `.timeout` at `now + timeout`;
///    otherwise it completes at `now + latency` with `.rateLimited` if refused, else
///    `.serverError` with probability `failureProbability`, else the page.
/// Latencies, faults and pages come from three generator streams of the seed, and every call
/// takes the same fault and page draws whatever its outcome, so call k's page and faults do not
/// depend on the latency model, and call k's page on no fault setting: configurations compared
/// under one seed see the same images (common random numbers).
///
/// O(1) per call (plus the page's 10 catalog look-ups); the rate limit keeps at most `calls`
/// timestamps.
public struct MockFeedAPI: Sendable {
    public private(set) var configuration: FeedAPIConfiguration
    /// Calls made so far, whatever their outcome.
    public private(set) var callCount = 0
    var latencyRandom: SeededGenerator
    var faultRandom: SeededGenerator
    var pageRandom: SeededGenerator
    /// Times of the calls the rate limit admitted within the current window, oldest first.
    var admitted = Deque<Int64>()
    var lastCall = Int64.min

    /// Stream labels: "feedlat", "feedflt", "feedpag" in ASCII, far from the small integers
    /// other components use.
    static let latencyStream: UInt64 = 0x66_6565_646c_6174
    static let faultStream: UInt64 = 0x66_6565_6466_6c74
    static let pageStream: UInt64 = 0x66_6565_6470_6167

    /// An API with `configuration`, drawing from its own streams of `seed`. Throws the
    /// configuration's `InputError` if it is invalid.
    public init(configuration: FeedAPIConfiguration, seed: UInt64) throws {
        try configuration.validate(source: "feed API configuration")
        self.configuration = configuration
        latencyRandom = SeededGenerator(seed: seed, stream: MockFeedAPI.latencyStream)
        faultRandom = SeededGenerator(seed: seed, stream: MockFeedAPI.faultStream)
        pageRandom = SeededGenerator(seed: seed, stream: MockFeedAPI.pageStream)
    }

    /// Changes the models from the next call on, keeping every draw made so far and the rate
    /// limit's window (`bench serve`'s `PUT /_conditions`). The configuration must be valid.
    public mutating func reconfigure(_ configuration: FeedAPIConfiguration) {
        self.configuration = configuration
    }

    /// Makes one call at virtual time `now` (ns). O(1) amortised, plus the page's construction.
    public mutating func requestPage(at now: Int64) -> FeedAPIResponse {
        precondition(now >= lastCall, "MockFeedAPI: calls must come in non-decreasing time")
        lastCall = now
        callCount += 1

        var latency = configuration.latency.sample(using: &latencyRandom)
        if faultRandom.chance(configuration.spikeProbability) {
            latency = LatencyModel.nanoseconds(Double(latency) * configuration.spikeMultiplier)
        }
        let fails = faultRandom.chance(configuration.failureProbability)
        let catalog = configuration.catalog
        let ids = FeedPageBook.draw(from: &pageRandom, catalog: catalog)
        let refused = !admit(at: now)

        if let timeout = configuration.timeout, latency > timeout {
            return FeedAPIResponse(completesAt: now + timeout, outcome: .failure(.timeout))
        }
        let outcome: FeedAPIResponse.Outcome
        if refused {
            outcome = .failure(.rateLimited)
        } else if fails {
            outcome = .failure(.serverError)
        } else {
            outcome = .page(ids.map(catalog.descriptor))
        }
        return FeedAPIResponse(completesAt: now + latency, outcome: outcome)
    }

    /// How long after `now` the rate limit admits a call again: 0 when it would now, else until
    /// the oldest admitted call leaves the window (a 429's `Retry-After`). O(1).
    public func rateLimitClears(after now: Int64) -> Int64 {
        guard let limit = configuration.rateLimit, admitted.count >= limit.calls, let oldest = admitted.first else { return 0 }
        return max(0, oldest + limit.window - now)
    }

    /// Whether the rate limit admits a call at `now`, recording it if so. O(1) amortised.
    mutating func admit(at now: Int64) -> Bool {
        guard let limit = configuration.rateLimit else { return true }
        while let oldest = admitted.first, oldest <= now - limit.window { admitted.removeFirst() }
        guard admitted.count < limit.calls else { return false }
        admitted.append(now)
        return true
    }
}
