import Testing
@testable import FeedBench

@Suite struct MockFeedAPITests {
    static let ms: Int64 = 1_000_000
    static let second: Int64 = 1_000_000_000

    func api(_ configuration: FeedAPIConfiguration = FeedAPIConfiguration(), seed: UInt64 = 1) throws -> MockFeedAPI {
        try MockFeedAPI(configuration: configuration, seed: seed)
    }

    func page(_ response: FeedAPIResponse) -> [ImageDescriptor]? {
        if case .page(let images) = response.outcome { return images }
        return nil
    }

    func failure(_ response: FeedAPIResponse) -> FeedAPIFailure? {
        if case .failure(let failure) = response.outcome { return failure }
        return nil
    }

    @Test func aSuccessfulCallReturnsExactlyTenCatalogImagesAfterItsLatency() throws {
        let catalog = ImageCatalog(size: 1_000, seed: 2)
        var feed = try api(FeedAPIConfiguration(latency: .fixed(250 * Self.ms), catalog: catalog))
        for call in 0..<100 {
            let now = Int64(call) * Self.second
            let response = feed.requestPage(at: now)
            #expect(response.completesAt == now + 250 * Self.ms)
            let images = try #require(page(response))
            #expect(images.count == FeedAPIConfiguration.pageSize)
            #expect(images.allSatisfy { $0.url < 1_000 && $0 == catalog.descriptor($0.url) })
        }
        #expect(feed.callCount == 100)
    }

    @Test func sameSeedSameResponsesOtherSeedOthers() throws {
        let configuration = FeedAPIConfiguration(spikeProbability: 0.1, failureProbability: 0.1)
        var a = try api(configuration, seed: 7), b = try api(configuration, seed: 7), c = try api(configuration, seed: 8)
        let first = (0..<50).map { a.requestPage(at: Int64($0) * Self.second) }
        #expect(first == (0..<50).map { b.requestPage(at: Int64($0) * Self.second) })
        #expect(first != (0..<50).map { c.requestPage(at: Int64($0) * Self.second) })
    }

    @Test func aSmallCatalogRepeatsImagesAcrossPages() throws {
        var feed = try api(FeedAPIConfiguration(catalog: ImageCatalog(size: 100, seed: 1)))
        var seen = Set<UInt64>(), repeats = 0
        for call in 0..<10 {
            for image in try #require(page(feed.requestPage(at: Int64(call) * Self.second))) {
                if !seen.insert(image.url).inserted { repeats += 1 }
            }
        }
        // 100 draws from 100 images: about 100/e ≈ 37 distinct images are never drawn.
        #expect(repeats > 20)
        #expect(seen.count < 80)
    }

    @Test func serverErrorsHappenAtTheConfiguredRateAfterTheLatency() throws {
        var feed = try api(FeedAPIConfiguration(latency: .fixed(Self.ms), failureProbability: 0.2))
        var errors = 0
        let calls = 20_000
        for call in 0..<calls {
            let response = feed.requestPage(at: Int64(call))
            #expect(response.completesAt == Int64(call) + Self.ms)
            if let failure = failure(response) {
                #expect(failure == .serverError)
                errors += 1
            }
        }
        #expect(abs(Double(errors) / Double(calls) - 0.2) < 0.01)
    }

    @Test func slowCallsFailAtTheTimeout() throws {
        var feed = try api(FeedAPIConfiguration(latency: .uniform(0...2 * Self.second), timeout: Self.second))
        var timeouts = 0
        let calls = 20_000
        for call in 0..<calls {
            let now = Int64(call) * 3 * Self.second
            let response = feed.requestPage(at: now)
            if failure(response) == .timeout {
                timeouts += 1
                #expect(response.completesAt == now + Self.second)
            } else {
                #expect(page(response) != nil)
                #expect(response.completesAt <= now + Self.second)
            }
        }
        #expect(abs(Double(timeouts) / Double(calls) - 0.5) < 0.015)
    }

    @Test func spikesMultiplyTheLatencyAtTheConfiguredRate() throws {
        var feed = try api(FeedAPIConfiguration(latency: .fixed(100 * Self.ms), spikeProbability: 0.25,
                                                spikeMultiplier: 4, timeout: nil))
        var spikes = 0
        let calls = 20_000
        for call in 0..<calls {
            let now = Int64(call) * Self.second
            let latency = feed.requestPage(at: now).completesAt - now
            #expect(latency == 100 * Self.ms || latency == 400 * Self.ms)
            if latency == 400 * Self.ms { spikes += 1 }
        }
        #expect(abs(Double(spikes) / Double(calls) - 0.25) < 0.015)
    }

    @Test func aSpikePastTheTimeoutTimesOut() throws {
        var feed = try api(FeedAPIConfiguration(latency: .fixed(400 * Self.ms), spikeProbability: 1,
                                                spikeMultiplier: 3, timeout: Self.second))
        let response = feed.requestPage(at: 0)
        #expect(response == FeedAPIResponse(completesAt: Self.second, outcome: .failure(.timeout)))
    }

    @Test func theRateLimitRefusesCallsBeyondNPerSlidingWindow() throws {
        let limit = FeedAPIConfiguration.RateLimit(calls: 3, window: Self.second)
        var feed = try api(FeedAPIConfiguration(latency: .fixed(10 * Self.ms), rateLimit: limit))
        func outcome(at time: Int64) -> FeedAPIFailure? { failure(feed.requestPage(at: time)) }
        #expect(outcome(at: 0) == nil)
        #expect(outcome(at: 1 * Self.ms) == nil)
        #expect(outcome(at: 2 * Self.ms) == nil)
        #expect(outcome(at: 3 * Self.ms) == .rateLimited)
        #expect(outcome(at: 999 * Self.ms) == .rateLimited)
        // The call at 0 leaves the window; those at 1 ms and 2 ms are still in it.
        #expect(outcome(at: Self.second) == nil)
        #expect(outcome(at: Self.second + 1) == .rateLimited)
        // Once the window has passed, the full quota is back (refused calls never counted).
        #expect(outcome(at: 3 * Self.second) == nil)
        #expect(outcome(at: 3 * Self.second) == nil)
        #expect(outcome(at: 3 * Self.second) == nil)
        #expect(outcome(at: 3 * Self.second) == .rateLimited)
        #expect(feed.callCount == 11)
    }

    @Test func faultsDoNotChangeWhichImagesACallServes() throws {
        var clean = try api(FeedAPIConfiguration(latency: .fixed(Self.ms)), seed: 5)
        var faulty = try api(FeedAPIConfiguration(latency: .uniform(0...Self.second), spikeProbability: 0.3,
                                                  failureProbability: 0.3), seed: 5)
        var compared = 0
        for call in 0..<500 {
            let now = Int64(call) * 10 * Self.second
            let expected = page(clean.requestPage(at: now))
            if let images = page(faulty.requestPage(at: now)) {
                #expect(images == expected)
                compared += 1
            }
        }
        #expect(compared > 200)
    }

    @Test func invalidConfigurationsAreRefusedNamingTheField() {
        let cases: [(FeedAPIConfiguration, String)] = [
            (FeedAPIConfiguration(spikeProbability: -0.1), "spikeProbability"),
            (FeedAPIConfiguration(failureProbability: 1.5), "failureProbability"),
            (FeedAPIConfiguration(failureProbability: .nan), "failureProbability"),
            (FeedAPIConfiguration(spikeMultiplier: 0.5), "spikeMultiplier"),
            (FeedAPIConfiguration(spikeMultiplier: 1_000_001), "spikeMultiplier"),
            (FeedAPIConfiguration(timeout: 0), "timeout"),
            (FeedAPIConfiguration(rateLimit: .init(calls: 0, window: Self.second)), "rateLimit.calls"),
            (FeedAPIConfiguration(rateLimit: .init(calls: 5, window: -1)), "rateLimit.window"),
            (FeedAPIConfiguration(latency: .logNormal(mean: 500, p99: 100)), "latency"),
        ]
        for (configuration, field) in cases {
            do {
                _ = try MockFeedAPI(configuration: configuration, seed: 1)
                Issue.record("\(field): accepted")
            } catch let error as InputError {
                #expect(error.field == field)
            } catch {
                Issue.record("\(field): unexpected \(error)")
            }
        }
        #expect(throws: Never.self) { try FeedAPIConfiguration().validate(source: "defaults") }
    }
}
