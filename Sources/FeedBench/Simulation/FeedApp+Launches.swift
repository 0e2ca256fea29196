/// Launches: the app starts, shows what its strategy shows first, goes to the background and
/// comes back, or dies of jetsam.
extension FeedApp {
    /// Starts launch `index`: cold (memory cache empty) unless it is a warm resume from the
    /// background, in which case the memory cache keeps what backgrounding left of it.
    mutating func startLaunch(_ index: Int, warm: Bool = false) throws {
        let start = clock.now
        launch.begin(index, at: start, offline: configuration.offline.absoluteIntervals(launch: index, start: start),
                     imageRequests: pipeline.imageRequests)
        pipeline.abandonAll(at: start)
        if !warm { pipeline.clearMemory() }
        clock.removeAll()
        pipeline.startLaunch(index, at: start, queue: &clock)
        feed.startLaunch(index, at: start)
        history.startLaunch()
        let traceSeed = session.traceSeed(configuration.seed, launch: index, launches: configuration.launches)
        mainThread.restart()
        viewport.startLaunch(trace: configuration.workload.trace(profile: configuration.profile, seed: traceSeed))
        list = FeedList()
        prefetcher.startLaunch(at: start)
        supply.startLaunch()
        if configuration.recording.timeline {
            let parts = memoryParts()
            recorders.startLaunch(index, at: start, counters: timelineCounters, parts: parts)
        }
        try showFirst()
        if viewport.trace.offsets.isEmpty { try endLaunch() } else { clock.schedule(.frame(index: 0, launch: index), at: clock.now) }
    }

    /// What the launch's strategy shows first: the store's unviewed images at once or held
    /// back, the API calls it starts with, its deadline and seed 002's preload.
    mutating func showFirst() throws {
        let stored = try store.unviewed(limit: configuration.rules.maxRows)
        append(launch.showStored(stored))
        let strategy = configuration.strategy
        if strategy.usesNetwork {
            let needsRefresh = configuration.rules.needsRefresh(newestCreatedAt: try store.newestCreatedAt(), now: clock.now)
            supply.want(launch.callsAtStart(stored: stored.count, needsRefresh: needsRefresh, rules: configuration.rules))
            callAPIIfNeeded()
        }
        if case let .cacheWithTimeout(deadline) = strategy {
            clock.schedule(.deadline(launch: launch.index), at: launch.start + deadline)
        }
        if strategy == .preload { startPreload() }
    }

    /// Shows the feed a strategy was holding: `first` (the API's images), then the held-back
    /// stored ones.
    mutating func showFeed(with first: [ImageDescriptor]) {
        let heldBack = launch.showFeed()
        append(first)
        append(heldBack)
    }

    /// Seed 002's preload: fetch the first screen's images; the feed appears when all are decoded.
    mutating func startPreload() {
        let firstImages = list.items.prefix(WindowMode.itemsPerScreen(configuration.profile))
        launch.preload(firstImages.map(\.url))
        pipeline.startPrefetching(firstImages, at: clock.now, queue: &clock)
    }

    /// Ends the launch: the app goes to the background and, after the gap, comes back — warm
    /// if the gap is within `RunConfiguration.resumeWithin` (the memory cache keeps its
    /// background share), cold otherwise.
    mutating func endLaunch(killed: Bool = false) throws {
        // The session ends with these cells still waiting: their stalls count, as long as they were.
        endWaits(at: clock.now)
        try flushViewed()
        tally.launchEnded(launch.end(imageRequests: pipeline.imageRequests))
        let gap = configuration.gap
        let warm = !killed && gap <= RunConfiguration.resumeWithin
        if warm { pipeline.enterBackground() }
        // The timeline's last second of the launch includes what backgrounding evicted.
        if configuration.recording.timeline { recorders.endLaunch(counters: timelineCounters) }
        if launch.index + 1 < configuration.launches {
            clock.removeAll()
            memory.pause(at: clock.now)
            for position in followerMemory.indices { followerMemory[position].pause(at: clock.now) }
            clock.advance(to: clock.now + gap)
            memory.resume(at: clock.now)
            for position in followerMemory.indices { followerMemory[position].resume(at: clock.now) }
            try startLaunch(launch.index + 1, warm: warm)
        } else {
            launch.finish()
        }
    }

    /// Jetsam: the app dies on the spot; the launch ends and the next one starts cold.
    mutating func kill() throws {
        tally.killed()
        endWaits(at: clock.now)
        pipeline.abandonAll(at: clock.now)
        pipeline.clearMemory()
        viewport.clear()
        try endLaunch(killed: true)
    }
}
