/// The pipeline's two cache tiers: decoded images in the memory cache, downloaded data in the
/// disk cache. It sizes their entries (a decoded bitmap, the encoded bytes), decides what the
/// memory cache keeps (too large an entry is refused; the background trim; the periodic sweep
/// of expired entries) and how long a disk read takes. Lookups and inserts cost what the
/// caches' policies cost.
struct CacheTiers {
    /// Decoded images, sized by their bitmap bytes.
    var memory: any EvictionPolicy
    /// Downloaded data, sized by its encoded bytes.
    var disk: any EvictionPolicy
    /// The bitmap bytes of an image decoded to the cell's size; `nil`: decoded at full size.
    let downsampledBytes: Int64?
    /// Images costing this many bitmap bytes or more are not kept in memory; `nil`: any is.
    let largestEntryBytes: Double?
    /// What the memory cache keeps when the app is backgrounded; `nil`: nothing.
    let backgroundKeepsBytes: Int64?
    /// Expired memory entries are swept every this many nanoseconds; `nil`: never.
    let sweepInterval: Int64?
    let diskReadLatency: Int64
    let diskReadBytesPerSecond: Int64
    /// Images put in the memory cache undecoded and not drawn since (only when the main thread
    /// decodes them at their first draw).
    private var undrawn: Set<UInt64> = []
    private let tracksDraws: Bool
    /// Whether an image was ever refused for its size: by `largestEntryBytes` (a share of the
    /// limit) or by the policy (larger than the limit, or not admitted).
    private var refusedForSize = false

    /// Policy ages are in seconds; the simulator's clock counts nanoseconds.
    static let ageScale: Int64 = 1_000_000_000

    init(configuration: PipelineConfiguration, profile: DeviceProfile) throws {
        memory = try configuration.memoryPolicy.makePolicy(limits: configuration.memoryLimits, ageScale: Self.ageScale, source: "--policy")
        disk = try configuration.diskPolicy.makePolicy(limits: configuration.diskLimits, ageScale: Self.ageScale, source: "--disk-policy")
        let side = Int64(profile.cellPixels)
        downsampledBytes = configuration.downsample ? side * side * 4 : nil
        let memoryLimit = configuration.memoryLimits.maxBytes
        if let share = configuration.maxEntryShare, let memoryLimit {
            largestEntryBytes = share * Double(memoryLimit)
        } else {
            largestEntryBytes = nil
        }
        switch configuration.background {
        case .purge:
            backgroundKeepsBytes = nil
        case let .toShareOfLimit(share):
            backgroundKeepsBytes = memoryLimit.map { Int64(Double($0) * share) }
        }
        sweepInterval = configuration.memorySweepInterval
        diskReadLatency = profile.diskReadLatency
        diskReadBytesPerSecond = profile.diskReadBytesPerSecond
        tracksDraws = configuration.decodesOnMainThread
    }

    /// `url` is drawn now: whether it was put in the memory cache undecoded since its last draw.
    /// O(1).
    mutating func drawn(_ url: UInt64) -> Bool { undrawn.remove(url) != nil }

    /// The bitmap bytes an image costs once decoded (docs/model.md#the-image-pipeline). O(1).
    func decodedBytes(_ image: ImageDescriptor) -> Int64 {
        if let downsampledBytes { return downsampledBytes }
        return Int64(image.pixelWidth) * Int64(image.pixelHeight) * 4
    }

    /// How long reading `image`'s data from disk takes, in nanoseconds.
    func diskReadTime(of image: ImageDescriptor) -> Int64 {
        diskReadLatency + image.encodedBytes * 1_000_000_000 / diskReadBytesPerSecond
    }

    /// Looks `image` up in the memory cache at `now` (a hit updates the policy's state).
    mutating func lookUpInMemory(_ image: ImageDescriptor, at now: Int64) -> Bool {
        memory.lookup(CacheRequest(key: image.url, size: decodedBytes(image), time: now))
    }

    /// Looks `image` up in the disk cache at `now` (a hit updates the policy's state).
    mutating func lookUpOnDisk(_ image: ImageDescriptor, at now: Int64) -> Bool {
        disk.lookup(CacheRequest(key: image.url, size: image.encodedBytes, time: now))
    }

    /// Puts a decoded image in the memory cache unless it is there already or too large an
    /// entry for it.
    mutating func storeInMemory(_ image: ImageDescriptor, at now: Int64) {
        let bytes = decodedBytes(image)
        if let largestEntryBytes, Double(bytes) >= largestEntryBytes {
            refusedForSize = true
            return
        }
        if memory.contains(image.url) { return }
        if !memory.insert(CacheRequest(key: image.url, size: bytes, time: now)) { refusedForSize = true }
        if tracksDraws { undrawn.insert(image.url) }
    }

    /// What the memory cache's limit and lifetime decided so far (`RunSharing` reads it). O(1).
    var memoryUse: MemoryCacheUse {
        MemoryCacheUse(limitActed: refusedForSize || memory.occupancy.evictions > 0, expired: memory.occupancy.expirations > 0)
    }

    /// Writes downloaded data to the disk cache unless it is there already.
    mutating func storeOnDisk(_ image: ImageDescriptor, at now: Int64) {
        if disk.contains(image.url) { return }
        disk.insert(CacheRequest(key: image.url, size: image.encodedBytes, time: now))
    }

    /// Trims the memory cache as the app goes to the background. O(evicted).
    mutating func enterBackground() {
        if let backgroundKeepsBytes {
            memory.trim(toBytes: backgroundKeepsBytes)
        } else {
            memory.trim(toFraction: 0)
        }
    }

    /// The periodic sweep: removes the memory entries expired at `now`. O(slots).
    mutating func sweep(at now: Int64) {
        memory.removeExpired(at: now)
    }
}
