/// Runs that differ only in the memory cache's policy and limit, where one run's row is what
/// another would write, are run once (docs/main-job.md, "Runs that are run once").
///
/// A run whose memory cache never evicted nor refused an entry (its limit never acted,
/// `MemoryCacheUse`) and in which no entry expired held every image it was given, as a cache
/// without a limit would; any policy that decides only to make room
/// (`PolicySpec.decidesOnlyToMakeRoom`) with at least that limit, and a lifetime (if any) at
/// least the run's length, would have made the same run event for event. And `ttl` evicts as
/// `fifo` does (`PolicySpec.withoutLifetime`), so at one limit a `fifo` run is the `ttl` run
/// whenever the run is no longer than the lifetime. Nothing else in a run reads the policy or
/// the limit (`CacheTiers`). The rows are byte for byte those the runs would write:
/// `RunSharingTests` runs both ways and compares.
public enum RunSharing {
    /// Runs `configurations` on `jobs` threads, sharing as the type says among the
    /// configurations of one group (`groups[i]`: those with the same number must differ only in
    /// the memory cache's policy and limit, `nil` runs alone). Each group runs on one thread,
    /// its smallest limits first; the rows come back in the order given whatever `jobs` is, a
    /// shared one marked `isShared`. `progress` is told the runs done, group by group in order.
    /// O(runs + Σ group size²).
    public static func run(_ configurations: [RunConfiguration], groups: [Int?], jobs: Int,
                           progress: (Int) -> Void = { _ in }) throws -> [RunResult] {
        precondition(groups.count == configurations.count, "RunSharing: one group (or nil) per configuration")
        let chains = self.chains(configurations, groups: groups)
        var results = [RunResult?](repeating: nil, count: configurations.count)
        var done = 0
        _ = try SweepRunner.run(count: chains.count, jobs: jobs, work: { chain in
            try run(chains[chain], of: configurations)
        }) { chain, rows in
            for (index, row) in zip(chains[chain], rows) { results[index] = row }
            done += rows.count
            progress(done)
        }
        return results.map { $0! }
    }

    /// Each group's positions in the order its runs are tried: limits ascending (a run without
    /// a limit last), then `fifo` before `ttl` and the other policies (it can stand for `ttl` at
    /// its own limit), then position; a configuration without a group is a chain of its own.
    /// Chains are in the order of their first position. O(n log n).
    static func chains(_ configurations: [RunConfiguration], groups: [Int?]) -> [[Int]] {
        var chains: [[Int]] = []
        var chainOfGroup: [Int: Int] = [:]
        for (index, group) in groups.enumerated() {
            guard let group else {
                chains.append([index])
                continue
            }
            if let chain = chainOfGroup[group] {
                chains[chain].append(index)
            } else {
                chainOfGroup[group] = chains.count
                chains.append([index])
            }
        }
        func key(_ index: Int) -> (Int64, Int, Int) {
            let pipeline = configurations[index].pipeline
            return (pipeline.memoryLimits.maxBytes ?? .max, pipeline.memoryPolicy.name == .fifo ? 0 : 1, index)
        }
        return chains.map { $0.sorted { key($0) < key($1) } }
    }

    /// Runs one chain in order, each configuration taking the row of an earlier one that
    /// stands for it when there is one. O(chain²) decisions.
    static func run(_ chain: [Int], of configurations: [RunConfiguration]) throws -> [RunResult] {
        var rows: [RunResult] = []
        for (place, index) in chain.enumerated() {
            let target = configurations[index].pipeline
            let source = (0..<place).first { earlier in
                stands(for: target, source: configurations[chain[earlier]].pipeline, use: rows[earlier].memoryCacheUse)
            }
            if let source {
                var row = rows[source]
                let identity = configurations[index].emptyResult
                row.policy = identity.policy
                row.memoryLimitBytes = identity.memoryLimitBytes
                row.isShared = true
                assert(row.identity == identity.identity, "RunSharing: configurations of one group must differ only in the memory cache")
                rows.append(row)
            } else {
                rows.append(try FeedSimulation.run(configurations[index]))
            }
        }
        return rows
    }

    /// Whether the run of `source`'s memory cache, which went as `use` says, is the run
    /// `target`'s would make, the rest of the two configurations being the same. O(1).
    static func stands(for target: PipelineConfiguration, source: PipelineConfiguration, use: MemoryCacheUse) -> Bool {
        let (policy, limits) = (target.memoryPolicy, target.memoryLimits)
        guard policy.decidesOnlyToMakeRoom, source.memoryPolicy.decidesOnlyToMakeRoom, target.label == nil, source.label == nil else {
            return false
        }
        // Every entry it held was held in the target's cache too, and made room for as there.
        let sameRoom = (limits == source.memoryLimits && policy.withoutLifetime == source.memoryPolicy.withoutLifetime)
            || (!use.limitActed && limits.holdsAtLeast(source.memoryLimits))
        // And it expired as the target's cache would: the same policy holding the same entries
        // expires alike; otherwise neither may expire anything.
        let lifetime = policy.expiry(defaultMaxAge: nil, ageScale: CacheTiers.ageScale)?.maxAge
        let sameExpiry = policy == source.memoryPolicy || (!use.expired && lifetime.map { use.span <= $0 } ?? true)
        return sameRoom && sameExpiry
    }
}
