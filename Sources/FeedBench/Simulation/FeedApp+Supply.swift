/// The feed supply: the display list, seed 000's supply and prefetch buffer, the refill rule and
/// the feed API calls through the feed transport, the feed store's viewed marks.
extension FeedApp {
    /// Adds images to the feed, skipping any already in it: straight to the display list, or
    /// through the supply and the prefetch buffer when the buffer is on.
    mutating func append(_ images: [ImageDescriptor]) {
        guard configuration.bufferLimit > 0 else {
            for image in images { appendToDisplayList(image) }
            return
        }
        let known = Set(supply.map(\.url)).union(buffer.map(\.url))
        supply += images.filter { indexOf[$0.url] == nil && !known.contains($0.url) }
        moveThroughBuffer()
    }

    mutating func appendToDisplayList(_ image: ImageDescriptor) {
        guard indexOf[image.url] == nil else { return }
        indexOf[image.url] = items.count
        items.append(image)
        cells.append(nil)
        prefetchMarks.append(0)
    }

    /// Moves images to the display list when it runs low, then tops the buffer up from the
    /// supply, preloading each image that enters it. O(moved).
    mutating func moveThroughBuffer() {
        while items.count - (furthestDisplayed + 1) < Self.moveBelow, !buffer.isEmpty {
            appendToDisplayList(buffer.removeFirst())
        }
        while buffer.count < configuration.bufferLimit, !supply.isEmpty {
            let image = supply.removeFirst()
            buffer.append(image)
            bufferHeld.insert(image.url)
            pipeline.startPrefetching(CollectionOfOne(image), at: clock.now, queue: &clock)
        }
        if items.count - (furthestDisplayed + 1) < Self.moveBelow, !buffer.isEmpty { moveThroughBuffer() }
    }

    /// Images waiting ahead of the user: in the display list, the buffer and the supply.
    var unviewedAhead: Int { items.count - (furthestDisplayed + 1) + buffer.count + supply.count }

    /// Seed 000's refill rule: when fewer than `refillBelow` unviewed items remain ahead of the
    /// user, call the API (at most `maxCallsPerRefill` calls) unless a call is under way.
    mutating func refillIfLow(at now: Int64) {
        let rules = configuration.rules
        guard configuration.strategy.usesNetwork, apiCallsWanted == 0, !apiCallUnderWay, now >= refillPausedUntil,
              unviewedAhead < rules.refillBelow else { return }
        apiCallsWanted = max(feedShown ? 0 : 1, rules.callsToMake(unviewed: unviewedAhead, on: .browsing))
        callAPIIfNeeded()
    }

    /// Makes the next API call wanted, unless one is under way; its answer comes as
    /// `.apiResponse` on the clock.
    mutating func callAPIIfNeeded() {
        guard !apiCallUnderWay, apiCallsWanted > 0 else { return }
        apiCallsWanted -= 1
        let now = clock.now
        if feed.requestPage(launch: launch, at: now, clock: &clock) {
            apiCallSentAt = now
            result.apiRequests += 1
            launchFigures.apiRequests += 1
        } else {
            apiCallSentAt = nil
        }
        apiCallUnderWay = true
    }

    mutating func receivePage(at now: Int64) throws {
        guard apiCallUnderWay, let (outcome, reachedServer) = feed.takeAnswer() else { return }
        apiCallUnderWay = false
        if !reachedServer, apiCallSentAt != nil {
            // A live server answered that the network was down: the call never left the device.
            result.apiRequests -= 1
            launchFigures.apiRequests -= 1
            apiCallSentAt = nil
        }
        if pipeline.requestLog != nil, let sentAt = apiCallSentAt {
            // The call that reached the server last is the run's `apiRequests`-th.
            let call = feed.lastCall
            pipeline.requestLog!.apiCall(result.apiRequests, sentAt: sentAt, now: now, serverTime: call?.serverTime ?? now - sentAt,
                                         outcome: outcome, use: call?.use)
        }
        switch outcome {
        case let .page(images):
            try flushViewed()
            let added = try store.insert(images, at: now)
            if feedShown || configuration.strategy == .preload { append(added) } else { showFeed(with: added) }
            if configuration.strategy == .preload && preloading.isEmpty && !feedShown { startPreload() }
            callAPIIfNeeded()
        case .failure:
            // Back off for a second before the next refill attempt.
            apiCallsWanted = 0
            refillPausedUntil = now + 1_000_000_000
        }
    }

    mutating func flushViewed() throws {
        guard !pendingViewed.isEmpty else { return }
        try store.markViewed(pendingViewed)
        pendingViewed.removeAll(keepingCapacity: true)
    }
}
