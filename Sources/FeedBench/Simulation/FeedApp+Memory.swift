/// Memory: the app's tracked memory measured after every event and judged by the memory guard
/// (docs/model.md#memory-warnings-and-the-os) — a warning clears the memory cache, jetsam kills the app.
extension FeedApp {
    /// Tracked memory (docs/model.md#memory-warnings-and-the-os): memory-cache bytes, bitmaps of visible cells that the
    /// cache does not hold, download buffers. Above the warning threshold the memory cache is
    /// cleared (once per crossing); above the jetsam limit the app is killed.
    mutating func updateMemory(at now: Int64) throws {
        guard !launch.finished else { return }
        switch memory.judge(recordMemory(at: now)) {
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

    /// Records the current level of tracked memory (and its parts in the timeline) and returns it.
    @discardableResult
    mutating func recordMemory(at now: Int64) -> Int64 {
        let parts = memoryParts()
        memory.record(parts.total, at: now)
        if recorders.recordsTimeline { recorders.observe(parts) }
        return parts.total
    }

    func memoryParts() -> MemoryParts {
        let bitmaps = viewport.ownedBitmapBytes { pipeline.isInMemory($0) }
        return MemoryParts(memoryCache: pipeline.memoryOccupancy.bytes, bitmaps: bitmaps, inflight: pipeline.bytesInFlight)
    }

    /// The running totals a timeline's seconds are differences of.
    var timelineCounters: TimelineCounters {
        TimelineCounters(stalls: tally.stalls.count, apiRequests: tally.apiRequests, imageRequests: pipeline.imageRequests,
                         evictions: pipeline.memoryOccupancy.evictions, memoryWarnings: tally.memoryWarnings,
                         jetsamKills: tally.jetsamKills)
    }
}
