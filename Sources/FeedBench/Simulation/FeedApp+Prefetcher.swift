/// The prefetcher: a window of items ahead of (and behind) the screen whose images the pipeline
/// loads before they are needed, sized by the configured `WindowMode`.
extension FeedApp {
    /// Moves the prefetch window: items entering it are prefetched, items leaving it released.
    mutating func updatePrefetch(at now: Int64) {
        // Most frames leave the window where it was (items are only ever appended, and the
        // launch reset clears `prefetchedFor`): nothing to stop or start.
        let request = PrefetchRequest(window: currentWindow(), visible: visible, forward: forward, itemCount: items.count)
        guard request != prefetchedFor else { return deliverImages(at: now) }
        prefetchedFor = request
        let wanted = request.window.items(visible: request.visible, forward: request.forward, itemCount: request.itemCount)
        guard wanted != prefetching else { return deliverImages(at: now) }
        // Items that left the window are released, in the old window's order, then items that
        // entered it are prefetched, nearest first. O(old + new window).
        for index in wanted { prefetchMarks[index] |= 2 }
        for index in prefetching where prefetchMarks[index] & 2 == 0 { pipeline.stopPrefetch(items[index].url, at: now, queue: &clock) }
        let items = items, marks = prefetchMarks
        pipeline.startPrefetching(wanted.lazy.filter { marks[$0] & 1 == 0 }.map { items[$0] }, at: now, queue: &clock)
        for index in prefetching { prefetchMarks[index] = 0 }
        for index in wanted { prefetchMarks[index] = 1 }
        prefetching = wanted
        deliverImages(at: now)
    }

    /// What decides the prefetch window's items: the window's size, the visible items, the
    /// scroll direction and how many items the feed holds.
    struct PrefetchRequest: Equatable {
        var window: PrefetchWindow
        var visible: Range<Int>
        var forward: Bool
        var itemCount: Int
    }

    /// The window the prefetcher uses now, by the configured mode (`WindowMode`).
    func currentWindow() -> PrefetchWindow {
        let profile = configuration.profile
        switch configuration.window {
        case let .items(window): return window
        case let .screens(count):
            return PrefetchWindow(ahead: Int((count * Double(WindowMode.itemsPerScreen(profile))).rounded(.up)))
        case .device: return PrefetchWindow(ahead: WindowMode.deviceCount(profile))
        case .velocity:
            let coveredRows = Int((speed / profile.cellSide).rounded(.up))
            return PrefetchWindow(ahead: min(100, WindowMode.itemsPerScreen(profile) + coveredRows * profile.columns))
        case .adaptive: return PrefetchWindow(ahead: adaptiveAhead)
        }
    }

    /// Seed 000's feedback loop, once per simulated second (see `WindowMode.adaptive`).
    mutating func adaptWindow(at now: Int64) {
        guard case let .adaptive(start) = configuration.window, now - lastAdaptation >= 1_000_000_000 else { return }
        let threshold = Double(configuration.profile.memoryWarningBytes)
        let level = Double(memory.current)
        if level > 0.8 * threshold {
            adaptiveAhead = max(2, adaptiveAhead / 2)
        } else if stallsSinceAdaptation > 2 {
            adaptiveAhead = max(2, adaptiveAhead - max(1, adaptiveAhead / 4))
        } else if level < 0.6 * threshold && stallsSinceAdaptation == 0 {
            adaptiveAhead = min(start, adaptiveAhead + max(1, start / 4))
        }
        lastAdaptation = now
        stallsSinceAdaptation = 0
    }
}
