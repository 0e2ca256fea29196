import Testing
@testable import FeedBench

/// Whole runs on the main thread: each cell coming on screen costs its configuration, and a
/// library that leaves decoding to Core Animation (Kingfisher without `backgroundDecode`) pays
/// each full-size decode on the main thread at the image's first draw; the frames those commits
/// make late are the run's hitches.
@Suite struct FrameHitchTests {
    static let seconds: Int64 = 1_000_000_000

    /// `seconds` of browsing on `profile` with `preset`'s pipeline and a 20-item prefetch window,
    /// from a feed whose images all measure `side` pixels square when one is given.
    static func run(_ preset: String, profile: DeviceProfile = .lowEnd, side: Int? = nil, duration: Int64 = 30) throws -> RunResult {
        let pipeline = try CachePreset.named(preset).pipeline(on: profile)
        var configuration = RunConfiguration(profile: profile, network: .lte, pipeline: pipeline,
                                             window: .items(PrefetchWindow(ahead: 20)),
                                             workload: .behavior(.browser, duration: duration * seconds), seed: 1)
        if let side { configuration.api.catalog = ImageCatalog(seed: 0, sizes: .model(square(side))) }
        return try FeedSimulation.run(configuration)
    }

    /// Images `side` pixels square that all download the same 150 KB, so that only their
    /// decoding differs from one side to another.
    static func square(_ side: Int) -> ImageSizeModel {
        ImageSizeModel(aspectRatios: [.init(width: 1, height: 1, weight: 1)], sides: side...side,
                       bitsPerPixel: 1...1, encodedBytes: 150_000...150_000)
    }

    /// The low-end phone with its decoder at `decodeBytesPerSecond` and a cell's configuration
    /// fixed at `cell` (it would otherwise follow the decoder's speed).
    static func lowEnd(decodeBytesPerSecond: Int64 = DeviceProfile.lowEnd.decodeBytesPerSecond, cell: Int64) -> DeviceProfile {
        var profile = DeviceProfile.lowEnd
        profile.decodeBytesPerSecond = decodeBytesPerSecond
        profile.cellConfigurationTime = cell
        return profile
    }

    /// The figures every run must satisfy, whatever it hitches.
    static func consistent(_ result: RunResult, _ label: String) {
        let frames = result.frames
        #expect(frames.frames > 0 && frames.scrollingTime == Int64(frames.frames) * DeviceProfile.lowEnd.frameInterval, "\(label): \(frames)")
        #expect(frames.framesLate <= frames.frames && frames.longestHitch <= frames.hitchTime, "\(label): \(frames)")
    }

    // MARK: docs/facts.md#what-each-library-does, the decoding row: who decodes on the main thread

    @Test func kingfishersDefaultDecodesFullSizeImagesOnTheMainThreadAndHitchesOnTheLowEndPhone() throws {
        #expect(CachePreset.kingfisher.decodesAtFirstDraw && CachePreset.kingfisher.pipeline(on: .lowEnd).decodesOnMainThread)
        let result = try Self.run("kingfisher")
        Self.consistent(result, "kingfisher")
        #expect(result.frames.framesLate > 0 && result.frames.hitchTime > 0, "\(result.frames)")
        #expect(result.frames.longestHitch >= DeviceProfile.lowEnd.frameInterval)
    }

    @Test func kingfisherWithBackgroundDecodeOrDownsamplingDecodesOffTheMainThreadAndDoesNotHitch() throws {
        for preset in ["kingfisher:background-decode", "kingfisher:downsample"] {
            #expect(!(try CachePreset.named(preset)).pipeline(on: .lowEnd).decodesOnMainThread, "\(preset)")
            let result = try Self.run(preset)
            Self.consistent(result, preset)
            #expect(result.frames.framesLate == 0 && result.frames.hitchTime == 0, "\(preset): \(result.frames)")
        }
    }

    @Test func nukeDecodesOffTheMainThreadAndDoesNotHitch() throws {
        #expect(!CachePreset.nuke.decodesAtFirstDraw)
        let result = try Self.run("nuke")
        Self.consistent(result, "nuke")
        #expect(result.frames.framesLate == 0 && result.frames.hitchTime == 0, "\(result.frames)")
    }

    @Test func sdwebimageDecodesOffTheMainThreadAndDoesNotHitch() throws {
        #expect(!CachePreset.sdwebimage.decodesAtFirstDraw)
        let result = try Self.run("sdwebimage")
        Self.consistent(result, "sdwebimage")
        #expect(result.frames.framesLate == 0 && result.frames.hitchTime == 0, "\(result.frames)")
    }

    // MARK: What the main thread pays for

    /// Nuke decodes on its own queue: a decoder 1,000 times slower delays images (the stalls
    /// change) but never a frame. The cell's configuration is fixed in both profiles (the
    /// standard one follows the decoder's speed) and slow enough, 10 ms, that some frames are
    /// late in both, so that the comparison is not of two zeros.
    @Test func backgroundDecodingNeverAddsALateFrame() throws {
        let slow = try Self.run("nuke", profile: Self.lowEnd(decodeBytesPerSecond: 10_000_000, cell: 10_000_000))
        let fast = try Self.run("nuke", profile: Self.lowEnd(decodeBytesPerSecond: 10_000_000_000, cell: 10_000_000))
        #expect(slow.stalls.waits != fast.stalls.waits, "the decoder's speed shows in the waits")
        #expect(slow.frames.frames == fast.frames.frames && slow.frames.frames > 0)
        #expect(fast.frames.framesLate > 0, "two cells entering one frame cost 20 ms: \(fast.frames)")
        #expect(slow.frames.framesLate == fast.frames.framesLate, "\(slow.frames) vs \(fast.frames)")
        #expect(slow.frames.hitchTime == fast.frames.hitchTime)
    }

    /// The feed's images are made all 750 or all 1,500 pixels square (same download size):
    /// Kingfisher's main-thread decodes take 4 times longer at the larger side and so do its
    /// hitches; Nuke's decodes stay on its queue and its frames are the same (cells costing
    /// 10 ms, so that some frames are late in both runs).
    @Test func hitchTimeGrowsWithImageSizeWhenDecodingOnTheMainThreadAndNotWhenDecodingOffIt() throws {
        let kingfisherSmall = try Self.run("kingfisher", side: 750)
        let kingfisherLarge = try Self.run("kingfisher", side: 1_500)
        #expect(kingfisherLarge.frames.hitchTime > kingfisherSmall.frames.hitchTime,
                "\(kingfisherSmall.frames) at 750 px vs \(kingfisherLarge.frames) at 1,500 px")
        #expect(kingfisherLarge.frames.framesLate > kingfisherSmall.frames.framesLate)

        let slowCells = Self.lowEnd(cell: 10_000_000)
        let nukeSmall = try Self.run("nuke", profile: slowCells, side: 750)
        let nukeLarge = try Self.run("nuke", profile: slowCells, side: 1_500)
        #expect(nukeSmall.frames == nukeLarge.frames && nukeSmall.frames.framesLate > 0, "\(nukeSmall.frames) vs \(nukeLarge.frames)")
        #expect(nukeSmall.peakMemoryBytes < nukeLarge.peakMemoryBytes, "the larger bitmaps did reach the pipeline")
    }

    /// No main-thread work, no hitch: cells that configure in no time, images decoded off it.
    @Test func withoutMainThreadWorkNoFrameIsLate() throws {
        let idle = Self.lowEnd(cell: 0)
        for preset in ["nuke", "sdwebimage", "kingfisher:background-decode", "default"] {
            let result = try Self.run(preset, profile: idle)
            Self.consistent(result, preset)
            #expect(result.frames.framesLate == 0 && result.frames.hitchTime == 0 && result.frames.longestHitch == 0,
                    "\(preset): \(result.frames)")
        }
    }

    /// Kingfisher's `loadDiskFileSynchronously` (`:sync-disk`) reads a cell's disk hit on the
    /// main thread: the cell shows its image on the frame it appears (no stall, no wait), and
    /// the main thread pays the read. A revisitor scrolling back over a 20 MB memory cache finds
    /// its images on disk; with a 20 ms disk read (beyond a 60 Hz frame) and cells that
    /// configure in no time, only the synchronous reads make frames late.
    @Test func readingTheDiskOnTheMainThreadTradesDiskHitStallsForLateFrames() throws {
        var profile = Self.lowEnd(cell: 0)
        profile.diskReadLatency = 20_000_000
        func run(_ preset: String) throws -> RunResult {
            var pipeline = try CachePreset.named(preset).pipeline(on: profile)
            pipeline.memoryLimits = .bytes(20_000_000)
            let configuration = RunConfiguration(profile: profile, network: .lte, pipeline: pipeline, window: .items(PrefetchWindow(ahead: 0)),
                                                 workload: .behavior(.revisitor, duration: 60 * Self.seconds), seed: 1)
            return try FeedSimulation.run(configuration)
        }
        let queued = try run("kingfisher:background-decode")
        let sync = try run("kingfisher:background-decode:sync-disk")
        #expect(queued.diskHits > 0 && sync.diskHits > 0, "scrolling back reads from disk: \(queued.diskHits), \(sync.diskHits)")
        #expect(queued.frames.framesLate == 0, "\(queued.frames)")
        #expect(sync.frames.framesLate >= sync.diskHits && sync.frames.hitchTime > 0, "\(sync.diskHits) reads: \(sync.frames)")
        #expect(sync.stalls.count < queued.stalls.count, "disk hits no longer wait: \(sync.stalls.count) vs \(queued.stalls.count)")
    }

    @Test func theResultsRowCarriesTheFrameFigures() throws {
        let result = try Self.run("kingfisher", duration: 10)
        let cells = result.csvRow.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        func cell(_ name: String) -> String { cells[RunResult.columns.firstIndex(of: name)!] }
        #expect(cell("frames") == String(result.frames.frames) && cell("frames_late") == String(result.frames.framesLate))
        #expect(cell("hitch_time_ms") == FixedPoint.ratio(result.frames.hitchTime, 1_000_000, decimals: 3))
        #expect(cell("longest_hitch_ms") == FixedPoint.ratio(result.frames.longestHitch, 1_000_000, decimals: 3))
        #expect(cell("hitch_time_ratio_ms_per_s") == result.frames.hitchRatio && result.frames.hitchTime > 0)
    }
}
