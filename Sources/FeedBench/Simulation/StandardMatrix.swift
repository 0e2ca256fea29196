/// One value of a matrix's cache axis: a memory-cache policy on the profile's defaults, or a
/// whole library preset.
public enum CacheSetup: Sendable, Hashable {
    case policy(PolicySpec)
    case preset(CachePreset)
}

/// The main job's experiment for one device profile: policies `lru`, `lfu`, `fifo` and `ttl`
/// (seed 001's 5-minute lifetime) × prefetch windows 0, 5, 10, 20, 30, 50 × the `browser` and
/// `skimmer` behaviours, with the profile's memory-cache limit and network. Rows come out in
/// that nesting order.
public enum StandardMatrix {
    public static let policies = ["lru", "lfu", "fifo", "ttl:max-age=300"]
    public static let windows = [0, 5, 10, 20, 30, 50]
    public static let behaviors: [ScrollBehavior] = [.browser, .skimmer]

    /// The runs of the matrix, or of the parts the caller overrides, in `SweepPlan` order.
    public static func configurations(
        profile: DeviceProfile, network: NetworkProfile? = nil, caches: [CacheSetup]? = nil,
        windows: [WindowMode]? = nil, workloads: [ScrollWorkload]? = nil, seed: UInt64 = 1, launches: Int = 1,
        gap: Int64 = RunConfiguration.defaultGap, duration: Int64 = RunConfiguration.defaultDuration
    ) throws -> [RunConfiguration] {
        var session = SweepGrid.Session()
        session.launches = launches
        session.gap = gap
        session.duration = duration
        return try SweepPlan(
            profiles: [profile], networks: [network],
            caches: caches ?? policies.map { .policy(try PolicySpec.parse($0, source: "--policy")) },
            memoryLimits: [nil], diskLimits: [nil],
            windows: windows ?? Self.windows.map { .items(PrefetchWindow(ahead: $0)) },
            workloads: [workloads ?? behaviors.map { .behavior($0, duration: duration) }],
            strategies: [.cacheFirst], seeds: [seed], session: session,
            defaultNetworks: [NetworkProfile.named(profile.defaultNetwork)]
        ).configurations
    }
}
