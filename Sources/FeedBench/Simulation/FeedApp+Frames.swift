/// Frames: the trace moves the viewport; cells entering the screen ask the pipeline for their
/// images and wait for them (stalls), cells leaving it withdraw what they asked for, and the
/// prefetcher's window follows. The main thread is given each cell's configuration and each
/// main-thread decode, and commits the frame (hitches).
extension FeedApp {
    mutating func frame(_ index: Int, at now: Int64) throws {
        viewport.scroll(toFrame: index, itemCount: list.count, shown: launch.feedShown)
        if !launch.feedShown && !launch.preloading.isEmpty && launch.preloading.allSatisfy({ pipeline.isInMemory($0) }) {
            launch.preloaded()
        }
        if prefetcher.readsMemory(at: now) {
            // A follower whose memory the window would read otherwise stops following.
            let band = prefetcher.memoryBand(memory.meter.current)
            for tier in pipeline.memoryFollowers where prefetcher.memoryBand(followerMemory[tier - 1].meter.current) != band {
                pipeline.dropMemoryFollower(tier)
            }
        }
        prefetcher.adapt(at: now, memoryLevel: memory.meter.current)

        let change = viewport.updateVisible(itemCount: list.count, shown: launch.feedShown)
        for index in change.left { leave(index, at: now) }
        for index in change.entered { display(index, at: now) }
        if supply.buffers { moveThroughBuffer() }
        updatePrefetch(at: now)
        refillIfLow(at: now)
        prefetcher.noteHitch(mainThread.commit(at: now, interval: viewport.trace.frameInterval, scrolled: viewport.moved))

        if let next = viewport.frameAfter(index, launchStart: launch.start) {
            clock.schedule(.frame(index: index + 1, launch: launch.index), at: next)
        } else {
            try endLaunch()
        }
    }

    /// Item `index` comes on screen at `now`: it is counted as displayed and viewed, and its
    /// cell shows the image at once (a memory hit) or waits for the pipeline.
    mutating func display(_ index: Int, at now: Int64) {
        let image = list[index]
        launch.displayed(at: now)
        let reshown = history.displayed(image.url, at: now)
        list.displayed(index)
        let bitmap = pipeline.decodedBytes(image)
        let outcome = pipeline.requestDisplay(image, at: now, queue: &clock)
        mainThread.add(configuration.profile.cellConfigurationTime)
        if supply.release(image.url), !prefetcher.holds(index) {
            pipeline.stopPrefetch(image.url, at: now, queue: &clock)
        }
        // A memory hit shows its image on this frame, and so does a disk hit read on the main
        // thread (which pays the read); the other cells wait for theirs.
        let readHere = outcome == .diskHit && configuration.pipeline.readsDiskOnMainThread
        let shown = outcome == .memoryHit || readHere
        recorders.display(image.url, at: now, outcome: outcome, shown: shown)
        tally.displayed(outcome, shownOnItsFrame: shown, reshown: reshown)
        viewport.show(index, url: image.url, waitingSince: shown ? nil : now, bitmapBytes: bitmap)
        if shown {
            if readHere { mainThread.add(pipeline.diskReadTime(of: image)) }
            mainThread.add(pipeline.drawDecodeTime(image, fresh: readHere))
            showedImage(at: now)
        }
        deliverImages(at: now)
    }

    /// A cell scrolled off: if it was still waiting, that wait was a stall cut short, and its
    /// request is withdrawn (cancelled if nobody else holds it).
    mutating func leave(_ index: Int, at now: Int64) {
        guard let cell = viewport.hide(index) else { return }
        if let since = cell.waitingSince {
            recordStall(cell.url, since: since, at: now, shown: false)
            pipeline.cancelDisplay(cell.url, at: now, queue: &clock)
        } else if configuration.pipeline.releaseViewed {
            pipeline.evictFromMemory(cell.url)
        }
    }

    /// Hands decoded images to the cells waiting for them, recording each wait as a stall.
    mutating func deliverImages(at now: Int64) {
        for url in pipeline.takeReady() {
            guard let index = list.index(of: url), let since = viewport.stopWaiting(index) else { continue }
            recordStall(url, since: since, at: now, shown: true)
            mainThread.add(pipeline.drawDecodeTime(list[index], fresh: true))
            showedImage(at: now)
        }
        for url in pipeline.takeFailed() {
            guard let index = list.index(of: url), let since = viewport.stopWaiting(index, failed: true) else { continue }
            recordStall(url, since: since, at: now, shown: false)
        }
    }

    /// Records the wait of every visible cell still waiting for its image as a stall lasting
    /// until `now`, and stops the wait (the launch is ending).
    mutating func endWaits(at now: Int64) {
        for index in viewport.visible {
            guard let since = viewport.stopWaiting(index) else { continue }
            recordStall(list[index].url, since: since, at: now, shown: false)
        }
    }

    mutating func showedImage(at now: Int64) {
        if let time = launch.showedImage(at: now) { tally.showedFirstImage(after: time) }
    }

    /// The cell waiting for `url` since `since` stopped waiting at `now`, `shown` its image or
    /// not: a stall.
    mutating func recordStall(_ url: UInt64, since: Int64, at now: Int64, shown: Bool) {
        recorders.waitEnded(url, since: since, at: now, shown: shown)
        tally.stalled(for: now - since)
        launch.stalled()
        prefetcher.noteStall()
    }

    /// Moves the prefetch window: items that left it are released, in the old window's order,
    /// then items that entered it are prefetched, nearest first, as one batch.
    mutating func updatePrefetch(at now: Int64) {
        if let change = prefetcher.move(visible: viewport.visible, forward: viewport.forward, speed: viewport.speed,
                                        itemCount: list.count) {
            for index in change.left { pipeline.stopPrefetch(list[index].url, at: now, queue: &clock) }
            let items = list.items
            pipeline.startPrefetching(change.entered.lazy.map { items[$0] }, at: now, queue: &clock)
        }
        deliverImages(at: now)
    }
}
