/// The viewport: frames move the feed under the screen; cells entering it ask the pipeline for
/// their images and wait for them (stalls), cells leaving it withdraw what they asked for.
extension FeedApp {
    mutating func frame(_ index: Int, at now: Int64) throws {
        let profile = configuration.profile
        let desired = trace.offsets[index]
        // Until the feed is shown the user cannot scroll it.
        let delta = feedShown ? desired - lastDesired : 0
        lastDesired = desired
        if delta > 0 { forward = true } else if delta < 0 { forward = false }
        let rows = (items.count + profile.columns - 1) / profile.columns
        let maxOffset = max(0, Double(rows) * profile.cellSide - profile.screenHeight)
        let previous = offset
        offset = min(max(offset + delta, 0), maxOffset)
        speed = 0.85 * speed + 0.15 * abs(offset - previous) / (Double(trace.frameInterval) / 1e9)
        if !feedShown && !preloading.isEmpty && preloading.allSatisfy({ pipeline.memoryCache.contains($0) }) {
            preloading = []
            feedShown = true
        }
        adaptWindow(at: now)

        let newVisible = visibleItems()
        for index in visible where !newVisible.contains(index) { leave(index, at: now) }
        for index in newVisible where !visible.contains(index) { display(index, at: now) }
        visible = newVisible
        if configuration.bufferLimit > 0 { moveThroughBuffer() }
        updatePrefetch(at: now)
        refillIfLow(at: now)

        if index + 1 < trace.offsets.count {
            clock.schedule(.frame(index: index + 1, launch: launch), at: launchStart + Int64(index + 1) * trace.frameInterval)
        } else {
            try endLaunch()
        }
    }

    /// The items whose cells intersect the screen at the current offset.
    func visibleItems() -> Range<Int> {
        let profile = configuration.profile
        guard feedShown, !items.isEmpty else { return 0..<0 }
        let firstRow = Int(offset / profile.cellSide)
        let lastRow = Int((offset + profile.screenHeight - 0.001) / profile.cellSide)
        let lower = min(items.count, firstRow * profile.columns)
        let upper = min(items.count, (lastRow + 1) * profile.columns)
        return lower..<upper
    }

    mutating func display(_ index: Int, at now: Int64) {
        let image = items[index]
        result.displays += 1
        launchFigures.displays += 1
        if offline.contains(where: { $0.contains(now) }) { launchFigures.displaysOffline += 1 }
        displayedURLs.insert(image.url)
        if viewedEarlier.contains(image.url) { result.reshownViewed += 1 }
        if viewedThisLaunch.insert(image.url).inserted { pendingViewed.append(FeedStore.View(url: image.url, time: now)) }
        furthestDisplayed = max(furthestDisplayed, index)
        let bitmap = pipeline.decodedBytes(image)
        let outcome = pipeline.requestDisplay(image, at: now, queue: &clock)
        if bufferHeld.remove(image.url) != nil, prefetchMarks[index] == 0 {
            pipeline.stopPrefetch(image.url, at: now, queue: &clock)
        }
        if recordsDisplays { displayLog.append(DisplayRecord(time: now, url: image.url, outcome: outcome)) }
        switch outcome {
        case .memoryHit:
            result.memoryHits += 1
            result.displayLatency.recordNoWait()
            cells[index] = Cell(url: image.url, waitingSince: nil, bitmapBytes: bitmap)
            showedImage(at: now)
        case .diskHit:
            result.diskHits += 1
            cells[index] = Cell(url: image.url, waitingSince: now, bitmapBytes: bitmap)
        case .inflightHit:
            result.inflightHits += 1
            cells[index] = Cell(url: image.url, waitingSince: now, bitmapBytes: bitmap)
        case .miss:
            result.misses += 1
            cells[index] = Cell(url: image.url, waitingSince: now, bitmapBytes: bitmap)
        }
        deliverImages(at: now)
    }

    /// A cell scrolled off: if it was still waiting, that wait was a stall cut short, and its
    /// request is withdrawn (cancelled if nobody else holds it).
    mutating func leave(_ index: Int, at now: Int64) {
        guard let cell = cells[index] else { return }
        cells[index] = nil
        if let since = cell.waitingSince {
            recordStall(since: since, at: now)
            pipeline.cancelDisplay(cell.url, at: now, queue: &clock)
        } else if configuration.pipeline.releaseViewed {
            pipeline.memoryCache.remove(cell.url)
        }
    }

    /// Hands decoded images to the cells waiting for them, recording each wait as a stall.
    mutating func deliverImages(at now: Int64) {
        for url in pipeline.takeReady() {
            guard let index = indexOf[url], var cell = cells[index], let since = cell.waitingSince else { continue }
            recordStall(since: since, at: now)
            cell.waitingSince = nil
            cells[index] = cell
            showedImage(at: now)
        }
        for url in pipeline.takeFailed() {
            guard let index = indexOf[url], var cell = cells[index], let since = cell.waitingSince else { continue }
            recordStall(since: since, at: now)
            cell.waitingSince = nil
            cell.bitmapBytes = 0
            cells[index] = cell
        }
    }

    /// Records the wait of every visible cell still waiting for its image as a stall lasting
    /// until `now`, and stops the wait (the launch is ending).
    mutating func endWaits(at now: Int64) {
        for index in visible {
            guard var cell = cells[index], let since = cell.waitingSince else { continue }
            recordStall(since: since, at: now)
            cell.waitingSince = nil
            cells[index] = cell
        }
    }

    mutating func showedImage(at now: Int64) {
        guard !firstImageShown else { return }
        firstImageShown = true
        result.firstImageTimes.append(now - launchStart)
        launchFigures.firstImage = now - launchStart
    }

    mutating func recordStall(since: Int64, at now: Int64) {
        result.stalls.record(nanoseconds: now - since)
        result.displayLatency.record(nanoseconds: now - since)
        launchFigures.stalls += 1
        stallsSinceAdaptation += 1
    }
}
