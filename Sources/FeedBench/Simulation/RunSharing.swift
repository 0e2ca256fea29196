/// Runs that differ only in the memory cache's policy and limit, where one run's row is what
/// another would write, are run once (docs/main-job.md, "Runs that are run once").
///
/// A group's first configuration runs with the memory caches of all the others following its
/// own (`MemoryCaches`): each is asked every question the run asks its cache and given every
/// image, and its share of memory is judged as the run's is; one that ever answers or is judged
/// otherwise stops following. A follower that followed to the end would have made the same run
/// event for event, so its row is the run's with its own policy, limit, evictions and memory
/// figures. The ones that stopped are run the same way among themselves, until every
/// configuration has a row: as many runs as the group has different runs. The rows are byte
/// for byte those the runs would write: `RunSharingTests` runs both ways and compares.
public enum RunSharing {
    /// Runs `configurations` on `jobs` threads, sharing as the type says among the
    /// configurations of one group (`groups[i]`: those with the same number must differ only in
    /// the memory cache's policy and limit, `nil` runs alone). Each group runs on one thread; the
    /// rows come back in the order given whatever `jobs` is, a shared one marked `isShared`.
    /// `progress` is told the runs done, group by group in order. O(runs × followers) in the
    /// followers' questions, on top of the runs made.
    public static func run(_ configurations: [RunConfiguration], groups: [Int?], jobs: Int,
                           progress: (Int) -> Void = { _ in }) throws -> [RunResult] {
        precondition(groups.count == configurations.count, "RunSharing: one group (or nil) per configuration")
        let chains = self.chains(groups: groups)
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

    /// Each group's positions in the order given; a configuration without a group is a chain of
    /// its own. Chains are in the order of their first position. O(n).
    static func chains(groups: [Int?]) -> [[Int]] {
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
        return chains
    }

    /// Runs one chain: its first configuration without a row, with every other one without a row
    /// following it, until each has one. A timeline records the run's own memory only, so a
    /// configuration that records one runs alone. O(chain) runs at most.
    static func run(_ chain: [Int], of configurations: [RunConfiguration]) throws -> [RunResult] {
        var rows = [RunResult?](repeating: nil, count: chain.count)
        var pending = Array(chain.indices)
        while let first = pending.first {
            let leader = configurations[chain[first]]
            let followers = leader.recording.timeline ? [] : pending.dropFirst().filter { !configurations[chain[$0]].recording.timeline }
            let (row, figures) = try FeedSimulation.run(leader, followers: followers.map { configurations[chain[$0]].pipeline })
            rows[first] = row
            for (place, figures) in zip(followers, figures) {
                guard let figures else { continue }
                rows[place] = shared(row, as: configurations[chain[place]], figures: figures)
            }
            pending.removeAll { rows[$0] != nil }
        }
        return rows.map { $0! }
    }

    /// `row`, a run's, as the row of `configuration`, which followed it to the end and measured
    /// `figures`. O(1).
    static func shared(_ row: RunResult, as configuration: RunConfiguration, figures: FollowerFigures) -> RunResult {
        var shared = row
        let identity = configuration.emptyResult
        shared.policy = identity.policy
        shared.memoryLimitBytes = identity.memoryLimitBytes
        shared.peakMemoryBytes = figures.peakMemoryBytes
        shared.meanMemoryBytes = figures.meanMemoryBytes
        shared.evictions = figures.evictions
        shared.isShared = true
        assert(shared.identity == identity.identity, "RunSharing: configurations of one group must differ only in the memory cache")
        return shared
    }
}
