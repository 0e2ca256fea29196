/// Where a prefetched image goes: the disk cache only, or decoded into the memory cache too.
public enum PrefetchDestination: String, Sendable, CaseIterable {
    case disk
    case memoryAndDisk = "memory+disk"
}

/// How the pipeline's prefetcher works: the libraries differ in each of these
/// (`CachePreset` sets them from their sources).
public struct PrefetchSettings: Sendable, Hashable {
    /// Prefetches a prefetcher runs at once; the rest of its batch waits in the prefetcher.
    public var concurrency = 2
    /// Whether each batch of items entering the window gets a prefetcher of its own, never
    /// stopped (Kingfisher's documented `ImagePrefetcher` usage), or one prefetcher serves every
    /// batch and stops items that leave the window (Nuke, SDWebImage).
    public var perBatch = false
    /// Whether prefetches queue behind displays (`true`) or with them, first come first served
    /// (Kingfisher's default priority).
    public var lowPriority = true
    public var destination = PrefetchDestination.memoryAndDisk
    /// Whether a prefetched image found on disk is read and decoded into memory (Nuke,
    /// SDWebImage) or left there (Kingfisher's `alsoPrefetchToMemory` false).
    public var loadsDiskHits = true

    public init() {}
}

/// What the memory cache keeps when the app goes to the background (docs/model.md#memory-warnings-and-the-os, docs/facts.md#what-each-library-does).
public enum BackgroundTrim: Sendable, Hashable {
    /// Everything goes (NSCache empties itself; seed 001's presets and plain policies).
    case purge
    /// Evicts in policy order down to this share of the cost limit (Nuke: 0.1); a cache with
    /// no cost limit is purged.
    case toShareOfLimit(Double)
}

/// A token bucket in front of the download queue (Nuke's `RateLimiter`, on by default):
/// `burst` downloads may start at once, then `rate` a second.
public struct DownloadRateLimit: Sendable, Hashable {
    public var rate: Int
    public var burst: Int

    public init(rate: Int, burst: Int) {
        precondition(rate > 0 && burst > 0, "DownloadRateLimit: rate and burst must be positive")
        self.rate = rate
        self.burst = burst
    }

    /// Nuke 13.2's default: 80 requests a second, bursts of 25.
    public static let nuke = DownloadRateLimit(rate: 80, burst: 25)
}

/// How the image pipeline is set up for a run (docs/model.md#the-image-pipeline, docs/model.md#prefetching). Plain policies use the
/// defaults below; a library preset (`CachePreset`) sets every field from its library's source.
public struct PipelineConfiguration: Sendable {
    public var memoryPolicy: PolicySpec
    public var memoryLimits: CacheLimits
    public var diskPolicy: PolicySpec
    public var diskLimits: CacheLimits
    /// Decode to the cell's pixel size (`true`, the default for plain policies) or to the
    /// image's full size (what Nuke, Kingfisher and SDWebImage do unless asked to resize).
    public var downsample: Bool
    /// Images decoded at once (Nuke: 1); `nil`: each image as soon as its data is there.
    public var decodeConcurrency: Int?
    /// Whether a full-size image is left undecoded for Core Animation to decode on the main
    /// thread at its first draw (Kingfisher without `backgroundDecode`) rather than decoded on
    /// the library's queue (Nuke, SDWebImage, plain policies). A downsampled image is decoded
    /// while it is made, off the main thread, either way.
    public var decodesAtFirstDraw = false
    /// Whether a cell's disk hit is read on the calling (main) thread and shown at once rather
    /// than read on the library's queue (Kingfisher's `loadDiskFileSynchronously`, off by
    /// default in UIKit and on in SwiftUI's `KFImage`). A full-size image read so is still left
    /// undecoded when `decodesAtFirstDraw`.
    public var readsDiskOnMainThread = false
    /// Whether images are decoded on the main thread: `decodesAtFirstDraw` at full size.
    var decodesOnMainThread: Bool { decodesAtFirstDraw && !downsample }
    /// Nuke's token bucket in front of the download queue; `nil`: none.
    public var downloadRateLimit: DownloadRateLimit?
    /// Whether a display joining a queued low-priority prefetch raises it to high priority
    /// (Nuke) or leaves it where it is (Kingfisher, SDWebImage: the joiner only adds a callback).
    public var raisesPriorityOnJoin = true
    /// Whether a download's `URLSessionTask` is given the pipeline's priority when it starts
    /// (SDWebImage: `NSURLSessionTaskPriorityLow` for its prefetcher's, the default for a
    /// cell's), which URLSession passes to the host and HTTP/2 makes its stream's urgency; or
    /// keeps URLSession's default, 0.5 (Nuke: its `DataLoader` never sets it, so its priorities
    /// order only its own queues and every stream has the same urgency). A started task's
    /// priority is never changed: none of the three libraries does (Kingfisher only with
    /// SwiftUI's `reducePriorityOnDisappear`, off by default).
    public var setsTaskPriority = true
    /// How the prefetcher works.
    public var prefetch: PrefetchSettings
    /// Whether a cell leaving the screen cancels its download when nobody else holds it
    /// (Nuke, SDWebImage) or lets it finish into the caches (Kingfisher).
    public var cancelsOnDisappear = true
    /// Images costing this share of the memory cost limit or more are not kept (Nuke: 0.1).
    public var maxEntryShare: Double?
    /// What the memory cache keeps when the app is backgrounded.
    public var background = BackgroundTrim.purge
    /// Expired memory entries are also removed every this many nanoseconds, looked up or not
    /// (Kingfisher: 120 s); `nil`: only when looked up.
    public var memorySweepInterval: Int64?
    /// Seed 000's release-after-view: drop an image from the memory cache when its cell
    /// scrolls off.
    public var releaseViewed = false
    /// The `policy` column; the memory policy's spec unless a preset names it.
    public var label: String?

    /// Whether a memory warning clears the memory cache (every library does; seed 002's
    /// dictionary cache has no observer).
    public var respondsToMemoryWarnings: Bool { memoryPolicy.name != .unbounded }

    public init(memoryPolicy: PolicySpec, memoryLimits: CacheLimits, diskPolicy: PolicySpec = PolicySpec(.lru),
                diskLimits: CacheLimits, downsample: Bool = true, prefetch: PrefetchSettings = PrefetchSettings()) {
        self.memoryPolicy = memoryPolicy
        self.memoryLimits = memoryLimits
        self.diskPolicy = diskPolicy
        self.diskLimits = diskLimits
        self.downsample = downsample
        self.prefetch = prefetch
    }
}
