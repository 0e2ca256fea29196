/// Memory: the app's tracked memory measured after every event and judged by the memory guard
/// (docs/model.md#memory-warnings-and-the-os) — a warning clears the memory cache, jetsam kills the app.
/// The memory caches following the run's own (`MemoryCaches`) are measured and judged alike,
/// each by a guard of its own: one judged otherwise than the run stops following.
extension FeedApp {
    /// Tracked memory (docs/model.md#memory-warnings-and-the-os): memory-cache bytes, bitmaps of visible cells that the
    /// cache does not hold, download buffers. Above the warning threshold the memory cache is
    /// cleared (once per crossing); above the jetsam limit the app is killed.
    mutating func updateMemory(at now: Int64) throws {
        guard !launch.finished else { return }
        let verdict = memory.judge(recordMemory(at: now))
        for tier in pipeline.memoryFollowers {
            let level = followerMemory[tier - 1].meter.current
            if followerMemory[tier - 1].judge(level) != verdict { pipeline.dropMemoryFollower(tier) }
        }
        switch verdict {
        case .fine:
            break
        case .warning:
            tally.memoryWarning()
            pipeline.clearMemory()
            recordMemory(at: now)
        case .jetsam:
            try kill()
            recordMemory(at: clock.now)
        }
    }

    /// Records the current level of tracked memory (and its parts in the timeline), and each
    /// follower's, and returns the run's own.
    @discardableResult
    mutating func recordMemory(at now: Int64) -> Int64 {
        let parts = memoryParts()
        memory.record(parts.total, at: now)
        if !followerMemory.isEmpty {
            for tier in pipeline.memoryFollowers {
                followerMemory[tier - 1].record(pipeline.memoryHeld(byTier: tier) + parts.inflight, at: now)
            }
        }
        if recorders.recordsTimeline { recorders.observe(parts) }
        return parts.total
    }

    /// The parts of tracked memory now, once the memory caches know what the screen shows.
    mutating func memoryParts() -> MemoryParts {
        if !viewport.shownChanges.isEmpty {
            pipeline.shownChanged(viewport.shownChanges)
            viewport.clearShownChanges()
        }
        let own = pipeline.memoryCacheBytes
        return MemoryParts(memoryCache: own, bitmaps: pipeline.memoryHeld(byTier: 0) - own, inflight: pipeline.bytesInFlight)
    }

    /// The running totals a timeline's seconds are differences of.
    var timelineCounters: TimelineCounters {
        TimelineCounters(stalls: tally.stalls.count, apiRequests: tally.apiRequests, imageRequests: pipeline.imageRequests,
                         evictions: pipeline.memoryOccupancy.evictions, memoryWarnings: tally.memoryWarnings,
                         jetsamKills: tally.jetsamKills)
    }

    /// What each follower's own memory cache measured, up to `end`; `nil` for one that stopped
    /// following. In the order the followers were given. O(followers).
    func followerFigures(until end: Int64) -> [FollowerFigures?] {
        let following = Set(pipeline.memoryFollowers)
        return followerMemory.indices.map { position in
            let tier = position + 1
            guard following.contains(tier) else { return nil }
            let meter = followerMemory[position].meter
            return FollowerFigures(peakMemoryBytes: meter.peak, meanMemoryBytes: meter.mean(upTo: end),
                                   evictions: pipeline.memoryEvictions(ofTier: tier))
        }
    }
}

/// What a follower's memory cache measured over a run it followed to the end: the figures in
/// which its row differs from the run's (`RunSharing`).
struct FollowerFigures: Equatable {
    var peakMemoryBytes: Int64
    var meanMemoryBytes: Int64
    var evictions: Int
}
