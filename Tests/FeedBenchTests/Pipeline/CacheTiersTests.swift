import Testing
@testable import FeedBench

/// The two cache tiers: what each keeps and at what size, the memory cache's refusals, trims
/// and sweeps, and the time a disk read takes.
@Suite struct CacheTiersTests {
    static func image(_ url: UInt64, side: Int = 1000) -> ImageDescriptor {
        ImageDescriptor(url: url, pixelWidth: side, pixelHeight: side, encodedBytes: 200_000)
    }

    static func tiers(memoryLimits: CacheLimits = .bytes(1 << 30), profile: DeviceProfile = .lowEnd,
                      configure: (inout PipelineConfiguration) -> Void = { _ in }) throws -> CacheTiers {
        var configuration = PipelineConfiguration(memoryPolicy: PolicySpec(.lru), memoryLimits: memoryLimits, diskLimits: .bytes(1 << 30))
        configure(&configuration)
        return try CacheTiers(configuration: configuration, profile: profile)
    }

    @Test func bitmapsAreDecodedToTheCellsSizeWhenDownsamplingElseToTheImagesSize() throws {
        let downsampled = try Self.tiers()
        #expect(downsampled.decodedBytes(Self.image(1)) == 750 * 750 * 4, "the iPhone SE's cell, 750 px wide")
        #expect(downsampled.decodedBytes(Self.image(1, side: 3000)) == 750 * 750 * 4)
        let full = try Self.tiers { $0.downsample = false }
        #expect(full.decodedBytes(Self.image(1, side: 3000)) == 3000 * 3000 * 4)
    }

    @Test func eachTierHoldsWhatWasStoredInItAtItsOwnSize() throws {
        var tiers = try Self.tiers()
        tiers.storeOnDisk(Self.image(1), at: 0)
        #expect(tiers.lookUpOnDisk(Self.image(1), at: 1) && !tiers.lookUpInMemory(Self.image(1), at: 1))
        tiers.storeInMemory(Self.image(2), at: 0)
        #expect(tiers.lookUpInMemory(Self.image(2), at: 1) && !tiers.lookUpOnDisk(Self.image(2), at: 1))
        #expect(tiers.disk.occupancy.bytes == 200_000, "the encoded bytes")
        #expect(tiers.memory.own.cache.occupancy.bytes == 750 * 750 * 4, "the decoded bitmap")
    }

    @Test func anImageIsStoredInATierOnce() throws {
        var tiers = try Self.tiers()
        for time in Int64(0)...2 {
            tiers.storeOnDisk(Self.image(1), at: time)
            tiers.storeInMemory(Self.image(1), at: time)
        }
        #expect(tiers.disk.occupancy.count == 1 && tiers.memory.own.cache.occupancy.count == 1)
    }

    @Test func theMemoryCacheRefusesAnEntryCostingItsShareOfTheLimitOrMore() throws {
        var tiers = try Self.tiers(memoryLimits: .bytes(40_000_000)) {
            $0.downsample = false
            $0.maxEntryShare = 0.1
        }
        tiers.storeInMemory(Self.image(1), at: 0) // 4,000,000 bytes: exactly 10 %
        tiers.storeInMemory(Self.image(2, side: 999), at: 0)
        #expect(!tiers.memory.own.contains(1) && tiers.memory.own.contains(2))
        var unlimited = try Self.tiers(memoryLimits: .objects(100)) {
            $0.downsample = false
            $0.maxEntryShare = 0.1
        }
        unlimited.storeInMemory(Self.image(1, side: 5000), at: 0)
        #expect(unlimited.memory.own.contains(1), "no cost limit, no share of it")
    }

    /// Four 1,000,000-byte bitmaps in a cache limited to `limits`, then the app is backgrounded.
    static func backgroundedBytes(_ trim: BackgroundTrim, limits: CacheLimits) throws -> Int64 {
        var tiers = try Self.tiers(memoryLimits: limits) {
            $0.downsample = false
            $0.background = trim
        }
        for url in UInt64(1)...4 { tiers.storeInMemory(Self.image(url, side: 500), at: 0) }
        tiers.enterBackground()
        return tiers.memory.own.cache.occupancy.bytes
    }

    @Test func goingToTheBackgroundKeepsAShareOfTheLimitOrPurges() throws {
        #expect(try Self.backgroundedBytes(.toShareOfLimit(0.5), limits: .bytes(5_000_000)) == 2_000_000, "half the limit")
        #expect(try Self.backgroundedBytes(.purge, limits: .bytes(5_000_000)) == 0)
        #expect(try Self.backgroundedBytes(.toShareOfLimit(0.5), limits: .objects(10)) == 0, "no cost limit: purged")
    }

    @Test func theSweepRemovesExpiredEntriesThatWereNeverLookedUp() throws {
        var tiers = try Self.tiers {
            $0.memoryPolicy = PolicySpec(.lru, maxAge: 300)
            $0.memorySweepInterval = 120_000_000_000
        }
        #expect(tiers.sweepInterval == 120_000_000_000)
        tiers.storeInMemory(Self.image(1), at: 0)
        tiers.sweep(at: 240_000_000_000)
        #expect(tiers.memory.own.contains(1))
        tiers.sweep(at: 360_000_000_000)
        #expect(!tiers.memory.own.contains(1) && tiers.memory.own.cache.occupancy.expirations == 1)
        #expect(try Self.tiers().sweepInterval == nil, "no sweep unless set")
    }

    @Test func aDiskReadTakesItsLatencyAndTheBytesAtTheReadRate() throws {
        var profile = DeviceProfile.lowEnd
        profile.diskReadLatency = 1_000_000
        profile.diskReadBytesPerSecond = 100_000_000
        let tiers = try Self.tiers(profile: profile)
        #expect(tiers.diskReadTime(of: Self.image(1)) == 3_000_000, "1 ms, then 200,000 bytes at 100 MB/s")
    }
}
