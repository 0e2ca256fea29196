import Foundation

/// The runs of a checked grid, in a fixed order: profiles × networks × image widths × caches
/// (policies, then presets) × memory limits × disk limits × windows × workloads (behaviours, then recorded
/// traces) × strategies × seeds, the last varying fastest — so the seeds of one configuration
/// are neighbours. Run `i` is built on demand (`configuration(at:)`), so a plan of any size
/// costs the memory of its axes only.
///
/// Every value is checked when the plan is made; a repeated value on an axis (two memory limits
/// that are the same number of bytes, two trace files with the same name) is refused, so no two
/// runs share an identity.
public struct SweepPlan: Sendable {
    public let profiles: [DeviceProfile]
    /// `nil`: each profile's own network.
    public let networks: [NetworkProfile?]
    /// The widths the feed asks its images at.
    public let imageWidths: [ImageWidth]
    public let caches: [CacheSetup]
    public let memoryLimits: [CacheSize]
    public let diskLimits: [CacheSize]
    public let windows: [WindowMode]
    /// Per profile, the workload axis (a recorded trace is resampled to each profile's refresh rate).
    let workloads: [[ScrollWorkload]]
    public let strategies: [LaunchStrategy]
    public let seeds: [UInt64]
    public let session: SweepGrid.Session
    /// Each profile's own network, for `networks == [nil]`.
    let defaultNetworks: [NetworkProfile]
    /// The networks the runs simulate, each once, in the plan's order, as the runs have them: a
    /// profile's own network where `networks` is `[nil]`, a workload's instead where one is
    /// given, speaking the session's HTTP version where it names one. O(profiles × networks²).
    public var simulatedNetworks: [NetworkProfile] {
        let given = session.workload.map { [$0.network] } ?? networks.flatMap { $0.map { [$0] } ?? defaultNetworks }
        return given.map { network in
            var network = network
            if let http = session.http { network.http = http }
            return network
        }.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
    }
    /// The first profile's workloads, in the plan's order: every profile's are these, a recorded
    /// trace resampled to its refresh rate. O(1).
    public var firstProfileWorkloads: [ScrollWorkload] { workloads.first ?? [] }
    /// Runs in the plan.
    public let count: Int
    /// 16 hex digits identifying everything that decides the runs and their order: two plans
    /// with the same fingerprint write the same rows.
    public let fingerprint: String

    /// Checks every value of `grid`.
    public init(_ grid: SweepGrid) throws {
        try grid.session.check()
        func resolve<T>(_ values: [SweepGrid.Value], default defaults: [T], key: (T) -> String,
                        _ parse: (SweepGrid.Value) throws -> T) throws -> [T] {
            guard !values.isEmpty else { return defaults }
            var seen: [String: String] = [:]
            return try values.map { value in
                let item = try parse(value)
                if let earlier = seen[key(item)] {
                    throw value.error("expected each value once, found \(InputError.quote(value.text)), the same as \(InputError.quote(earlier))")
                }
                seen[key(item)] = value.text
                return item
            }
        }
        let profiles = try resolve(grid.profiles, default: DeviceProfile.builtIn, key: \.name) { value in
            try value.parse { text, _ in try DeviceProfile.named(text) }
        }
        if grid.session.workload != nil, let value = grid.networks.first {
            throw value.error("expected no network with --workload (the workload brings its own, fitted to the capture), found \(InputError.quote(value.text))")
        }
        let networks: [NetworkProfile?] = try resolve(grid.networks, default: [nil], key: { $0?.name ?? "" }) { value in
            try value.parse { try NetworkFile.resolve($0, option: $1) }
        }
        let imageWidths = try resolve(grid.imageWidths, default: [ImageWidth.full], key: \.description) { value in
            try value.parse { try ImageWidth.parse($0, source: $1) }
        }
        for profile in profiles {
            var seen: [Int?: ImageWidth] = [:]
            for (width, value) in zip(imageWidths, grid.imageWidths) {
                let pixels = width.pixels(on: profile)
                if let earlier = seen[pixels] {
                    throw value.error("expected each width once, found \(InputError.quote(value.text)), which asks for the same \(pixels.map { "\($0) px" } ?? "original") on \(profile.name) as \(InputError.quote(earlier.description))")
                }
                seen[pixels] = width
            }
        }
        var caches: [CacheSetup] = try resolve(grid.policies, default: [], key: \.label) { value in
            let spec = try value.parse { try PolicySpec.parse($0, source: $1) }
            if let refusal = RunConfiguration.liveRunRefusal(spec) { throw value.error(refusal) }
            return CacheSetup.policy(spec)
        }
        caches += try resolve(grid.presets, default: [CacheSetup](), key: \.label) { value in
            CacheSetup.preset(try value.parse { try CachePreset.named($0, source: $1) })
        }
        if caches.isEmpty {
            caches = try StandardMatrix.policies.map { .policy(try PolicySpec.parse($0, source: "--policy")) }
        }
        let memoryLimits = try resolve(grid.memoryLimits, default: [CacheSize.setups],
                                       key: \.description) { value in
            try value.parse { try CacheSize.parse($0, source: $1) }
        }
        let diskLimits = try resolve(grid.diskLimits, default: [CacheSize.setups], key: \.description) { value in
            try value.parse { try CacheSize.parse($0, source: $1) }
        }
        let windows = try resolve(grid.windows, default: StandardMatrix.windows.map { .items(PrefetchWindow(ahead: $0)) },
                                  key: \.description) { value in
            try value.parse { try WindowMode.parse($0, source: $1) }
        }
        let duration = grid.session.duration
        var behaviors: [ScrollBehavior] = try resolve(grid.behaviors, default: [], key: \.rawValue) { value in
            guard let behavior = ScrollBehavior(rawValue: value.text) else {
                throw value.error("unknown behaviour \(InputError.quote(value.text)); expected one of \(ScrollBehavior.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return behavior
        }
        if grid.behaviors.isEmpty && grid.traces.isEmpty { behaviors = StandardMatrix.behaviors }
        // Recorded traces are read once per refresh rate; their names must differ from each
        // other and from the behaviours', since the `trace` column is all that tells them apart.
        var names = Set(behaviors.map(\.rawValue))
        for value in grid.traces {
            let name = RecordedScrollTrace.baseName(value.text)
            guard names.insert(name).inserted else {
                throw value.error("expected each trace once, found a second trace named \(InputError.quote(name))")
            }
        }
        var recordedByRate: [Int: [ScrollTrace]] = [:]
        var workloads: [[ScrollWorkload]] = []
        for profile in profiles {
            if recordedByRate[profile.refreshRate] == nil {
                recordedByRate[profile.refreshRate] = try grid.traces.map { value in
                    try value.parse { text, _ in try RecordedScrollTrace.read(path: text, refreshRate: profile.refreshRate) }
                }
            }
            workloads.append(behaviors.map { ScrollWorkload.behavior($0, duration: duration) } + recordedByRate[profile.refreshRate]!.map(ScrollWorkload.recorded))
        }
        let strategies: [LaunchStrategy] = try resolve(grid.strategies, default: [.cacheFirst], key: \.description) { value in
            try value.parse { try LaunchStrategy.parse($0, source: $1) }
        }
        let seeds: [UInt64] = try resolve(grid.seeds, default: [1], key: { String($0) }) { value in
            guard let seed = UInt64(value.text) else {
                throw value.error("expected a seed from 0 to \(UInt64.max), found \(InputError.quote(value.text))")
            }
            return seed
        }
        let defaultNetworks = try profiles.map { profile in
            do {
                return try NetworkProfile.named(profile.defaultNetwork)
            } catch let refusal as InputError {
                throw InputError(source: profile.name, field: "defaultNetwork", refusal.message)
            }
        }
        try self.init(profiles: profiles, networks: networks, imageWidths: imageWidths, caches: caches, memoryLimits: memoryLimits,
                      diskLimits: diskLimits, windows: windows, workloads: workloads, strategies: strategies,
                      seeds: seeds, session: grid.session, defaultNetworks: defaultNetworks)
    }

    /// A plan from checked axes (`workloads`: one list per profile, all the same length).
    init(profiles: [DeviceProfile], networks: [NetworkProfile?], imageWidths: [ImageWidth] = [.full], caches: [CacheSetup], memoryLimits: [CacheSize],
         diskLimits: [CacheSize], windows: [WindowMode], workloads: [[ScrollWorkload]], strategies: [LaunchStrategy],
         seeds: [UInt64], session: SweepGrid.Session, defaultNetworks: [NetworkProfile]) throws {
        precondition(workloads.count == profiles.count && defaultNetworks.count == profiles.count,
                     "SweepPlan: one workload list and default network per profile")
        self.profiles = profiles
        self.networks = networks
        self.imageWidths = imageWidths
        self.caches = caches
        self.memoryLimits = memoryLimits
        self.diskLimits = diskLimits
        self.windows = windows
        self.workloads = workloads
        self.strategies = strategies
        self.seeds = seeds
        self.session = session
        self.defaultNetworks = defaultNetworks
        let sizes = [profiles.count, networks.count, imageWidths.count, caches.count, memoryLimits.count, diskLimits.count,
                     windows.count, workloads.first?.count ?? 0, strategies.count, seeds.count]
        var count = 1
        for size in sizes {
            let (product, overflow) = count.multipliedReportingOverflow(by: size)
            guard !overflow, product <= Self.maximumRuns else {
                throw InputError(source: "sweep", "expected at most \(Self.maximumRuns) runs, found a grid of \(sizes.map(String.init).joined(separator: " × "))")
            }
            count = product
        }
        self.count = count
        fingerprint = Self.fingerprint(profiles: profiles, networks: networks, imageWidths: imageWidths, caches: caches, memoryLimits: memoryLimits,
                                       diskLimits: diskLimits, windows: windows, workloads: workloads,
                                       strategies: strategies, seeds: seeds, session: session)
    }

    /// The largest grid a plan accepts.
    public static let maximumRuns = 10_000_000

    /// Seeds per configuration: the rows `SeedAggregate` summarises.
    public var seedsPerConfiguration: Int { seeds.count }

    /// Run `index` (0-based, in plan order). O(axes).
    public func configuration(at index: Int) -> RunConfiguration {
        precondition(index >= 0 && index < count, "SweepPlan: run \(index) outside 0..<\(count)")
        var rest = index
        func digit(_ size: Int) -> Int {
            defer { rest /= size }
            return rest % size
        }
        let seed = seeds[digit(seeds.count)]
        let strategy = strategies[digit(strategies.count)]
        let workloadIndex = digit(workloads[0].count)
        let window = windows[digit(windows.count)]
        let diskLimit = diskLimits[digit(diskLimits.count)]
        let memoryLimit = memoryLimits[digit(memoryLimits.count)]
        let cache = caches[digit(caches.count)]
        let imageWidth = imageWidths[digit(imageWidths.count)]
        let network = networks[digit(networks.count)]
        let profileIndex = digit(profiles.count)
        let profile = profiles[profileIndex]

        var pipeline = RunConfiguration.pipeline(for: cache, on: profile)
        pipeline.memoryLimits.maxBytes = memoryLimit.resolve(own: pipeline.memoryLimits.maxBytes, ram: profile.ramBytes)
        pipeline.diskLimits.maxBytes = diskLimit.resolve(own: pipeline.diskLimits.maxBytes, ram: profile.ramBytes)
        pipeline.releaseViewed = session.releaseViewed
        var run = RunConfiguration(profile: profile, network: network ?? defaultNetworks[profileIndex], pipeline: pipeline,
                                   window: window, workload: workloads[profileIndex][workloadIndex], seed: seed,
                                   launches: session.launches, gap: session.gap)
        run.strategy = strategy
        run.offline = session.offline
        run.bufferLimit = session.bufferLimit
        if let workload = session.workload {
            run.network = workload.network
            run.api = workload.api
            run.workloadTag = workload.scenarioTag
        }
        if let http = session.http { run.network.http = http }
        run.imageWidth = imageWidth.pixels(on: profile)
        return run
    }

    /// The runs that differ from run `index` only in the memory cache's policy and limit share
    /// a number (the first of them's index); `nil` for a library preset's run, whose policy and
    /// limit come with the rest of its settings. For `RunBatch`'s `groups`. O(1).
    public func sharingGroup(at index: Int) -> Int? {
        precondition(index >= 0 && index < count, "SweepPlan: run \(index) outside 0..<\(count)")
        let inner = diskLimits.count * windows.count * workloads[0].count * strategies.count * seeds.count
        let limit = index / inner % memoryLimits.count
        let cache = index / inner / memoryLimits.count % caches.count
        guard case .policy = caches[cache] else { return nil }
        return index - (cache * memoryLimits.count + limit) * inner
    }

    /// Every run's `sharingGroup(at:)`, in order: `RunBatch`'s `groups`. O(runs).
    public var sharingGroups: [Int?] { (0..<count).map(sharingGroup(at:)) }

    /// Every run, in order (for plans small enough to hold).
    public var configurations: [RunConfiguration] { (0..<count).map(configuration(at:)) }

    /// FNV-1a (64-bit) over bench's version and a canonical text of every axis and the session
    /// settings.
    static func fingerprint(profiles: [DeviceProfile], networks: [NetworkProfile?], imageWidths: [ImageWidth], caches: [CacheSetup],
                            memoryLimits: [CacheSize], diskLimits: [CacheSize], windows: [WindowMode],
                            workloads: [[ScrollWorkload]], strategies: [LaunchStrategy], seeds: [UInt64],
                            session: SweepGrid.Session) -> String {
        var hash = FNV1a()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        hash.add("feedbench-grid-1")
        // Another bench may simulate the same grid differently: its shards do not mix.
        hash.add(FeedBench.version)
        for profile in profiles { hash.add(bytes: (try? encoder.encode(profile)) ?? Data(profile.name.utf8)) }
        for network in networks { hash.add(network?.name ?? "(profile's)") }
        // The original width alone hashes as before the axis existed.
        if imageWidths != [.full] { for width in imageWidths { hash.add("width \(width)") } }
        for cache in caches { hash.add(cache.label) }
        for limit in memoryLimits + diskLimits { hash.add(limit.description) }
        for window in windows { hash.add(window.description) }
        for list in workloads {
            for workload in list {
                hash.add(workload.name)
                if case let .recorded(trace) = workload {
                    hash.add(String(trace.frameInterval))
                    for offset in trace.offsets { hash.add(String(offset.bitPattern)) }
                }
            }
        }
        for strategy in strategies { hash.add(strategy.description) }
        for seed in seeds { hash.add(String(seed)) }
        let offline = session.offline.intervals.map { "\($0.lowerBound)-\($0.upperBound)" } + session.offline.launches.sorted().map { "launch:\($0)" }
        hash.add("\(session.launches) \(session.gap) \(session.duration) \(offline.joined(separator: "+")) \(session.releaseViewed) \(session.bufferLimit)")
        if let workload = session.workload { hash.add(workload.id) }
        if let http = session.http { hash.add("http \(http.rawValue)") }
        return hash.hex
    }
}

/// FNV-1a, 64 bits: a stable hash (Swift's `Hasher` is seeded per process).
struct FNV1a {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(bytes: some Sequence<UInt8>) {
        for byte in bytes {
            value ^= UInt64(byte)
            value &*= 0x0000_0100_0000_01b3
        }
    }

    /// Adds `text` and a separator, so ("ab", "c") and ("a", "bc") differ.
    mutating func add(_ text: String) {
        add(bytes: text.utf8)
        add(bytes: [0])
    }

    var hex: String { String(value, radix: 16).leftPadded(to: 16) }
}

extension CacheSetup {
    /// The `policy` column of its runs: the policy (`ttl:max-age=300`) or the preset (`nuke(clock)`).
    public var label: String {
        switch self {
        case let .policy(spec): spec.description
        case let .preset(preset): preset.label
        }
    }
}
