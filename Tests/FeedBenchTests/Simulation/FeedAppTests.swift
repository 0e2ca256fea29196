import Testing
@testable import FeedBench

/// One app model, two drivers (issue 18): the app meets its engine only through the clock and
/// the transports, so the virtual-clock driver is repeatable, and test doubles of the seams
/// alone decide what the app sees.
@Suite struct FeedAppTests {
    typealias ScriptedApp = FeedApp<RecordingClock, ScriptedImageTransport, ScriptedFeedTransport>

    static let answer: Int64 = 100_000_000

    static func configuration(window: Int = 0, launches: Int = 1, seconds: Int64 = 10) throws -> RunConfiguration {
        var configuration = try RunConfiguration.standard(
            profile: .lowEnd, policy: PolicySpec(.lru), window: .items(PrefetchWindow(ahead: window)),
            workload: .behavior(.browser, duration: seconds * 1_000_000_000), seed: 7, network: .lte)
        configuration.launches = launches
        return configuration
    }

    /// Runs `configuration` on a recording clock with scripted transports; returns the app after.
    static func scripted(_ configuration: RunConfiguration, images: ScriptedImageTransport,
                         feed: ScriptedFeedTransport = ScriptedFeedTransport(pages: ScriptedFeedTransport.pages(5), answerAfter: 50_000_000))
        throws -> (app: ScriptedApp, result: RunResult) {
        var app = try ScriptedApp(configuration, clock: RecordingClock()) { _ in (images, feed) }
        app.recorders.recordsDisplays = true
        let result = try app.run()
        return (app, result)
    }

    @Test func theSameConfigurationThroughTheVirtualClockTwiceGivesTheSameResult() throws {
        var configuration = try Self.configuration(window: 20, launches: 2, seconds: 20)
        configuration.recording.requests = true
        configuration.recording.timeline = true
        let first = try FeedSimulation.run(configuration)
        let second = try FeedSimulation.run(configuration)
        #expect(first == second)
        #expect(first.displays > 0 && !first.requests.isEmpty && !first.timeline.isEmpty)
    }

    @Test func recordingTheClockOfASimulatedRunChangesNothingAndEveryStepComesFromIt() throws {
        let configuration = try Self.configuration(window: 20, launches: 2)
        var app = try FeedApp(configuration, clock: RecordingClock()) { seed in
            try SimulatedTransports.make(configuration, seed: seed)
        }
        app.recorders.recordsDisplays = true
        let result = try app.run()
        #expect(result == (try FeedSimulation.run(configuration)))
        let clock = app.clock
        #expect(clock.scheduled.allSatisfy { $0.for >= $0.at }, "nothing is scheduled in the past")
        #expect(clock.taken == clock.taken.sorted() && clock.taken.count > 600, "ten seconds of frames, at least")
        let taken = Set(clock.taken)
        #expect(app.recorders.displayLog.allSatisfy { taken.contains($0.time) }, "every display happens at a time the clock gave")
        #expect(clock.advances.count == 2, "the run's start, then the gap to the second launch")
        #expect(clock.advances.last! >= clock.taken.filter { $0 < clock.advances.last! }.max()! + configuration.gap)
    }

    @Test func theScriptedTransportsAnswersAloneDecideTheRequestsAndTheWaits() throws {
        let configuration = try Self.configuration()
        let (soon, fast) = try Self.scripted(configuration, images: ScriptedImageTransport(answerAfter: Self.answer))
        let (_, slow) = try Self.scripted(configuration, images: ScriptedImageTransport(answerAfter: 3 * Self.answer))
        let images = soon.pipeline.transport

        #expect(fast.imageRequests == images.started.count && fast.imageRequests > 0)
        #expect(fast.bytesDownloaded == Int64(images.answered.count) * 200_000)
        #expect(fast.cancelledRequests == images.cancelled.count)
        #expect(fast.apiRequests == soon.feed.calls.count && soon.feed.calls.count <= 6, "five pages, then a call never answered")
        let scripted = Set(ScriptedFeedTransport.pages(5).joined().map(\.url))
        #expect(soon.recorders.displayLog.allSatisfy { scripted.contains($0.url) }, "only the scripted pages are shown")
        #expect(slow.firstImageTimes[0] - fast.firstImageTimes[0] == 2 * Self.answer,
                "the first image appears exactly as much later as the transport answers later")
        #expect(slow.stalls.waits.reduce(0) { $0 + UInt64($1) } > fast.stalls.waits.reduce(0) { $0 + UInt64($1) })

        let (_, unsent) = try Self.scripted(configuration, images: ScriptedImageTransport(answerAfter: Self.answer, leavesDevice: false))
        #expect(unsent.imageRequests == 0, "requests that never leave the device are not counted")
        let offlineFeed = ScriptedFeedTransport(pages: ScriptedFeedTransport.pages(5), answerAfter: 50_000_000, reachesServer: false)
        let (_, unreached) = try Self.scripted(configuration, images: ScriptedImageTransport(answerAfter: Self.answer), feed: offlineFeed)
        #expect(unreached.apiRequests == 0 && unreached.displays == fast.displays, "calls that never reach a server are not counted")
    }

    @Test func aTransportThatNeverAnswersLeavesCellsWaiting() throws {
        let (app, result) = try Self.scripted(Self.configuration(), images: ScriptedImageTransport(answerAfter: nil))
        #expect(result.displays > 0 && result.misses == result.displays)
        #expect(result.firstImageTimes.isEmpty && result.bytesDownloaded == 0 && app.pipeline.transport.answered.isEmpty)
        #expect(result.stalls.count == result.displays, "every cell waited until it left or the session ended")
        let end = app.clock.now
        let stillWaiting = app.viewport.visible.compactMap { app.viewport.cells[$0]?.url }
        #expect(!stillWaiting.isEmpty)
        let lastShown = try #require(app.recorders.displayLog.last { $0.url == stillWaiting[0] })
        #expect(result.stalls.waits.contains(UInt32((end - lastShown.time) / 1_000)), "the wait on screen lasted to the end")
    }

    @Test func aFeedThatNeverAnswersShowsNothingAndRequestsNoImage() throws {
        let silent = ScriptedFeedTransport(pages: [], answerAfter: 0)
        let (app, result) = try Self.scripted(Self.configuration(window: 20), images: ScriptedImageTransport(answerAfter: Self.answer), feed: silent)
        #expect(app.feed.calls.count == 1 && result.apiRequests == 1, "one call, waited on for the whole session")
        #expect(result.displays == 0 && result.imageRequests == 0 && app.pipeline.transport.started.isEmpty)
    }
}
