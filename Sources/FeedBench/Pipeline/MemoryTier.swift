/// One memory cache and what it alone decides: which decoded images it keeps (its policy and
/// limit, too large an entry refused, the background trim, expired entries swept), which of them
/// it holds undrawn, and the bitmap bytes the app owns because of it — those of the cells on
/// screen showing an image it does not hold.
///
/// `MemoryCaches` keeps the run's own tier and the tiers that follow it. The bitmap bytes are
/// kept as the sum over the screen's images, `shown`, that the tier does not hold: every change
/// to what it holds adjusts the sum by the bytes `shown` gives the image, and a change it cannot
/// name (an eviction, a trim, a sweep) counts the sum again. O(1) per change, O(shown images)
/// per change that removes entries it does not name.
struct MemoryTier {
    /// Decoded images, sized by their bitmap bytes.
    private(set) var cache: any EvictionPolicy
    /// Images costing this many bitmap bytes or more are not kept; `nil`: any is.
    let largestEntryBytes: Double?
    /// What the cache keeps when the app is backgrounded; `nil`: nothing.
    let backgroundKeepsBytes: Int64?
    /// Whether the main thread decodes an image at its first draw, so an image put in the cache
    /// undecoded is remembered until it is drawn.
    let tracksDraws: Bool
    /// Images put in the cache undecoded and not drawn since (only when `tracksDraws`).
    private var undrawn: Set<UInt64> = []
    /// The bitmap bytes of the cells on screen whose image the cache does not hold.
    private(set) var ownedBitmapBytes: Int64 = 0

    init(configuration: PipelineConfiguration, ageScale: Int64) throws {
        cache = try configuration.memoryPolicy.makePolicy(limits: configuration.memoryLimits, ageScale: ageScale, source: "--policy")
        let limit = configuration.memoryLimits.maxBytes
        if let share = configuration.maxEntryShare, let limit {
            largestEntryBytes = share * Double(limit)
        } else {
            largestEntryBytes = nil
        }
        switch configuration.background {
        case .purge:
            backgroundKeepsBytes = nil
        case let .toShareOfLimit(share):
            backgroundKeepsBytes = limit.map { Int64(Double($0) * share) }
        }
        tracksDraws = configuration.decodesOnMainThread
    }

    /// The app's memory this tier accounts for: the cache's bytes and the bitmaps it leaves the
    /// app to own. O(1).
    var heldBytes: Int64 { cache.occupancy.bytes + ownedBitmapBytes }

    /// Whether `url` is held. O(1).
    func contains(_ url: UInt64) -> Bool { cache.contains(url) }

    /// Looks `request` up (a hit updates the policy's state; an expired entry is dropped),
    /// `shown` being the screen's bitmap bytes by image. O(1) plus the policy's cost.
    mutating func lookup(_ request: CacheRequest, shown: [UInt64: Int64]) -> Bool {
        let before = cache.occupancy
        let hit = cache.lookup(request)
        if cache.occupancy.count != before.count { recount(shown) }
        return hit
    }

    /// Puts `request`'s decoded image in the cache unless it is held already or too large an
    /// entry for it. O(1) plus the policy's cost; O(shown images) when it evicts.
    mutating func store(_ request: CacheRequest, shown: [UInt64: Int64]) {
        if let largestEntryBytes, Double(request.size) >= largestEntryBytes { return }
        if cache.contains(request.key) { return }
        let count = cache.occupancy.count
        let inserted = cache.insert(request)
        if tracksDraws { undrawn.insert(request.key) }
        if cache.occupancy.count != count + (inserted ? 1 : 0) {
            // It made room (or dropped expired entries) on the way.
            recount(shown)
        } else if inserted, let bytes = shown[request.key] {
            ownedBitmapBytes -= bytes
        }
    }

    /// `url` is drawn now: whether it was put in the cache undecoded since its last draw. O(1).
    mutating func drawn(_ url: UInt64) -> Bool { undrawn.remove(url) != nil }

    /// Takes `url` out (not an eviction). O(1).
    mutating func remove(_ url: UInt64, shown: [UInt64: Int64]) {
        if cache.remove(url), let bytes = shown[url] { ownedBitmapBytes += bytes }
    }

    /// Empties the cache (a memory warning, a kill, a cold launch); the app then owns every
    /// bitmap on screen, `shownBytes`. O(entries).
    mutating func removeAll(shownBytes: Int64) {
        cache.removeAll()
        ownedBitmapBytes = shownBytes
    }

    /// Trims the cache as the app goes to the background. O(evicted + shown images).
    mutating func enterBackground(shown: [UInt64: Int64]) {
        if let backgroundKeepsBytes {
            cache.trim(toBytes: backgroundKeepsBytes)
        } else {
            cache.trim(toFraction: 0)
        }
        recount(shown)
    }

    /// Removes the entries expired at `now`. O(slots + shown images).
    mutating func sweep(at now: Int64, shown: [UInt64: Int64]) {
        let before = cache.occupancy.count
        cache.removeExpired(at: now)
        if cache.occupancy.count != before { recount(shown) }
    }

    /// The cells on screen showing `url` now show `bytes` more bitmap bytes (fewer when
    /// negative). O(1).
    mutating func shownChanged(_ url: UInt64, by bytes: Int64) {
        if !cache.contains(url) { ownedBitmapBytes += bytes }
    }

    /// Counts the bitmap bytes it leaves the app to own afresh. O(shown images).
    private mutating func recount(_ shown: [UInt64: Int64]) {
        var bytes: Int64 = 0
        for (url, shownBytes) in shown where !cache.contains(url) { bytes += shownBytes }
        ownedBitmapBytes = bytes
    }
}
