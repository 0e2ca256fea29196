/// One value of a matrix's cache axis: a memory-cache policy on the profile's defaults, or a
/// whole library preset.
public enum CacheSetup: Sendable, Hashable {
    case policy(PolicySpec)
    case preset(CachePreset)
}

/// The main job's experiment for one device profile: policies `lru`, `lfu`, `fifo` and `ttl`
/// (seed 001's 5-minute lifetime) × memory-cache limits 1/32, 1/16, ⅛, ¼, ½ and 1 × the profile's ×
/// prefetch windows 0, 5, 10, 20, 30, 50 × the `browser` and `skimmer` behaviours × seeds 1,
/// 2, 3, on the profile's network, with images asked at the cell's width and at full size
/// (`imageWidths`; the main job only: `plan` keeps the original). Rows come out in that nesting order. `bench run` fills the
/// axes it is not given from here; `bench sweep`'s grid takes the policies, windows and
/// behaviours, but one seed and each setup's own limit unless told otherwise.
public enum StandardMatrix {
    public static let policies = ["lru", "lfu", "fifo", "ttl:max-age=300"]
    /// The cache-size ladder: multiples of the cache setup's own limit, 1/32 to 1, each twice
    /// the one before.
    /// Halving from the profile's own down to 1/32: on the low-end phone 14 MiB to 450 MiB,
    /// enough to see where a smaller cache starts to stall (on a viewed-once feed a small
    /// cache often does as well as a large one — until it cannot hold the prefetch window).
    public static let memoryLimits: [CacheSize] = [32, 16, 8, 4, 2, 1].map { .times(millionths: 1_000_000 / $0) }
    public static let windows = [0, 5, 10, 20, 30, 50]
    /// The widths the main job asks its images at: the cell's pixels, then the original.
    public static let imageWidths: [ImageWidth] = [.cell, .full]
    public static let behaviors: [ScrollBehavior] = [.browser, .skimmer]
    /// The memory-limit axis when none is given: the ladder when every cache setup is a
    /// policy; a library preset is tried at its library's own limit (SDWebImage has none to scale).
    public static func memoryLimits(for caches: [CacheSetup]) -> [CacheSize] {
        caches.allSatisfy { if case .policy = $0 { true } else { false } } ? memoryLimits : [.setups]
    }

    /// Enough seeds that the recommendation is not one seed's luck, and its spread shows.
    public static let seeds: [UInt64] = [1, 2, 3]

    /// The main job on `profile` as `bench --profile NAME` runs it: the standard matrix on the
    /// profile's population, searched as `ScreenedSearch` does (a profile file: on its own
    /// network, every seed of every configuration); the results in plan order.
    public static func mainJob(profile: DeviceProfile, jobs: Int) throws -> [RunResult] {
        let population = try NetworkPopulation.defaultName(for: profile).flatMap { try NetworkPopulation.builtIn(named: $0, source: profile.name) }
        let caches = try policies.map { CacheSetup.policy(try PolicySpec.parse($0, source: "--policy")) }
        let plan = try SweepPlan(
            profiles: [profile], networks: population?.members.map(\.network) ?? [nil], imageWidths: imageWidths, caches: caches,
            memoryLimits: memoryLimits, diskLimits: [.setups], windows: windows.map { .items(PrefetchWindow(ahead: $0)) },
            workloads: [behaviors.map { .behavior($0, duration: RunConfiguration.defaultDuration) }],
            strategies: [.cacheFirst], seeds: seeds, session: SweepGrid.Session(),
            defaultNetworks: [NetworkProfile.named(profile.defaultNetwork)])
        guard let population else {
            return try RunBatch.run(plan.configurations, groups: plan.sharingGroups, jobs: jobs)
        }
        return try ScreenedSearch.run(plan, criteria: MatrixSummary.criteria(for: profile, weighted: true),
                                      weights: population.weights, jobs: jobs)
    }

    /// The runs of the matrix, or of the parts the caller overrides, as a plan (its runs in
    /// `SweepPlan` order; its `sharingGroup(at:)` for `RunBatch`).
    public static func plan(
        profile: DeviceProfile, network: NetworkProfile? = nil, caches: [CacheSetup]? = nil,
        memoryLimits: [CacheSize]? = nil, windows: [WindowMode]? = nil, workloads: [ScrollWorkload]? = nil,
        seeds: [UInt64]? = nil, launches: Int = 1,
        gap: Int64 = RunConfiguration.defaultGap, duration: Int64 = RunConfiguration.defaultDuration
    ) throws -> SweepPlan {
        var session = SweepGrid.Session()
        session.launches = launches
        session.gap = gap
        session.duration = duration
        let caches = try caches ?? policies.map { .policy(try PolicySpec.parse($0, source: "--policy")) }
        return try SweepPlan(
            profiles: [profile], networks: [network], caches: caches,
            memoryLimits: memoryLimits ?? Self.memoryLimits(for: caches), diskLimits: [.setups],
            windows: windows ?? Self.windows.map { .items(PrefetchWindow(ahead: $0)) },
            workloads: [workloads ?? behaviors.map { .behavior($0, duration: duration) }],
            strategies: [.cacheFirst], seeds: seeds ?? Self.seeds, session: session,
            defaultNetworks: [NetworkProfile.named(profile.defaultNetwork)]
        )
    }
}
