/// A whole cache set-up under one name: seed 001's three `CachePolicy` presets and the
/// defaults of the three iOS image libraries, row by row from docs/facts.md#what-each-library-does
/// (each library's own source), so a team can ask "how would Kingfisher's defaults do on a
/// low-end phone?".
/// Applying a preset replaces the run's memory and disk caches, how images are decoded, how
/// downloads are queued, the prefetcher and the app's reactions to memory pressure and to the
/// background.
public struct CachePreset: Sendable, Hashable {
    /// The memory cache's cost limit.
    public enum CostLimit: Sendable, Hashable {
        case bytes(Int64)
        /// A share of the device's RAM, with an optional cap (Nuke: 15 %, at most 768 MiB).
        case ramShare(Double, cap: Int64?)
        /// No cost limit (SDWebImage's NSCache: only memory warnings empty it).
        case none
    }

    public var name: String
    /// Where the behaviour comes from (library and version, or the seed).
    public var source: String
    public var memoryPolicy: PolicySpec
    public var memoryCost: CostLimit
    public var memoryCount: Int?
    /// Entries costing this share of the cost limit or more are not kept (Nuke: 10 %).
    public var maxEntryShare: Double?
    /// Expired memory entries are swept every this many seconds (Kingfisher: 120).
    public var memorySweepSeconds: Int64?
    /// The disk cache's size limit (`nil`: unlimited); over it, entries are evicted one by one.
    public var diskBytes: Int64?
    /// Disk entries expire this many seconds after their last access (`nil`: never).
    public var diskMaxAge: Int64?
    /// Whether images are decoded at their full size (the libraries' default) or to the cell.
    public var decodesFullSize: Bool
    /// Images decoded at once; `nil`: no shared limit.
    public var decodeConcurrency: Int?
    /// Whether a full-size image is left for Core Animation to decode on the main thread at its
    /// first draw (Kingfisher unless `backgroundDecode`; `kingfisher:background-decode` sets it).
    public var decodesAtFirstDraw = false
    /// Whether a cell's disk hit is read on the main thread and shown at once (`:sync-disk`:
    /// Kingfisher's `loadDiskFileSynchronously`, on in SwiftUI's `KFImage`).
    public var readsDiskOnMainThread = false
    public var downloadRateLimit: DownloadRateLimit?
    public var raisesPriorityOnJoin = true
    /// Whether a download's `URLSessionTask` gets the library's priority (its HTTP/2 stream's
    /// urgency) or URLSession's default (Nuke never sets it).
    public var setsTaskPriority = true
    public var prefetch = PrefetchSettings()
    /// Whether a cell leaving the screen cancels its download (Kingfisher lets it finish).
    public var cancelsOnDisappear = true
    public var background = BackgroundTrim.purge
    /// What the library does that FeedBench does not model (`bench presets` lists it).
    public var notModelled: [String] = []
    /// The parameters given after the name (`nuke:downsample`), in the order given.
    public var parameters: [String] = []

    public init(name: String, source: String, memoryPolicy: PolicySpec, memoryCost: CostLimit, decodesFullSize: Bool) {
        self.name = name
        self.source = source
        self.memoryPolicy = memoryPolicy
        self.memoryCost = memoryCost
        self.decodesFullSize = decodesFullSize
    }

    static let megabyte: Int64 = 1_000_000
    static let mebibyte: Int64 = 1 << 20

    /// Seed 001 `default`: 1 h, 50 MB, 100 items, LRU.
    public static let `default` = seed(name: "default", policy: PolicySpec(.lru, maxAge: 3_600), megabytes: 50, count: 100)
    /// Seed 001 `aggressive`: 24 h, 200 MB, 500 items, LRU.
    public static let aggressive = seed(name: "aggressive", policy: PolicySpec(.lru, maxAge: 86_400), megabytes: 200, count: 500)
    /// Seed 001 `conservative`: 5 min, 10 MB, 50 items, TTL.
    public static let conservative = seed(name: "conservative", policy: PolicySpec(.ttl, maxAge: 300), megabytes: 10, count: 50)

    /// Nuke 13.2's default `ImagePipeline` (docs/facts.md#what-each-library-does).
    public static let nuke: CachePreset = {
        var nuke = CachePreset(name: "nuke", source: "Nuke 13.2", memoryPolicy: PolicySpec(.clock),
                               memoryCost: .ramShare(0.15, cap: 805_306_368), decodesFullSize: true)
        nuke.maxEntryShare = 0.10
        nuke.diskBytes = 150 * mebibyte // URLCache, the default pipeline's disk cache
        nuke.decodeConcurrency = 1
        nuke.downloadRateLimit = .nuke
        nuke.setsTaskPriority = false // DataLoader creates its tasks without a priority
        nuke.background = .toShareOfLimit(0.10)
        nuke.notModelled = [
            "URLCache's eviction order, which Apple does not specify (modelled as LRU)",
            "HTTP cache validation: every disk hit is served as fresh",
            "DataCache, the opt-in disk cache (LRU, trim to 70 %, sweep every 1,800 s)",
        ]
        return nuke
    }()

    /// Nuke's `main` since kean/Nuke PR #963 (merged 2026-09-07, in no release yet): 13.2's
    /// pipeline without the rate limiter, which the PR removed (`isRateLimiterEnabled` stays as a
    /// deprecated no-op); the data-loading queue and the prefetcher's limit of 2 are unchanged.
    public static let nukeMain: CachePreset = {
        var preset = nuke
        preset.name = "nuke@main"
        preset.source = "Nuke main after PR #963 (2026-09-07)"
        preset.downloadRateLimit = nil
        return preset
    }()

    /// Kingfisher 8.11's defaults with its documented collection-view prefetching
    /// (docs/facts.md#what-each-library-does).
    public static let kingfisher: CachePreset = {
        var kingfisher = CachePreset(name: "kingfisher", source: "Kingfisher 8.11",
                                     memoryPolicy: PolicySpec(.lru, maxAge: 300, refreshOnAccess: true),
                                     memoryCost: .ramShare(0.25, cap: nil), decodesFullSize: true)
        kingfisher.memorySweepSeconds = 120
        kingfisher.diskMaxAge = 7 * 86_400
        kingfisher.decodeConcurrency = 1
        kingfisher.decodesAtFirstDraw = true // `backgroundDecode` is off by default
        kingfisher.raisesPriorityOnJoin = false
        kingfisher.prefetch.concurrency = 5
        kingfisher.prefetch.perBatch = true
        kingfisher.prefetch.lowPriority = false
        kingfisher.prefetch.loadsDiskHits = false
        kingfisher.cancelsOnDisappear = false
        kingfisher.notModelled = [
            "NSCache's eviction order, which Apple does not specify (modelled as LRU)",
            "loadDiskFileSynchronously (off in UIKit, on in SwiftUI's KFImage): disk reads stay off the main thread",
            "the disk cache's clean-up when the app goes to the background (7 days never pass in a run)",
        ]
        return kingfisher
    }()

    /// SDWebImage 5.21's defaults (docs/facts.md#what-each-library-does).
    public static let sdwebimage: CachePreset = {
        var sdwebimage = CachePreset(name: "sdwebimage", source: "SDWebImage 5.21", memoryPolicy: PolicySpec(.lru),
                                     memoryCost: .none, decodesFullSize: true)
        sdwebimage.diskMaxAge = 7 * 86_400
        sdwebimage.raisesPriorityOnJoin = false
        sdwebimage.prefetch.concurrency = 3
        sdwebimage.notModelled = [
            "NSCache's eviction order, which Apple does not specify (modelled as LRU)",
            "SDMemoryCache's weak map table, which can keep images that views still show",
            "each download's own coder queue (modelled as no shared decode limit)",
        ]
        return sdwebimage
    }()

    public static let all: [CachePreset] = [.default, .aggressive, .conservative, .nuke, .nukeMain, .kingfisher, .sdwebimage]

    static func seed(name: String, policy: PolicySpec, megabytes: Int64, count: Int) -> CachePreset {
        var preset = CachePreset(name: name, source: "seed 001", memoryPolicy: policy, memoryCost: .bytes(megabytes * megabyte),
                                 decodesFullSize: false)
        preset.memoryCount = count
        preset.diskBytes = 150 * megabyte
        return preset
    }

    /// The parameters a preset takes after its name, as `bench presets` lists them.
    public static let parameterHelp = [
        ("downsample", "decode to the cell's pixel size (Nuke's resize processor, Kingfisher's DownsamplingImageProcessor, SDWebImage's thumbnail size)"),
        ("full-size", "decode at the image's full size (the libraries' default)"),
        ("background-decode", "decode off the main thread (Kingfisher's backgroundDecode option; the other libraries always do)"),
        ("sync-disk", "read a cell's disk hit on the main thread and show it at once (Kingfisher's loadDiskFileSynchronously, on in SwiftUI's KFImage)"),
        ("prefetch=1…32", "prefetches a prefetcher runs at once"),
        ("disk=SIZE", "the disk cache's size limit, with a unit (disk=50MiB; Nuke's URLCache diskCapacity, Kingfisher's diskStorage sizeLimit, SDWebImage's maxDiskSize)"),
    ]

    /// A preset by name, with parameters after colons (`nuke:downsample`, `kingfisher:prefetch=8`);
    /// `source` names the option in errors.
    public static func named(_ spec: String, source: String = "--preset") throws -> CachePreset {
        let parts = spec.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard var preset = all.first(where: { $0.name == parts[0] }) else {
            throw InputError(source: source, "unknown preset \(InputError.quote(parts[0])); expected one of \(all.map(\.name).joined(separator: ", "))")
        }
        for parameter in parts.dropFirst() {
            let expected = "expected downsample, full-size, background-decode, sync-disk, prefetch=1…32 or disk=SIZE"
            switch parameter {
            case "downsample": preset.decodesFullSize = false
            case "full-size": preset.decodesFullSize = true
            case "background-decode": preset.decodesAtFirstDraw = false
            case "sync-disk": preset.readsDiskOnMainThread = true
            case _ where parameter.hasPrefix("prefetch="):
                guard let count = Int(parameter.dropFirst("prefetch=".count)), (1...32).contains(count) else {
                    throw InputError(source: source, "preset \(preset.name): \(InputError.quote(parameter)) is out of range; expected prefetch=1…32")
                }
                preset.prefetch.concurrency = count
            case _ where parameter.hasPrefix("disk="):
                do {
                    preset.diskBytes = try Quantities.byteSize(String(parameter.dropFirst("disk=".count)), source: source)
                } catch let refusal as InputError {
                    throw InputError(source: source, "preset \(preset.name): disk: \(refusal.message)")
                }
            default:
                throw InputError(source: source, "preset \(preset.name) has no parameter \(InputError.quote(parameter)); \(expected)")
            }
            preset.parameters.append(parameter)
        }
        return preset
    }

    /// The memory cache's limits on `profile`.
    public func memoryLimits(on profile: DeviceProfile) -> CacheLimits {
        switch memoryCost {
        case let .bytes(bytes): CacheLimits(maxCount: memoryCount, maxBytes: bytes)
        case let .ramShare(share, cap):
            CacheLimits(maxCount: memoryCount, maxBytes: min(Int64(Double(profile.ramBytes) * share), cap ?? .max))
        case .none: CacheLimits(maxCount: memoryCount, maxBytes: nil)
        }
    }

    /// The `policy` column of runs using this preset: `nuke(clock)`, `nuke:downsample(clock)`.
    public var label: String { ([name] + parameters).joined(separator: ":") + "(\(memoryPolicy))" }

    /// The pipeline this preset sets up on `profile`.
    public func pipeline(on profile: DeviceProfile) -> PipelineConfiguration {
        var configuration = PipelineConfiguration(
            memoryPolicy: memoryPolicy, memoryLimits: memoryLimits(on: profile),
            diskPolicy: PolicySpec(.lru, maxAge: diskMaxAge, refreshOnAccess: diskMaxAge != nil),
            diskLimits: diskBytes.map { .bytes($0) } ?? .unbounded, downsample: !decodesFullSize,
            prefetch: prefetch)
        configuration.label = label
        configuration.maxEntryShare = maxEntryShare
        configuration.memorySweepInterval = memorySweepSeconds.map { $0 * 1_000_000_000 }
        configuration.decodeConcurrency = decodeConcurrency
        configuration.decodesAtFirstDraw = decodesAtFirstDraw
        configuration.readsDiskOnMainThread = readsDiskOnMainThread
        configuration.downloadRateLimit = downloadRateLimit
        configuration.raisesPriorityOnJoin = raisesPriorityOnJoin
        configuration.setsTaskPriority = setsTaskPriority
        configuration.cancelsOnDisappear = cancelsOnDisappear
        configuration.background = background
        return configuration
    }
}
