import Testing
@testable import FeedBench

/// The presets carry DESIGN.md §5's library defaults, and behave like the libraries.
@Suite struct CachePresetTests {
    @Test func memoryLimitsFollowTheDevice() {
        #expect(CachePreset.nuke.memoryLimits(on: .lowEnd).maxBytes == Int64(Double(3 << 30) * 0.15))
        #expect(CachePreset.nuke.memoryLimits(on: .highEnd).maxBytes == 768_000_000, "Nuke's cap")
        #expect(CachePreset.kingfisher.memoryLimits(on: .mid).maxBytes == Int64(Double(4 << 30) * 0.25))
        #expect(CachePreset.sdwebimage.memoryLimits(on: .mid).maxBytes == nil)
        #expect(CachePreset.default.memoryLimits(on: .mid) == CacheLimits(maxCount: 100, maxBytes: 50_000_000))
        #expect(CachePreset.nuke.memoryPolicy.name == .clock, "Nuke 13 evicts with CLOCK")
        #expect(CachePreset.kingfisher.memoryPolicy.maxAge == 300 && CachePreset.kingfisher.memoryPolicy.refreshOnAccess)
        #expect(CachePreset.conservative.memoryPolicy.name == .ttl)
        #expect(throws: InputError(source: "--preset", "unknown preset \"glide\"; expected one of default, aggressive, conservative, nuke, kingfisher, sdwebimage")) {
            try CachePreset.named("glide")
        }
    }

    static func image(_ url: UInt64) -> ImageDescriptor {
        ImageDescriptor(url: url, pixelWidth: 1000, pixelHeight: 1000, encodedBytes: 200_000)
    }

    /// Starts a download for a cell, lets it reach the network, then the cell leaves.
    static func leaveMidDownload(_ preset: CachePreset) throws -> ImagePipeline {
        var pipeline = try ImagePipeline(configuration: preset.pipeline(on: .lowEnd), profile: .lowEnd, network: .wifi, seed: 1)
        var queue = EventQueue<SimulationEvent>()
        _ = pipeline.requestDisplay(image(1), at: 0, queue: &queue)
        if case let (time, .pipeline(event))? = queue.next() { pipeline.handle(event, at: time, queue: &queue) }
        pipeline.cancelDisplay(1, at: queue.now, queue: &queue)
        while let (time, event) = queue.next() { if case let .pipeline(e) = event { pipeline.handle(e, at: time, queue: &queue) } }
        return pipeline
    }

    @Test func kingfisherKeepsADownloadRunningAfterItsCellDisappearsAndNukeCancelsIt() throws {
        let kingfisher = try Self.leaveMidDownload(.kingfisher)
        #expect(kingfisher.cancelledRequests == 0)
        #expect(kingfisher.diskCache.contains(1), "the download finished into the cache")
        let nuke = try Self.leaveMidDownload(.nuke)
        #expect(nuke.cancelledRequests == 1)
        #expect(!nuke.diskCache.contains(1))
    }

    @Test func nukeDoesNotKeepEntriesOfATenthOfItsLimitOrMore() throws {
        var configuration = CachePreset.nuke.pipeline(on: .lowEnd)
        configuration.memoryLimits = .bytes(20_000_000)
        configuration.downsample = false
        var pipeline = try ImagePipeline(configuration: configuration, profile: .lowEnd, network: .wifi, seed: 1)
        pipeline.storeInMemory(Self.image(1), at: 0) // 4 MB ≥ 2 MB
        #expect(!pipeline.memoryCache.contains(1))
        pipeline.storeInMemory(ImageDescriptor(url: 2, pixelWidth: 500, pixelHeight: 500, encodedBytes: 50_000), at: 0) // 1 MB
        #expect(pipeline.memoryCache.contains(2))
    }

    @Test func diskCachesTrimToTheirRatioWhenFull() throws {
        var configuration = CachePreset.nuke.pipeline(on: .lowEnd)
        configuration.diskLimits = .bytes(1_000_000)
        var pipeline = try ImagePipeline(configuration: configuration, profile: .lowEnd, network: .wifi, seed: 1)
        for url in UInt64(1)...5 { pipeline.storeOnDisk(Self.image(url), at: 0) }  // 5 × 200 kB fits exactly
        #expect(pipeline.diskCache.occupancy.bytes == 1_000_000)
        pipeline.storeOnDisk(Self.image(6), at: 0)
        #expect(pipeline.diskCache.occupancy.bytes <= 700_000, "trimmed to 70 %")
        #expect(pipeline.diskCache.contains(6))
    }

    @Test func everyPresetRunsAndNamesItselfInThePolicyColumn() throws {
        let runs = try StandardMatrix.configurations(profile: .lowEnd, caches: CachePreset.all.map(CacheSetup.preset),
                                                     windows: [.items(PrefetchWindow(ahead: 10))],
                                                     workloads: [.behavior(.skimmer, duration: 20_000_000_000)], seeds: [1])
        let results = try RunBatch.run(runs, jobs: 2)
        #expect(results.map(\.policy) == ["default(lru:max-age=3600)", "aggressive(lru:max-age=86400)", "conservative(ttl:max-age=300)",
                                          "nuke(clock)", "kingfisher(lru:max-age=300:refresh=1)", "sdwebimage(lru)"])
        #expect(results.allSatisfy { $0.displays > 0 })
    }
}
