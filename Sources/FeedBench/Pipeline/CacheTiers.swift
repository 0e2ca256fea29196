/// The pipeline's two cache tiers: decoded images in the memory cache, downloaded data in the
/// disk cache. It sizes their entries (a decoded bitmap, the encoded bytes), decides what the
/// memory cache keeps (too large an entry is refused; the background trim; the periodic sweep
/// of expired entries) and how long a disk read takes. Lookups and inserts cost what the
/// caches' policies cost.
struct CacheTiers {
    /// Decoded images, sized by their bitmap bytes: the run's memory cache and its followers.
    var memory: MemoryCaches
    /// Downloaded data, sized by its encoded bytes.
    var disk: any EvictionPolicy
    /// The bitmap bytes of an image decoded to the cell's size; `nil`: decoded at full size.
    let downsampledBytes: Int64?
    /// Expired memory entries are swept every this many nanoseconds; `nil`: never.
    let sweepInterval: Int64?
    let diskReadLatency: Int64
    let diskReadBytesPerSecond: Int64

    /// Policy ages are in seconds; the simulator's clock counts nanoseconds.
    static let ageScale: Int64 = 1_000_000_000

    /// The tiers `configuration` sets up on `profile`, the memory cache followed by one for each
    /// of `followers` (`MemoryCaches`).
    init(configuration: PipelineConfiguration, profile: DeviceProfile, followers: [PipelineConfiguration] = []) throws {
        memory = try MemoryCaches(configuration: configuration, followers: followers, ageScale: Self.ageScale)
        disk = try configuration.diskPolicy.makePolicy(limits: configuration.diskLimits, ageScale: Self.ageScale, source: "--disk-policy")
        let side = Int64(profile.cellPixels)
        downsampledBytes = configuration.downsample ? side * side * 4 : nil
        sweepInterval = configuration.memorySweepInterval
        diskReadLatency = profile.diskReadLatency
        diskReadBytesPerSecond = profile.diskReadBytesPerSecond
    }

    /// `url` is drawn now: whether it was put in the memory cache undecoded since its last draw.
    /// O(followers).
    mutating func drawn(_ url: UInt64) -> Bool { memory.drawn(url) }

    /// The bitmap bytes an image costs once decoded (docs/model.md#the-image-pipeline): its
    /// own pixels × 4, or the cell's when it is downsampled to a larger cell — a downsampler
    /// does not enlarge (ImageIO's thumbnail, Nuke's `Resize(upscale: false)`). O(1).
    func decodedBytes(_ image: ImageDescriptor) -> Int64 {
        let own = Int64(image.pixelWidth) * Int64(image.pixelHeight) * 4
        guard let downsampledBytes else { return own }
        return min(downsampledBytes, own)
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
        memory.store(CacheRequest(key: image.url, size: decodedBytes(image), time: now))
    }

    /// Writes downloaded data to the disk cache unless it is there already.
    mutating func storeOnDisk(_ image: ImageDescriptor, at now: Int64) {
        if disk.contains(image.url) { return }
        disk.insert(CacheRequest(key: image.url, size: image.encodedBytes, time: now))
    }

    /// Trims the memory cache as the app goes to the background. O(evicted).
    mutating func enterBackground() { memory.enterBackground() }

    /// The periodic sweep: removes the memory entries expired at `now`. O(slots).
    mutating func sweep(at now: Int64) { memory.sweep(at: now) }
}
