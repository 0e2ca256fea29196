import Testing
@testable import FeedBench

/// Each library preset follows docs/facts.md#what-each-library-does row by row (Nuke 13.2,
/// Kingfisher 8.11, SDWebImage 5.21): one test per row, named for the behaviour, driven through the pipeline
/// event by event or through whole runs.
@Suite struct CachePresetTests {
    static func image(_ url: UInt64, side: Int = 1000) -> ImageDescriptor {
        ImageDescriptor(url: url, pixelWidth: side, pixelHeight: side, encodedBytes: 200_000)
    }

    static func pipeline(_ preset: CachePreset, network: NetworkProfile = NetworkProfile.wifi.overHTTP11,
                         configure: (inout PipelineConfiguration) -> Void = { _ in }) throws -> ImagePipeline {
        var configuration = preset.pipeline(on: .lowEnd)
        configure(&configuration)
        return try ImagePipeline(configuration: configuration, profile: .lowEnd, network: network, seed: 1)
    }

    /// Handles pipeline events up to `time`, calling `observe` after each.
    static func run(_ pipeline: inout ImagePipeline, _ queue: inout EventQueue<SimulationEvent>, until time: Int64 = .max,
                    observe: (ImagePipeline, Int64) -> Void = { _, _ in }) {
        while let next = queue.nextTime, next <= time, let (now, event) = queue.next() {
            if case let .pipeline(event) = event { pipeline.handle(event, at: now, queue: &queue) }
            observe(pipeline, now)
        }
    }

    // MARK: Memory cache

    @Test func memoryPoliciesAreNukesClockKingfishersAgeAndNSCacheAsLRU() {
        #expect(CachePreset.nuke.memoryPolicy == PolicySpec(.clock))
        #expect(CachePreset.kingfisher.memoryPolicy == PolicySpec(.lru, maxAge: 300, refreshOnAccess: true))
        #expect(CachePreset.kingfisher.memorySweepSeconds == 120)
        #expect(CachePreset.sdwebimage.memoryPolicy == PolicySpec(.lru))
    }

    @Test func costLimitsAreAShareOfRAMWithNukesCapAndNoneForSDWebImage() {
        #expect(CachePreset.nuke.memoryLimits(on: .lowEnd).maxBytes == Int64(Double(3 << 30) * 0.15))
        #expect(CachePreset.nuke.memoryLimits(on: .highEnd).maxBytes == 805_306_368, "Nuke's cap, 768 MiB")
        #expect(CachePreset.kingfisher.memoryLimits(on: .mid).maxBytes == 1_073_741_824, "a quarter of 4 GiB")
        #expect(CachePreset.sdwebimage.memoryLimits(on: .mid).maxBytes == nil)
        #expect(CachePreset.default.memoryLimits(on: .mid) == CacheLimits(maxCount: 100, maxBytes: 50_000_000))
    }

    @Test func nukeNeverStoresAnEntryCostingATenthOfItsLimitOrMore() throws {
        var pipeline = try Self.pipeline(.nuke) { $0.memoryLimits = .bytes(40_000_000) }
        pipeline.caches.storeInMemory(Self.image(1), at: 0) // 4,000,000 bytes: exactly 10 %
        #expect(!pipeline.caches.memory.own.contains(1))
        pipeline.caches.storeInMemory(Self.image(2, side: 999), at: 0) // 3,992,004 bytes
        #expect(pipeline.caches.memory.own.contains(2))
    }

    @Test func kingfisherSweepsEntriesUnreadFor300SecondsEvery120Seconds() throws {
        var pipeline = try Self.pipeline(.kingfisher)
        var queue = EventQueue<SimulationEvent>()
        pipeline.startLaunch(0, at: 0, queue: &queue)
        pipeline.caches.storeInMemory(Self.image(1), at: 0)
        Self.run(&pipeline, &queue, until: 240_000_000_000)
        #expect(pipeline.caches.memory.own.contains(1), "the 240 s sweep finds it 240 s old")
        Self.run(&pipeline, &queue, until: 360_000_000_000)
        #expect(!pipeline.caches.memory.own.contains(1), "the 360 s sweep removes it, never looked up")
        #expect(pipeline.memoryOccupancy.expirations == 1)
    }

    // MARK: Decoding

    @Test func libraryPresetsDecodeAtFullSizeUnlessAskedToDownsample() throws {
        for name in ["nuke", "kingfisher", "sdwebimage"] {
            let full = try Self.pipeline(CachePreset.named(name))
            #expect(full.decodedBytes(Self.image(1, side: 1500)) == 1500 * 1500 * 4, "9 MB for \(name)")
            let downsampled = try Self.pipeline(CachePreset.named(name + ":downsample"))
            #expect(downsampled.decodedBytes(Self.image(1, side: 1500)) == 750 * 750 * 4, "the SE's cell, for \(name)")
        }
        let seed = try Self.pipeline(.default)
        #expect(seed.decodedBytes(Self.image(1, side: 1500)) == 750 * 750 * 4, "seed presets downsample")
    }

    @Test func nukeAndKingfisherDecodeOneImageAtATimeAndSDWebImageHasNoSharedLimit() throws {
        for (preset, limit) in [(CachePreset.nuke, 1), (.kingfisher, 1), (.sdwebimage, nil)] {
            var pipeline = try Self.pipeline(preset)
            #expect(pipeline.configuration.decodeConcurrency == limit, "\(preset.name)")
            var queue = EventQueue<SimulationEvent>()
            for url in UInt64(1)...6 { _ = pipeline.requestDisplay(Self.image(url, side: 2000), at: 0, queue: &queue) }
            var most = 0
            Self.run(&pipeline, &queue) { pipeline, _ in most = max(most, pipeline.decodes.running) }
            // Six downloads end a few milliseconds apart (they share the buffer first come, first
            // served): without a limit their decodes overlap, with one they never do.
            if let limit { #expect(most == limit, "\(preset.name)") } else { #expect(most >= 3, "\(preset.name): \(most) at once") }
            #expect(pipeline.memoryOccupancy.count == 6)
        }
    }

    // MARK: Memory warning and background

    @Test func everyPresetClearsItsMemoryCacheOnAMemoryWarning() {
        #expect(CachePreset.all.allSatisfy { $0.pipeline(on: .lowEnd).respondsToMemoryWarnings })
    }

    @Test func nukeTrimsToATenthOfItsLimitInTheBackgroundAndNSCacheEmptiesItself() throws {
        for (preset, expected) in [(CachePreset.nuke, 4_000_000 as Int64), (.kingfisher, 0), (.sdwebimage, 0)] {
            var pipeline = try Self.pipeline(preset) { $0.memoryLimits = .bytes(40_000_000) }
            for url in UInt64(1)...5 { pipeline.caches.storeInMemory(Self.image(url, side: 500), at: 0) } // 5 × 1 MB
            pipeline.enterBackground()
            #expect(pipeline.memoryOccupancy.bytes == expected, "\(preset.name): of the limit, not of the 5 MB held")
        }
    }

    // MARK: Disk

    @Test func nukesDiskIsA150MiBURLCacheAndTheOthersKeepSevenDaysUnlimited() throws {
        let nuke = CachePreset.nuke.pipeline(on: .lowEnd)
        #expect(nuke.diskLimits == .bytes(157_286_400) && nuke.diskPolicy == PolicySpec(.lru))
        var pipeline = try Self.pipeline(.nuke) { $0.diskLimits = .bytes(1_000_000) }
        for url in UInt64(1)...6 { pipeline.caches.storeOnDisk(Self.image(url), at: 0) }
        #expect(pipeline.caches.disk.occupancy.bytes == 1_000_000, "evicts just enough: URLCache, not DataCache's trim to 70 %")
        for preset in [CachePreset.kingfisher, .sdwebimage] {
            let configuration = preset.pipeline(on: .lowEnd)
            #expect(configuration.diskLimits == .unbounded)
            #expect(configuration.diskPolicy == PolicySpec(.lru, maxAge: 7 * 86_400, refreshOnAccess: true))
        }
    }

    // MARK: Downloads

    @Test func nukeMainHasNoRateLimiterAndIsOtherwiseNuke13_2() throws {
        var pipeline = try Self.pipeline(.nukeMain, network: NetworkProfile(name: "fast", bitsPerSecond: 10_000_000_000,
                                                                            oneWayDelay: 0...0, loss: 0, connectionsPerHost: 1_000))
        var queue = EventQueue<SimulationEvent>()
        for url in UInt64(1)...400 { _ = pipeline.requestDisplay(Self.image(url), at: 0, queue: &queue) }
        #expect((UInt64(1)...400).allSatisfy { pipeline.tasks[$0]?.phase != .rateLimited }, "kean/Nuke PR #963 removed the limiter")
        var withoutLimiter = CachePreset.nuke
        withoutLimiter.name = "nuke@main"
        withoutLimiter.downloadRateLimit = nil
        #expect(CachePreset.nukeMain.behaviours.map(\.value) == withoutLimiter.behaviours.map(\.value))
        #expect(CachePreset.nukeMain.label == "nuke@main(clock)")
        #expect(try CachePreset.named("nuke@main:downsample").label == "nuke@main:downsample(clock)")
    }

    @Test func nukeStartsAtMost25DownloadsAtOnceAnd80ASecondOnceTheBurstIsSpent() throws {
        var pipeline = try Self.pipeline(.nuke, network: NetworkProfile(name: "fast", bitsPerSecond: 10_000_000_000,
                                                                        oneWayDelay: 0...0, loss: 0, connectionsPerHost: 1_000))
        var queue = EventQueue<SimulationEvent>()
        let urls = UInt64(1)...400
        for url in urls { _ = pipeline.requestDisplay(Self.image(url), at: 0, queue: &queue) }
        var started: [Int64] = Array(repeating: 0, count: 25)
        var seen = Set(urls.filter { pipeline.tasks[$0]?.phase != .rateLimited })
        #expect(seen.count == 25, "the burst")
        Self.run(&pipeline, &queue) { pipeline, now in
            for url in urls where !seen.contains(url) && pipeline.tasks[url]?.phase != .rateLimited {
                seen.insert(url)
                started.append(now)
            }
        }
        #expect(started.count == 400)
        // No instant sees more than the 25 a full bucket holds, and once the burst is spent the
        // bucket refills at 80 a second: after any start, the next second holds at most 80 more.
        var perInstant: [Int64: Int] = [:]
        for start in started { perInstant[start, default: 0] += 1 }
        #expect(perInstant.values.max() == 25)
        for start in Set(started) where start > 0 {
            let next = started.filter { $0 > start && $0 <= start + 1_000_000_000 }.count
            #expect(next <= 80, "\(next) in the second after \(start) ns")
        }
        #expect(started.filter { $0 < 1_000_000_000 }.count <= 25 + 80)
        #expect(started.last! >= 4_600_000_000, "375 more at 80 a second take 4.7 s")
    }

    @Test func onlyNukeRaisesAQueuedPrefetchWhenAVisibleCellJoinsIt() throws {
        for (preset, raised) in [(CachePreset.nuke, true), (.kingfisher, false), (.sdwebimage, false)] {
            var pipeline = try Self.pipeline(preset) { $0.downloadRateLimit = nil }
            var queue = EventQueue<SimulationEvent>()
            for url in UInt64(10)...17 { _ = pipeline.requestDisplay(Self.image(url), at: 0, queue: &queue) }
            pipeline.startPrefetching([Self.image(1), Self.image(2)], at: 0, queue: &queue)
            #expect(pipeline.requestDisplay(Self.image(2), at: 0, queue: &queue) == .inflightHit)
            let order = Array(pipeline.tasks.highQueue) + Array(pipeline.tasks.lowQueue)
            #expect((order.firstIndex(of: 2)! < order.firstIndex(of: 1)!) == raised, "\(preset.name): \(order)")
        }
    }

    @Test func kingfisherKeepsADownloadRunningAfterItsCellDisappearsAndNukeCancelsIt() throws {
        for (preset, cancels) in [(CachePreset.kingfisher, false), (.nuke, true), (.sdwebimage, true)] {
            var pipeline = try Self.pipeline(preset)
            var queue = EventQueue<SimulationEvent>()
            _ = pipeline.requestDisplay(Self.image(1), at: 0, queue: &queue)
            if case let (time, .pipeline(event))? = queue.next() { pipeline.handle(event, at: time, queue: &queue) }
            pipeline.cancelDisplay(1, at: queue.now, queue: &queue)
            Self.run(&pipeline, &queue)
            #expect((pipeline.figures.cancelledRequests == 1) == cancels, "\(preset.name)")
            #expect(pipeline.caches.disk.contains(1) != cancels, "\(preset.name): finished into the cache or not")
        }
    }

    // MARK: Prefetcher

    @Test func prefetchersRunTheirLibrarysLimitsKingfisherPerBatch() throws {
        for (preset, running) in [(CachePreset.nuke, 2), (.kingfisher, 10), (.sdwebimage, 3)] {
            let network = NetworkProfile(name: "wide", bitsPerSecond: 40_000_000, oneWayDelay: 1_000_000...1_000_000,
                                         connectionsPerHost: 100)
            var pipeline = try Self.pipeline(preset, network: network) { $0.downloadRateLimit = nil }
            var queue = EventQueue<SimulationEvent>()
            pipeline.startPrefetching((1...8).map { Self.image($0) }, at: 0, queue: &queue)
            pipeline.startPrefetching((11...18).map { Self.image($0) }, at: 0, queue: &queue)
            #expect(pipeline.tasks.connectionsInUse == running, "\(preset.name)")
        }
    }

    @Test func kingfisherLeavesPrefetchedDiskHitsOnDiskAndTheOthersLoadThem() throws {
        for (preset, loaded) in [(CachePreset.kingfisher, false), (.nuke, true), (.sdwebimage, true)] {
            var pipeline = try Self.pipeline(preset)
            var queue = EventQueue<SimulationEvent>()
            pipeline.caches.storeOnDisk(Self.image(1), at: 0)
            pipeline.startPrefetching([Self.image(1)], at: 0, queue: &queue)
            Self.run(&pipeline, &queue)
            #expect(pipeline.caches.memory.own.contains(1) == loaded, "\(preset.name)")
            #expect(pipeline.imageRequests == 0)
        }
    }

    // MARK: Whole runs

    /// Two minutes of skimming on the iPhone SE at full-size decodes.
    static func skim(_ preset: CachePreset) throws -> RunResult {
        try FeedSimulation.run(RunConfiguration(profile: .lowEnd, network: .lte, pipeline: preset.pipeline(on: .lowEnd),
                                                window: .items(PrefetchWindow(ahead: 20)), workload: .behavior(.skimmer, duration: 120_000_000_000),
                                                seed: 1))
    }

    @Test func sdwebimagesUnlimitedCacheOfFullSizeBitmapsGetsMemoryWarningsWhereNukesCapDoesNot() throws {
        let sdwebimage = try Self.skim(.sdwebimage)
        #expect(sdwebimage.memoryWarnings > 0, "3 GB cannot hold two minutes of full-size bitmaps")
        #expect(sdwebimage.peakMemoryBytes > CachePreset.nuke.memoryLimits(on: .lowEnd).maxBytes!)
        let nuke = try Self.skim(.nuke)
        #expect(nuke.memoryWarnings == 0 && nuke.jetsamKills == 0)
    }

    @Test func everyPresetRunsAndNamesItsDecodeInTheScenario() throws {
        let presets = CachePreset.all.map(CacheSetup.preset) + [.preset(try CachePreset.named("nuke:downsample"))]
        let runs = try StandardMatrix.plan(profile: .lowEnd, caches: presets,
                                                     windows: [.items(PrefetchWindow(ahead: 10))],
                                                     workloads: [.behavior(.skimmer, duration: 20_000_000_000)], seeds: [1]).configurations
        let results = try RunBatch.run(runs, jobs: 2)
        #expect(results.map(\.policy) == ["default(lru:max-age=3600)", "aggressive(lru:max-age=86400)", "conservative(ttl:max-age=300)",
                                          "nuke(clock)", "nuke@main(clock)", "kingfisher(lru:max-age=300:refresh=1)", "sdwebimage(lru)",
                                          "nuke:downsample(clock)"])
        #expect(results.map(\.scenario) == ["cacheFirst", "cacheFirst", "cacheFirst", "cacheFirst;decode=full", "cacheFirst;decode=full",
                                            "cacheFirst;decode=full", "cacheFirst;decode=full", "cacheFirst"])
        #expect(results.allSatisfy { $0.displays > 0 })
    }

    // MARK: Bad input

    @Test func unknownPresetsAndParametersAreRefusedInOneLine() throws {
        #expect(throws: InputError(source: "--preset", "unknown preset \"glide\"; expected one of default, aggressive, conservative, nuke, nuke@main, kingfisher, sdwebimage")) {
            try CachePreset.named("glide")
        }
        #expect(throws: InputError(source: "--preset", "preset nuke has no parameter \"resize\"; expected downsample, full-size, background-decode, sync-disk, prefetch=1…32 or disk=SIZE")) {
            try CachePreset.named("nuke:resize")
        }
        #expect(throws: InputError(source: "--preset", "preset kingfisher: \"prefetch=0\" is out of range; expected prefetch=1…32")) {
            try CachePreset.named("kingfisher:prefetch=0")
        }
        #expect(try CachePreset.named("kingfisher:prefetch=8").prefetch.concurrency == 8)
        let disk = try CachePreset.named("sdwebimage:disk=50MiB")
        #expect(disk.diskBytes == 52_428_800 && disk.label == "sdwebimage:disk=50MiB(lru)")
        #expect(throws: InputError(source: "--preset", "preset nuke: disk: expected a size with a unit, such as 200MB or 64KiB (B, KB, MB, GB, TB, KiB, MiB, GiB or TiB), found \"50\" without one")) {
            try CachePreset.named("nuke:disk=50")
        }
    }

    @Test func presetsListEveryBehaviourWithItsLibraryVersion() {
        let text = PresetCatalog.text
        for heading in ["nuke — Nuke 13.2", "kingfisher — Kingfisher 8.11", "sdwebimage — SDWebImage 5.21"] { #expect(text.contains(heading)) }
        func behaviour(_ preset: CachePreset, _ aspect: String) -> String { preset.behaviours.first { $0.aspect == aspect }?.value ?? "" }
        #expect(behaviour(.nuke, "downloads").hasSuffix("a rate limiter lets 25 start at once, then 80 a second"))
        #expect(behaviour(.kingfisher, "prefetcher").hasPrefix("one per batch of items entering the window, never stopped, 5 at once each"))
        #expect(behaviour(.nuke, "background") == "the memory cache is trimmed to 10 % of its cost limit")
        #expect(behaviour(.sdwebimage, "background") == "the memory cache is emptied")
        // The priority the host sees: Nuke's data loader sets none, SDWebImage's prefetcher low.
        #expect(behaviour(.nuke, "task priority").hasPrefix("URLSession's default for every download"))
        #expect(behaviour(.nukeMain, "task priority") == behaviour(.nuke, "task priority"))
        #expect(behaviour(.sdwebimage, "task priority").hasPrefix("low for a prefetch's URLSessionTask"))
        #expect(behaviour(.kingfisher, "task priority").hasPrefix("the same for prefetches and cells"))
        #expect(!CachePreset.nuke.pipeline(on: .lowEnd).setsTaskPriority && CachePreset.sdwebimage.pipeline(on: .lowEnd).setsTaskPriority)
        #expect(CachePreset.all.allSatisfy { $0.behaviours.count == 11 })
    }
}
