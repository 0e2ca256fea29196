/// The feed: images from the store and the feed API join the display list — straight, or
/// through seed 000's supply and buffer — and the API is called as the launch and the refill
/// rule want; views are written to the store.
extension FeedApp {
    /// Adds images to the feed, skipping any already in it: straight to the display list, or
    /// through the supply and the prefetch buffer when the buffer is on.
    mutating func append(_ images: [ImageDescriptor]) {
        guard supply.buffers else {
            for image in images { appendToDisplayList(image) }
            return
        }
        do {
            let list = list
            supply.receive(images) { list.index(of: $0) != nil }
        }
        moveThroughBuffer()
    }

    mutating func appendToDisplayList(_ image: ImageDescriptor) {
        guard list.append(image) else { return }
        viewport.addItem()
        prefetcher.addItem()
    }

    /// Moves images to the display list when it runs low, then tops the buffer up from the
    /// supply, preloading each image that enters it, until neither has anything to move. O(moved).
    mutating func moveThroughBuffer() {
        repeat {
            while let image = supply.nextToDisplay(ahead: list.ahead) { appendToDisplayList(image) }
            while let image = supply.nextToPreload() {
                pipeline.startPrefetching(CollectionOfOne(image), at: clock.now, queue: &clock)
            }
        } while supply.hasToMove(ahead: list.ahead)
    }

    /// Seed 000's refill rule (`FeedSupply.refill`), for strategies that use the network.
    mutating func refillIfLow(at now: Int64) {
        guard configuration.strategy.usesNetwork, supply.refill(at: now, ahead: list.ahead, shown: launch.feedShown) else { return }
        callAPIIfNeeded()
    }

    /// Makes the next API call wanted, unless one is under way; its answer comes as
    /// `.apiResponse` on the clock.
    mutating func callAPIIfNeeded() {
        guard supply.takeCall() else { return }
        let now = clock.now
        if feed.requestPage(launch: launch.index, at: now, clock: &clock) {
            supply.callSent(at: now)
            tally.apiCallSent()
            launch.countAPICalls(1)
        } else {
            supply.callSent(at: nil)
        }
    }

    mutating func receivePage(at now: Int64) throws {
        guard supply.callUnderWay, let (outcome, reachedServer) = feed.takeAnswer() else { return }
        supply.callAnswered()
        if !reachedServer, supply.callSentAt != nil {
            // A live server answered that the network was down: the call never left the device.
            tally.apiCallRetracted()
            launch.countAPICalls(-1)
            supply.callSent(at: nil)
        }
        if pipeline.recordsRequests, let sentAt = supply.callSentAt {
            // The call that reached the server last is the run's `apiRequests`-th.
            let call = feed.lastCall
            pipeline.logAPICall(tally.apiRequests, sentAt: sentAt, now: now, serverTime: call?.serverTime ?? now - sentAt,
                                outcome: outcome, use: call?.use)
        }
        switch outcome {
        case let .page(images):
            try flushViewed()
            let added = try store.insert(images, at: now)
            if launch.feedShown || configuration.strategy == .preload { append(added) } else { showFeed(with: added) }
            if configuration.strategy == .preload && launch.preloading.isEmpty && !launch.feedShown { startPreload() }
            callAPIIfNeeded()
        case .failure:
            // Back off for a second before the next refill attempt.
            supply.callFailed(at: now)
        }
    }

    /// Writes the views not yet in the store, in one transaction.
    mutating func flushViewed() throws {
        guard !history.unwritten.isEmpty else { return }
        try store.markViewed(history.unwritten)
        history.written()
    }
}
