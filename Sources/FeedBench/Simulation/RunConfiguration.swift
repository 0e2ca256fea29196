/// What the user scrolls in a run: a built-in behaviour generated from the run's seed, or a
/// recorded trace from their own app.
public enum ScrollWorkload: Sendable {
    case behavior(ScrollBehavior, duration: Int64)
    case recorded(ScrollTrace)

    /// The `trace` column: the behaviour's name or the recorded file's name.
    public var name: String {
        switch self {
        case let .behavior(behavior, _): behavior.rawValue
        case let .recorded(trace): trace.name
        }
    }

    /// The per-frame offsets for a launch of `profile`.
    func trace(profile: DeviceProfile, seed: UInt64) -> ScrollTrace {
        switch self {
        case let .behavior(behavior, duration):
            GeneratedTraceCache.trace(.init(behavior: behavior, seed: seed, duration: duration, refreshRate: profile.refreshRate,
                                            rowHeight: profile.cellSide, viewportHeight: profile.screenHeight)) {
                behavior.trace(seed: seed, duration: duration, refreshRate: profile.refreshRate,
                               rowHeight: profile.cellSide, viewportHeight: profile.screenHeight)
            }
        case let .recorded(trace):
            trace
        }
    }
}

/// One run (docs/model.md#a-run): a device profile × a cache configuration × a prefetch window × a
/// scroll workload × a seed, over one or more app launches.
public struct RunConfiguration: Sendable {
    public var profile: DeviceProfile
    public var network: NetworkProfile
    public var pipeline: PipelineConfiguration
    public var window: WindowMode
    public var workload: ScrollWorkload
    /// How each launch fills the feed.
    public var strategy: LaunchStrategy = .cacheFirst
    /// When the network is down.
    public var offline = OfflineSchedule()
    /// Seed 000's prefetch buffer: how many images wait preloaded between the supply (store and
    /// API) and the display list; 0 turns the flow off (images go straight to the list).
    public var bufferLimit = 0
    public var seed: UInt64
    /// App launches in the run; the feed store and the disk cache persist between them.
    public var launches: Int
    /// Simulated time between one launch's end and the next launch.
    public var gap: Int64
    public var api: FeedAPIConfiguration
    public var rules: FeedRules
    /// What the run keeps besides its results row; not identity.
    public var recording = Recording()

    /// What a run keeps besides its results row.
    public struct Recording: Sendable {
        /// A per-second timeline (`bench run --timeline`).
        public var timeline = false
        /// The requests it sends, as `bench serve` logs them (`bench run --requests`).
        public var requests = false
        /// Every display: when its cell came on screen and showed its image (`bench run --displays`).
        public var displays = false

        public init() {}
    }

    /// The workload's tag (`workload=` and its id's first 8 hex digits) when the network, API
    /// and images come from a `bench calibrate` fit (`--workload`); `nil` for the built-in ones.
    public var workloadTag: String?

    /// The width the feed asks its images at, in pixels (`nil`: the original): the API
    /// catalogue's `requestedWidth`, which the run's images are described at.
    public var imageWidth: Int? {
        get { api.catalog.requestedWidth }
        set { api.catalog.requestedWidth = newValue }
    }

    /// The `scenario` column: the strategy, then `;offline=…`, `;decode=full` (images decoded at
    /// full size rather than to the cell), `;release-viewed`, `;buffer=N`, `;width=N` (images
    /// asked for N pixels wide) and `;workload=…` when set.
    public var scenario: String {
        var text = strategy.description
        if !offline.intervals.isEmpty || !offline.launches.isEmpty {
            let spans = offline.intervals.map { "\(FixedPoint.decimal(Double($0.lowerBound) / 1e9, decimals: 3).trimmingZeroDecimals())s-\(FixedPoint.decimal(Double($0.upperBound) / 1e9, decimals: 3).trimmingZeroDecimals())s" }
                + offline.launches.sorted().map { "launch:\($0)" }
            text += ";offline=" + spans.joined(separator: "+")
        }
        if !pipeline.downsample { text += ";decode=full" }
        if pipeline.releaseViewed { text += ";release-viewed" }
        if bufferLimit > 0 { text += ";buffer=\(bufferLimit)" }
        text += ImageWidth.scenarioTag(imageWidth)
        if let workloadTag { text += ";" + workloadTag }
        return text
    }

    /// The results row this run starts from: its identity columns filled, every figure zero.
    public var emptyResult: RunResult {
        var result = RunResult(
            profile: profile.name, network: network.name,
            policy: pipeline.label ?? pipeline.memoryPolicy.description,
            memoryLimitBytes: pipeline.memoryLimits.maxBytes ?? 0, diskLimitBytes: pipeline.diskLimits.maxBytes ?? 0,
            prefetchWindow: window.description, trace: workload.name, seed: seed, launches: launches)
        result.http = network.http.rawValue
        result.scenario = scenario
        return result
    }

    /// The default session length of a built-in behaviour: two minutes of scrolling.
    public static let defaultDuration: Int64 = 120_000_000_000
    /// A launch that follows its predecessor within this gap is a warm resume from the
    /// background (the memory cache keeps its background share); later launches are cold.
    public static let resumeWithin: Int64 = 10 * 60_000_000_000
    /// The default gap between launches: eight hours.
    public static let defaultGap: Int64 = 8 * 3_600_000_000_000

    public init(profile: DeviceProfile, network: NetworkProfile, pipeline: PipelineConfiguration,
                window: WindowMode, workload: ScrollWorkload, seed: UInt64, launches: Int = 1,
                gap: Int64 = RunConfiguration.defaultGap, api: FeedAPIConfiguration = FeedAPIConfiguration(),
                rules: FeedRules = FeedRules()) {
        self.profile = profile
        self.network = network
        self.pipeline = pipeline
        self.window = window
        self.workload = workload
        self.seed = seed
        self.launches = launches
        self.gap = gap
        self.api = api
        self.rules = rules
    }

    /// The run a profile's defaults give for `policy`, `window`, `workload` and `seed`.
    public static func standard(profile: DeviceProfile, policy: PolicySpec, window: WindowMode,
                                workload: ScrollWorkload, seed: UInt64, network: NetworkProfile? = nil) throws -> RunConfiguration {
        if let refusal = liveRunRefusal(policy) { throw InputError(source: "--policy", refusal) }
        return RunConfiguration(profile: profile, network: try network ?? NetworkProfile.named(profile.defaultNetwork),
                                pipeline: pipeline(for: .policy(policy), on: profile), window: window, workload: workload, seed: seed)
    }

    /// Why a live run cannot use `policy`, if it cannot: Belady needs the future.
    static func liveRunRefusal(_ policy: PolicySpec) -> String? {
        guard policy.name.needsFuture else { return nil }
        return "\(policy.name.rawValue) needs every future request, which a live scroll session does not have; use it with bench cachesim"
    }

    /// The pipeline `cache` sets up on `profile`: a policy on the profile's memory- and
    /// disk-cache limits, or a whole preset.
    public static func pipeline(for cache: CacheSetup, on profile: DeviceProfile) -> PipelineConfiguration {
        switch cache {
        case let .policy(policy):
            PipelineConfiguration(memoryPolicy: policy, memoryLimits: .bytes(profile.memoryCacheBytes),
                                  diskLimits: .bytes(profile.diskCacheBytes))
        case let .preset(preset):
            preset.pipeline(on: profile)
        }
    }
}

extension RunConfiguration {
    /// The run's feed-store file in a `--store` folder, named after its identity columns: those
    /// values with every byte outside `A-Z a-z 0-9 . _ + = -` replaced by `_`, joined by `_`
    /// and cut to 120 bytes, then a 64-bit FNV-1a hash of the exact values (so two identities
    /// that read alike never share a file): `low-end_lte_2_lru_471859200_…_cacheFirst-1f0c….sqlite`.
    public var storeFileName: String {
        let identity = emptyResult.identity
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._+=-".utf8)
        let readable = identity.joined(separator: "_").utf8.prefix(120).map { allowed.contains($0) ? $0 : UInt8(ascii: "_") }
        var hash = FNV1a()
        hash.add(bytes: identity.joined(separator: "\u{1F}").utf8)
        return String(decoding: readable, as: UTF8.self) + "-" + hash.hex + ".sqlite"
    }
}
