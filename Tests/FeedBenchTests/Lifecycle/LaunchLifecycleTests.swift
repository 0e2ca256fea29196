import Foundation
import TestSupport
import Testing
@testable import FeedBench

/// Launches, strategies, offline spans and memory pressure (issue: app lifecycle and the
/// seeds' strategies), each pinned on whole runs.
@Suite(.scratchFolder) struct LaunchLifecycleTests {
    static func configuration(strategy: LaunchStrategy = .cacheFirst, window: Int = 10, behavior: ScrollBehavior = .browser,
                              duration: Int64 = 20_000_000_000, launches: Int = 1) throws -> RunConfiguration {
        var run = try RunConfiguration.standard(profile: .lowEnd, policy: PolicySpec(.lru), window: .items(PrefetchWindow(ahead: window)),
                                                workload: .behavior(behavior, duration: duration), seed: 2, network: .wifi)
        run.strategy = strategy
        run.launches = launches
        return run
    }

    /// A file-backed feed store filled by one cacheFirst launch (50 images fetched, a few viewed).
    static func filledStore() throws -> String {
        let folder = try SharedFiles.scratchDirectory()
        let path = folder.appendingPathComponent("feed.sqlite").path
        _ = try FeedSimulation.run(configuration(duration: 3_000_000_000), storePath: path)
        return path
    }

    @Test func cacheOnlyOfflineStillShowsStoredImagesAndMakesNoRequest() throws {
        let store = try Self.filledStore()
        var run = try Self.configuration(strategy: .cacheOnly)
        try run.offline.add("launch:1", source: "test")
        let result = try FeedSimulation.run(run, storePath: store)
        #expect(result.displays > 0)
        #expect(result.apiRequests == 0)
        #expect(result.imageRequests == 0)
        #expect(result.launchFigures[0].displaysOffline == result.displays)
    }

    @Test func networkFirstOfflineShowsNothingUntilTheNetworkReturns() throws {
        let store = try Self.filledStore()
        var run = try Self.configuration(strategy: .networkFirst)
        try run.offline.add("0s-8s", source: "test")
        let result = try FeedSimulation.run(run, storePath: store)
        #expect(result.launchFigures[0].displaysOffline == 0)
        #expect(try #require(result.launchFigures[0].firstImage) >= 8_000_000_000)
        // cacheFirst, same store and outage: the stored images show at once.
        var cached = try Self.configuration(strategy: .cacheFirst)
        try cached.offline.add("0s-8s", source: "test")
        let cachedResult = try FeedSimulation.run(cached, storePath: try Self.filledStore())
        #expect(cachedResult.launchFigures[0].displaysOffline > 0)
    }

    @Test func cacheAndNetworkShowsStoredImagesFirstAndNewOnesAfter() throws {
        let path = try Self.filledStore()
        let stored = Set(try FeedStore(path: path).unviewed(limit: 1_000).map(\.url))
        var simulation = try FeedSimulation(Self.configuration(strategy: .cacheAndNetwork, behavior: .skimmer), storePath: path)
        simulation.recordsDisplays = true
        let result = try simulation.run()
        #expect(result.apiRequests >= 1)
        let order = simulation.displayLog.map { stored.contains($0.url) }
        let firstNew = try #require(order.firstIndex(of: false))
        #expect(firstNew >= stored.count, "every stored image is shown before the first new one")
        #expect(!stored.isEmpty)
    }

    @Test func aLaunchMoreThanADayAfterTheNewestImageMakesTheRefreshCall() throws {
        /// Launch calls with 60 unviewed images stored `hoursAgo` before the launch (no fill needed).
        func launchCalls(storedHoursAgo hoursAgo: Int64) throws -> Int {
            let folder = try SharedFiles.scratchDirectory()
            let path = folder.appendingPathComponent("feed.sqlite").path
            let catalog = ImageCatalog(seed: 9)
            try FeedStore(path: path).insert((0..<60).map { catalog.descriptor(UInt64($0)) }, at: -hoursAgo * 3_600_000_000_000)
            return try FeedSimulation.run(Self.configuration(duration: 1_000_000_000), storePath: path).launchFigures[0].apiRequests
        }
        #expect(try launchCalls(storedHoursAgo: 23) == 0)
        #expect(try launchCalls(storedHoursAgo: 25) == 1)
    }

    /// Regression: the event that ended a launch used to record memory at its own time, after
    /// the clock had moved past the gap, so the mean went negative from the second launch on.
    @Test(arguments: [2, 5], [5 * 60_000_000_000, 8 * 3_600_000_000_000] as [Int64])
    func theMeanMemoryOfSeveralLaunchesLiesBetweenZeroAndThePeak(launches: Int, gap: Int64) throws {
        var run = try Self.configuration(duration: 5_000_000_000, launches: launches)
        run.gap = gap
        let result = try FeedSimulation.run(run)
        #expect(result.meanMemoryBytes > 0 && result.meanMemoryBytes <= result.peakMemoryBytes)
    }

    /// A file store carries the app across runs (`bench run --store`): a second run on it is a
    /// later session — its clock resumes after the first, it is shown only images the first
    /// did not show — and the same store file always gives the same result.
    @Test func aSecondRunOnAStoreFileContinuesTheFirst() throws {
        let folder = try SharedFiles.scratchDirectory()
        let path = folder.appendingPathComponent("feed.sqlite").path
        let run = try Self.configuration(duration: 5_000_000_000, launches: 2)
        let first = try FeedSimulation.run(run, storePath: path)
        #expect(first.csvRow == (try FeedSimulation.run(run)).csvRow, "a fresh store file is no store at all")
        let firstSession = try #require(try FeedStore(path: path).lastSession())
        #expect(firstSession.number == 0)
        let copy = folder.appendingPathComponent("copy.sqlite").path
        try FileManager.default.copyItem(atPath: path, toPath: copy)

        var second = try FeedSimulation(run, storePath: path)
        second.recordsDisplays = true
        let secondResult = try second.run()
        let viewedInFirst = Set(try FeedStore(path: copy).viewedURLs())
        #expect(!viewedInFirst.isEmpty && second.displayLog.allSatisfy { !viewedInFirst.contains($0.url) })
        #expect(try #require(second.displayLog.first).time >= firstSession.endedAt + run.gap)
        #expect(secondResult.reshownViewed == 0 && secondResult.displays > 0)
        #expect(try FeedStore(path: path).lastSession()?.number == 1)
        #expect(try FeedSimulation.run(run, storePath: copy).csvRow == secondResult.csvRow)
    }

    @Test func aJetsamKillEndsTheLaunchAndTheNextStartsCold() throws {
        var run = try Self.configuration(window: 20, launches: 2)
        run.profile.memoryWarningBytes = 30 << 20
        run.profile.jetsamLimitBytes = 30 << 20
        run.pipeline.memoryPolicy = PolicySpec(.unbounded)
        let result = try FeedSimulation.run(run)
        #expect(result.jetsamKills == 2, "unbounded memory grows past the limit in both launches")
        #expect(result.launchFigures.count == 2)
    }

    @Test func releaseViewedLowersPeakMemoryAndScrollBackHits() throws {
        var keep = try Self.configuration(window: 0, behavior: .revisitor, duration: 60_000_000_000)
        keep.pipeline.memoryLimits = .bytes(1 << 40)
        var release = keep
        release.pipeline.releaseViewed = true
        let kept = try FeedSimulation.run(keep)
        let released = try FeedSimulation.run(release)
        #expect(released.peakMemoryBytes < kept.peakMemoryBytes)
        #expect(released.memoryHits < kept.memoryHits)
        #expect(released.scenario == "cacheFirst;release-viewed")
    }

    @Test func unboundedNeverEvictsAndIgnoresMemoryWarnings() throws {
        var run = try Self.configuration(window: 20, behavior: .skimmer, duration: 60_000_000_000)
        run.pipeline.memoryPolicy = PolicySpec(.unbounded)
        run.pipeline.memoryLimits = .bytes(10 << 20)
        run.profile.memoryWarningBytes = 50 << 20
        let result = try FeedSimulation.run(run)
        #expect(result.evictions == 0)
        #expect(result.memoryWarnings == 0)
        #expect(result.peakMemoryBytes > 50 << 20, "memory only grows")
    }

    @Test func preloadShowsNothingUntilTheFirstScreenIsDecoded() throws {
        // Without prefetching, cacheFirst asks for the first screen's images as preload does and
        // shows the first that arrives; preload waits for the last. (With a window, cacheFirst's
        // prefetches compete for the link and can make even its first image later.)
        let preload = try FeedSimulation.run(Self.configuration(strategy: .preload, window: 0))
        let first = try FeedSimulation.run(Self.configuration(strategy: .cacheFirst, window: 0))
        #expect(try #require(preload.launchFigures[0].firstImage) >= (try #require(first.launchFigures[0].firstImage)))
        #expect(preload.misses == 0 || preload.misses < first.misses)
    }

    @Test func adaptiveWindowWarnsLessThanTheSameFixedWindowWhenMemoryIsTight() throws {
        var fixed = try Self.configuration(window: 20, behavior: .skimmer, duration: 60_000_000_000)
        fixed.profile.memoryWarningBytes = 60 << 20
        fixed.pipeline.memoryLimits = .bytes(1 << 40)
        var adaptive = fixed
        adaptive.window = .adaptive(start: 20)
        let fixedResult = try FeedSimulation.run(fixed)
        let adaptiveResult = try FeedSimulation.run(adaptive)
        #expect(fixedResult.memoryWarnings > 0)
        #expect(adaptiveResult.memoryWarnings < fixedResult.memoryWarnings)
    }

    @Test func thePrefetchBufferPreloadsImagesBeforeTheyReachTheDisplayList() throws {
        let direct = try FeedSimulation.run(Self.configuration(window: 0, behavior: .skimmer))
        var buffered = try Self.configuration(window: 0, behavior: .skimmer)
        buffered.bufferLimit = 30
        let result = try FeedSimulation.run(buffered)
        #expect(direct.memoryHits == 0, "window 0 and no buffer: nothing is loaded ahead")
        #expect(result.memoryHits > result.displays / 2)
        #expect(result.stalls.count < direct.stalls.count / 4)
        #expect(result.wastedPrefetches <= 30 + FeedSimulation.moveBelow, "at most the buffer and the moved batch are left unseen")
        #expect(result.scenario == "cacheFirst;buffer=30")
    }

    @Test func strategiesOfflineSpansAndWindowsParseAndRefuse() throws {
        #expect(try LaunchStrategy.parse("cacheWithTimeout:2s", source: "-") == .cacheWithTimeout(2_000_000_000))
        #expect(LaunchStrategy.cacheWithTimeout(2_000_000_000).description == "cacheWithTimeout:2s")
        #expect(throws: InputError.self) { try LaunchStrategy.parse("cacheLast", source: "--strategy") }
        var offline = OfflineSchedule()
        try offline.add("0s-30s", source: "-")
        try offline.add("launch:2", source: "-")
        #expect(offline.isOffline(launch: 0, elapsed: 29_999_999_999) && !offline.isOffline(launch: 0, elapsed: 30_000_000_000))
        #expect(offline.isOffline(launch: 1, elapsed: 99_000_000_000_000))
        for bad in ["30s-0s", "launch:0", "soon", "1s-"] {
            #expect(throws: InputError.self, "\(bad)") { try offline.add(bad, source: "--offline") }
        }
        #expect(try WindowMode.parse("1.5screens", source: "-") == .screens(1.5))
        #expect(try WindowMode.parse("adaptive", source: "-") == .adaptive(start: 20))
        #expect(WindowMode.deviceCount(.tablet) == 50 && WindowMode.deviceCount(.mid) == 30 && WindowMode.deviceCount(.lowEnd) == 15)
        #expect(WindowMode.screens(1.5).description == "1.5screens")
        for bad in ["0screens", "adaptive:1", "fast", "-3"] {
            #expect(throws: InputError.self, "\(bad)") { try WindowMode.parse(bad, source: "--window") }
        }
    }
}
