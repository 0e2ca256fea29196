import Testing
@testable import FeedBench

/// The launch controller: what each strategy shows first and calls for, outages, and the
/// launch's figures.
@Suite struct LaunchControllerTests {
    static let stored = FeedSupplyTests.images(1...30)

    @Test func strategiesShowTheStoreAtOnceOrHoldItBack() {
        var cacheFirst = LaunchController(strategy: .cacheFirst)
        #expect(cacheFirst.showStored(Self.stored) == Self.stored && cacheFirst.feedShown)
        var networkFirst = LaunchController(strategy: .networkFirst)
        #expect(networkFirst.showStored(Self.stored).isEmpty && !networkFirst.feedShown)
        #expect(networkFirst.showFeed() == Self.stored && networkFirst.feedShown, "held back until the API answers")
        #expect(networkFirst.showFeed().isEmpty, "and shown once")
        var preload = LaunchController(strategy: .preload)
        #expect(preload.showStored(Self.stored) == Self.stored && !preload.feedShown, "listed, but hidden until preloaded")
        preload.preload([1, 2])
        #expect(preload.preloading == [1, 2])
        preload.preloaded()
        #expect(preload.preloading.isEmpty && preload.feedShown)
        var networkOnly = LaunchController(strategy: .networkOnly)
        #expect(networkOnly.showStored(Self.stored).isEmpty && !networkOnly.feedShown)
    }

    @Test func strategiesThatWaitForTheNetworkCallAtLeastOnce() {
        let rules = FeedRules()
        #expect(LaunchController(strategy: .cacheFirst).callsAtStart(stored: 30, needsRefresh: false, rules: rules) == 2)
        #expect(LaunchController(strategy: .cacheFirst).callsAtStart(stored: 60, needsRefresh: false, rules: rules) == 0)
        #expect(LaunchController(strategy: .cacheFirst).callsAtStart(stored: 60, needsRefresh: true, rules: rules) == 1)
        #expect(LaunchController(strategy: .cacheAndNetwork).callsAtStart(stored: 60, needsRefresh: false, rules: rules) == 1)
        #expect(LaunchController(strategy: .cacheWithTimeout(1)).callsAtStart(stored: 60, needsRefresh: false, rules: rules) == 1)
        #expect(LaunchController(strategy: .networkOnly).callsAtStart(stored: 60, needsRefresh: false, rules: rules) == 5,
                "the store does not count")
        #expect(LaunchController(strategy: .cacheOnly).callsAtStart(stored: 0, needsRefresh: true, rules: rules) == 0)
    }

    @Test func aLaunchCountsItsDisplaysOutagesFirstImageAndRequests() {
        var launch = LaunchController(strategy: .cacheFirst)
        launch.begin(1, at: 1_000, offline: [1_500..<2_000], imageRequests: 7)
        launch.displayed(at: 1_200)
        launch.displayed(at: 1_600)
        #expect(launch.isOffline(at: 1_999) && !launch.isOffline(at: 2_000))
        #expect(launch.showedImage(at: 1_700) == 700 && launch.showedImage(at: 1_800) == nil, "the first image, once")
        launch.countAPICalls(2)
        launch.countAPICalls(-1)
        launch.stalled()
        let figures = launch.end(imageRequests: 10)
        #expect(figures.launch == 2 && figures.displays == 2 && figures.displaysOffline == 1 && figures.firstImage == 700)
        #expect(figures.apiRequests == 1 && figures.stalls == 1 && figures.imageRequests == 3)
        launch.begin(2, at: 5_000, offline: [], imageRequests: 10)
        #expect(launch.figures == LaunchFigures(launch: 3) && launch.index == 2 && launch.start == 5_000)
        #expect(!launch.finished)
        launch.finish()
        #expect(launch.finished)
    }
}
