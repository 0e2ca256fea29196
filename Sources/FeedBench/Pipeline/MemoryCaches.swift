/// The run's memory cache (tier 0) and, kept in lockstep with it, the memory caches of other
/// policies and limits: the followers (docs/main-job.md, "Runs that are run once").
///
/// Every question the run asks its cache — is this image held, a lookup, has it been drawn —
/// is asked of each follower too, and every change made to it is made to theirs. A follower
/// that answers differently is dropped: from there on its run would go another way. Nothing
/// else in a run depends on the memory cache but its share of the app's memory, which the app
/// judges for each follower as for its own (`FeedApp.updateMemory`). So a follower that is
/// still following when the run ends would have made the same run, event for event; its row is
/// the run's with its own policy, limit, evictions and memory figures, and it need not run.
///
/// It also mirrors what the screen shows (`shownChanged`), the bitmap bytes of the cells on
/// screen by image, which each tier needs to count the bitmaps the app owns because it does not
/// hold them.
struct MemoryCaches {
    /// Tier 0 is the run's own; the others are the followers, in the order given.
    private(set) var tiers: [MemoryTier]
    /// The followers still answering as tier 0 does, ascending.
    private(set) var following: [Int]
    /// Each tier's `heldBytes`, kept as each changes: read after every event, so an array of
    /// numbers rather than a look into each tier's policy.
    private(set) var heldBytes: [Int64]
    /// The run's own cache's bytes, kept alike.
    private(set) var ownCacheBytes: Int64 = 0
    /// The bitmap bytes of the cells on screen showing each image (cells waiting for theirs
    /// show none), as the viewport has them once its changes are passed on.
    private var shown: [UInt64: Int64] = [:]
    /// The sum of `shown`.
    private var shownBytes: Int64 = 0

    /// The run's cache set up as `configuration` says, followed by one for each of `followers`
    /// (configurations that differ from it only in the memory cache's policy and limit).
    init(configuration: PipelineConfiguration, followers: [PipelineConfiguration], ageScale: Int64) throws {
        tiers = try ([configuration] + followers).map { try MemoryTier(configuration: $0, ageScale: ageScale) }
        following = Array(tiers.indices.dropFirst())
        heldBytes = Array(repeating: 0, count: tiers.count)
    }

    /// The run's own cache. O(1), a copy.
    var own: MemoryTier { tiers[0] }

    /// Whether `url` is held, by the run's cache and so by every follower still following. O(followers).
    mutating func contains(_ url: UInt64) -> Bool {
        let answer = tiers[0].contains(url)
        keep { $0.contains(url) == answer }
        return answer
    }

    /// Looks `request` up in every tier; returns the run's answer. O(followers) lookups.
    mutating func lookup(_ request: CacheRequest) -> Bool {
        let shown = shown
        let answer = tiers[0].lookup(request, shown: shown)
        refresh(0)
        keep { $0.lookup(request, shown: shown) == answer }
        return answer
    }

    /// Whether `url` was put in the cache undecoded since it was last drawn (and is drawn now).
    /// O(followers).
    mutating func drawn(_ url: UInt64) -> Bool {
        let answer = tiers[0].drawn(url)
        keep { $0.drawn(url) == answer }
        return answer
    }

    /// Puts a decoded image in every tier, each deciding for itself. O(followers) inserts.
    mutating func store(_ request: CacheRequest) {
        let shown = shown
        change { $0.store(request, shown: shown) }
    }

    /// Takes `url` out of every tier. O(followers).
    mutating func remove(_ url: UInt64) {
        let shown = shown
        change { $0.remove(url, shown: shown) }
    }

    /// Empties every tier. O(entries).
    mutating func removeAll() {
        let bytes = shownBytes
        change { $0.removeAll(shownBytes: bytes) }
    }

    /// Trims every tier as the app goes to the background. O(evicted).
    mutating func enterBackground() {
        let shown = shown
        change { $0.enterBackground(shown: shown) }
    }

    /// Removes every tier's entries expired at `now`. O(slots).
    mutating func sweep(at now: Int64) {
        let shown = shown
        change { $0.sweep(at: now, shown: shown) }
    }

    /// The screen's changes, in order: each, the bitmap bytes the cells showing an image gained
    /// (or lost, when negative). O(changes × tiers).
    mutating func shownChanged(_ changes: [Viewport.ShownChange]) {
        for change in changes where change.bytes != 0 {
            let bytes = shown[change.url, default: 0] + change.bytes
            shown[change.url] = bytes == 0 ? nil : bytes
            shownBytes += change.bytes
            self.change { $0.shownChanged(change.url, by: change.bytes) }
        }
    }

    /// Follower `tier` stops following (its run would have gone another way here). O(followers).
    mutating func drop(_ tier: Int) {
        following.removeAll { $0 == tier }
    }

    /// Drops the followers for which `agrees` is false. O(followers).
    private mutating func keep(_ agrees: (inout MemoryTier) -> Bool) {
        var kept = 0
        for position in following.indices {
            let tier = following[position]
            if agrees(&tiers[tier]) {
                following[kept] = tier
                kept += 1
                refresh(tier)
            }
        }
        following.removeLast(following.count - kept)
    }

    /// Makes `change` to the run's tier and to each follower. O(followers).
    private mutating func change(_ change: (inout MemoryTier) -> Void) {
        change(&tiers[0])
        refresh(0)
        for tier in following {
            change(&tiers[tier])
            refresh(tier)
        }
    }

    /// Reads `tier`'s bytes into `heldBytes` (and the run's cache's into `ownCacheBytes`). O(1).
    private mutating func refresh(_ tier: Int) {
        heldBytes[tier] = Self.held(&tiers[tier])
        if tier == 0 { ownCacheBytes = Self.cacheBytes(&tiers[0]) }
    }

    // In place: reading a tier out of the array would copy it.
    private static func held(_ tier: inout MemoryTier) -> Int64 { tier.heldBytes }
    private static func cacheBytes(_ tier: inout MemoryTier) -> Int64 { tier.cache.occupancy.bytes }
}
