import Testing
@testable import FeedBench

/// The run's memory cache and its followers: a follower answering a question otherwise stops
/// following and nothing else does, every tier is changed alike, and each counts the bitmaps on
/// screen it does not hold exactly as a scan of the screen would.
@Suite struct MemoryCachesTests {
    static func configuration(_ policy: String, bytes: Int64) throws -> PipelineConfiguration {
        PipelineConfiguration(memoryPolicy: try PolicySpec.parse(policy, source: "test"), memoryLimits: .bytes(bytes),
                              diskLimits: .bytes(1 << 30))
    }

    static func caches(_ own: (String, Int64), followers: [(String, Int64)]) throws -> MemoryCaches {
        try MemoryCaches(configuration: configuration(own.0, bytes: own.1),
                         followers: followers.map { try configuration($0.0, bytes: $0.1) }, ageScale: 1)
    }

    static func request(_ url: UInt64, at time: Int64 = 0) -> CacheRequest { CacheRequest(key: url, size: 100, time: time) }

    @Test func aFollowerThatAnswersOtherwiseStopsFollowingAndTheOthersGoOn() throws {
        // Room for 2 images, for 3, and fifo's order where lru keeps what was looked up.
        var caches = try Self.caches(("lru", 200), followers: [("lru", 300), ("fifo", 200), ("lru", 200)])
        caches.store(Self.request(1))
        caches.store(Self.request(2))
        #expect(caches.lookup(Self.request(1)) && caches.following == [1, 2, 3], "all hold 1")
        caches.store(Self.request(3)) // lru evicts 2; fifo evicts 1; the larger one evicts nothing
        #expect(caches.contains(1) && caches.following == [1, 3], "fifo no longer holds 1")
        #expect(!caches.contains(2) && caches.following == [3], "the larger cache still holds 2")
        #expect(caches.tiers[1].contains(2), "a follower that stopped is not changed any more, nor asked")
    }

    @Test func aDrawIsAskedOfEveryFollower() throws {
        var configuration = try Self.configuration("lru", bytes: 1_000)
        configuration.decodesAtFirstDraw = true
        configuration.downsample = false
        var picky = configuration
        picky.maxEntryShare = 0.05 // refuses entries of 50 bytes or more
        var caches = try MemoryCaches(configuration: configuration, followers: [configuration, picky], ageScale: 1)
        caches.store(Self.request(1))
        #expect(caches.drawn(1) && caches.following == [1], "the picky cache refused it, so never held it undrawn")
        #expect(!caches.drawn(1) && caches.following == [1], "drawn once")
    }

    /// Random screens and cache traffic over many seeds: each tier's bitmap bytes are the scan's.
    @Test(arguments: UInt64(1)...40)
    func eachTierCountsTheBitmapsOnScreenItDoesNotHold(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var caches = try Self.caches(("lru", 600), followers: [("fifo", 400), ("lfu", 1_000), ("ttl:max-age=50", 500), ("s3fifo", 800)])
        var screen: [UInt64: Int64] = [:] // what the screen shows, by image
        for step in Int64(0)..<400 {
            let url = random.next() % 24
            switch random.next() % 9 {
            case 0, 1: caches.store(CacheRequest(key: url, size: Int64(50 + random.next() % 150), time: step))
            case 2: _ = caches.lookup(Self.request(url, at: step))
            case 3: caches.remove(url)
            case 4:
                let bytes = Int64(1 + random.next() % 300)
                screen[url, default: 0] += bytes
                caches.shownChanged([.init(url: url, bytes: bytes)])
            case 5:
                if let (shownURL, bytes) = screen.sorted(by: { $0.key < $1.key }).first {
                    screen[shownURL] = nil
                    caches.shownChanged([.init(url: shownURL, bytes: -bytes)])
                }
            case 6: if random.next() % 20 == 0 { caches.removeAll() }
            case 7: if random.next() % 20 == 0 { caches.enterBackground() }
            default: caches.sweep(at: step)
            }
            for tier in caches.tiers.indices where tier == 0 || caches.following.contains(tier) {
                let scan = screen.reduce(Int64(0)) { $0 + (caches.tiers[tier].contains($1.key) ? 0 : $1.value) }
                #expect(caches.tiers[tier].ownedBitmapBytes == scan, "seed \(seed), step \(step), tier \(tier)")
                #expect(caches.tiers[tier].heldBytes == caches.tiers[tier].cache.occupancy.bytes + scan)
            }
        }
    }
}
