/// A whole cache set-up under one name: seed 001's three `CachePolicy` presets and the
/// defaults of the three iOS image libraries (DESIGN.md §5), so a team can ask "how would
/// Kingfisher's defaults do on a low-end phone?". Applying a preset replaces the run's memory
/// and disk caches, the prefetcher's settings and the app's reactions to memory pressure.
public struct CachePreset: Sendable, Hashable {
    /// The memory cache's cost limit.
    public enum CostLimit: Sendable, Hashable {
        case bytes(Int64)
        /// A share of the device's RAM, with an optional cap (Nuke: 15 %, at most 768 MB).
        case ramShare(Double, cap: Int64?)
        /// No cost limit (SDWebImage's NSCache: only memory warnings empty it).
        case none
    }

    public var name: String
    /// Where the numbers come from (library and version, or the seed).
    public var source: String
    public var memoryPolicy: PolicySpec
    public var memoryCost: CostLimit
    public var memoryCount: Int?
    /// Entries costing this share of the cost limit or more are not kept (Nuke: 10 %).
    public var maxEntryShare: Double?
    /// The disk cache's size limit (`nil`: unlimited) and what it trims to when over it.
    public var diskBytes: Int64?
    public var diskTrimRatio: Double
    /// Disk entries expire this many seconds after their last access (`nil`: never).
    public var diskMaxAge: Int64?
    public var prefetchConcurrency: Int
    /// Whether prefetches queue behind visible cells (low) or with them (normal).
    public var prefetchLowPriority: Bool
    public var prefetchDestination: PrefetchDestination
    /// Whether a cell leaving the screen cancels its download (Kingfisher lets it finish).
    public var cancelsOnDisappear: Bool
    /// The memory cache kept when the app goes to the background (Nuke: 10 %; 0: purge).
    public var backgroundKeeps: Double

    static let megabyte: Int64 = 1_000_000

    /// Seed 001 `default`: 1 h, 50 MB, 100 items, LRU.
    public static let `default` = seed(name: "default", policy: PolicySpec(.lru, maxAge: 3_600), megabytes: 50, count: 100)
    /// Seed 001 `aggressive`: 24 h, 200 MB, 500 items, LRU.
    public static let aggressive = seed(name: "aggressive", policy: PolicySpec(.lru, maxAge: 86_400), megabytes: 200, count: 500)
    /// Seed 001 `conservative`: 5 min, 10 MB, 50 items, TTL.
    public static let conservative = seed(name: "conservative", policy: PolicySpec(.ttl, maxAge: 300), megabytes: 10, count: 50)

    /// Nuke 13.2: CLOCK, 15 % of RAM capped at 768 MB, entries ≥ 10 % of it not stored; disk
    /// 150 MB LRU trimmed to 70 %; prefetch 2 at a time, low priority, memory + disk; cancel on
    /// disappear; background trims the memory cache to 10 %.
    public static let nuke = CachePreset(
        name: "nuke", source: "Nuke 13.2", memoryPolicy: PolicySpec(.clock), memoryCost: .ramShare(0.15, cap: 768 * megabyte),
        memoryCount: nil, maxEntryShare: 0.10, diskBytes: 150 * megabyte, diskTrimRatio: 0.7, diskMaxAge: nil,
        prefetchConcurrency: 2, prefetchLowPriority: true, prefetchDestination: .memoryAndDisk, cancelsOnDisappear: true,
        backgroundKeeps: 0.10)

    /// Kingfisher 8.11: NSCache (modelled as LRU) of 25 % of RAM, entries expire 300 s after
    /// their last access; disk unlimited, 7 days since access, trimmed to 50 %; prefetch 5 at a
    /// time at normal priority, memory + disk; downloads continue when the cell disappears;
    /// background purges the memory cache.
    public static let kingfisher = CachePreset(
        name: "kingfisher", source: "Kingfisher 8.11", memoryPolicy: PolicySpec(.lru, maxAge: 300, refreshOnAccess: true),
        memoryCost: .ramShare(0.25, cap: nil), memoryCount: nil, maxEntryShare: nil, diskBytes: nil, diskTrimRatio: 0.5,
        diskMaxAge: 7 * 86_400, prefetchConcurrency: 5, prefetchLowPriority: false, prefetchDestination: .memoryAndDisk,
        cancelsOnDisappear: false, backgroundKeeps: 0)

    /// SDWebImage 5.21: NSCache with no cost limit (emptied by memory warnings), disk unlimited,
    /// 7 days, trimmed to 50 %; prefetch 3 at a time, low priority, memory + disk; cancel on
    /// disappear; background leaves the cache to NSCache (kept).
    public static let sdwebimage = CachePreset(
        name: "sdwebimage", source: "SDWebImage 5.21", memoryPolicy: PolicySpec(.lru), memoryCost: .none, memoryCount: nil,
        maxEntryShare: nil, diskBytes: nil, diskTrimRatio: 0.5, diskMaxAge: 7 * 86_400, prefetchConcurrency: 3,
        prefetchLowPriority: true, prefetchDestination: .memoryAndDisk, cancelsOnDisappear: true, backgroundKeeps: 1)

    public static let all: [CachePreset] = [.default, .aggressive, .conservative, .nuke, .kingfisher, .sdwebimage]

    static func seed(name: String, policy: PolicySpec, megabytes: Int64, count: Int) -> CachePreset {
        CachePreset(name: name, source: "seed 001", memoryPolicy: policy, memoryCost: .bytes(megabytes * megabyte),
                    memoryCount: count, maxEntryShare: nil, diskBytes: 150 * megabyte, diskTrimRatio: 1, diskMaxAge: nil,
                    prefetchConcurrency: 2, prefetchLowPriority: true, prefetchDestination: .memoryAndDisk,
                    cancelsOnDisappear: true, backgroundKeeps: 0)
    }

    /// A preset by name; `source` names the option.
    public static func named(_ name: String, source: String = "--preset") throws -> CachePreset {
        if let preset = all.first(where: { $0.name == name }) { return preset }
        throw InputError(source: source, "unknown preset \(InputError.quote(name)); expected one of \(all.map(\.name).joined(separator: ", "))")
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

    /// The `policy` column of runs using this preset: `nuke(clock)`.
    public var label: String { "\(name)(\(memoryPolicy))" }

    /// The pipeline this preset sets up on `profile`.
    public func pipeline(on profile: DeviceProfile) -> PipelineConfiguration {
        var configuration = PipelineConfiguration(
            memoryPolicy: memoryPolicy, memoryLimits: memoryLimits(on: profile),
            diskPolicy: PolicySpec(.lru, maxAge: diskMaxAge, refreshOnAccess: diskMaxAge != nil),
            diskLimits: diskBytes.map { .bytes($0) } ?? .unbounded,
            prefetchConcurrency: prefetchConcurrency, prefetchDestination: prefetchDestination)
        configuration.label = label
        configuration.maxEntryShare = maxEntryShare
        configuration.diskTrimRatio = diskTrimRatio
        configuration.prefetchLowPriority = prefetchLowPriority
        configuration.cancelsOnDisappear = cancelsOnDisappear
        configuration.backgroundKeeps = backgroundKeeps
        return configuration
    }
}
