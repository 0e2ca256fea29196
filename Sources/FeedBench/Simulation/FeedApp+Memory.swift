/// The memory guard (DESIGN.md §1.8): tracked memory against the device's warning and jetsam
/// limits.
extension FeedApp {
    /// Tracked memory (DESIGN.md §1.8): memory-cache bytes, bitmaps of visible cells that the
    /// cache does not hold, download buffers. Above the warning threshold the memory cache is
    /// cleared (once per crossing); above the jetsam limit the app is killed.
    mutating func updateMemory(at now: Int64) throws {
        guard !finished else { return }
        let tracked = recordMemory(at: now)
        let profile = configuration.profile
        if tracked > profile.jetsamLimitBytes {
            try kill()
            recordMemory(at: clock.now)
            return
        }
        if tracked > profile.memoryWarningBytes, configuration.pipeline.respondsToMemoryWarnings {
            if !warned {
                warned = true
                result.memoryWarnings += 1
                pipeline.memoryCache.removeAll()
                recordMemory(at: now)
            }
        } else {
            warned = false
        }
    }

    /// Records the current level of tracked memory (and its parts in the timeline) and returns it.
    @discardableResult
    mutating func recordMemory(at now: Int64) -> Int64 {
        let parts = memoryParts()
        memory.record(parts.total, at: now)
        if configuration.recordsTimeline { timeline.observe(parts) }
        return parts.total
    }

    func memoryParts() -> MemoryParts {
        var bitmaps: Int64 = 0
        for index in visible {
            if let cell = cells[index], cell.waitingSince == nil, !pipeline.memoryCache.contains(cell.url) {
                bitmaps += cell.bitmapBytes
            }
        }
        return MemoryParts(memoryCache: pipeline.memoryCache.occupancy.bytes, bitmaps: bitmaps, inflight: pipeline.bytesInFlight)
    }

    /// The running totals a timeline's seconds are differences of.
    var timelineCounters: TimelineCounters {
        TimelineCounters(stalls: result.stalls.count, apiRequests: result.apiRequests, imageRequests: pipeline.imageRequests,
                         evictions: pipeline.memoryCache.occupancy.evictions, memoryWarnings: result.memoryWarnings,
                         jetsamKills: result.jetsamKills)
    }
}
