/// One launch of the app at a time (docs/model.md#launch-strategies): which launch it is and when it started,
/// the network's outages during it, what the launch strategy shows first — the stored feed at
/// once, or held back until the API answers, a deadline passes or seed 002's preload has the
/// first screen decoded — and the launch's figures for `--per-launch`.
struct LaunchController {
    let strategy: LaunchStrategy
    /// The launch under way (0-based; -1 before the first) and when it started.
    private(set) var index = -1
    private(set) var start: Int64 = 0
    /// Absolute times when the network is down during the launch (for `displaysOffline`).
    private var offline: [Range<Int64>] = []
    /// Whether the feed is on screen yet (network-first, timeout and preload strategies hold it).
    private(set) var feedShown = true
    /// Stored images the strategy holds back until the API answers or its deadline passes.
    private var heldBack: [ImageDescriptor] = []
    /// The items whose images `preload` waits for before showing the feed.
    private(set) var preloading: [UInt64] = []
    private(set) var figures = LaunchFigures(launch: 0)
    /// The run's image requests when the launch started.
    private var imageRequestsBefore = 0
    /// Whether the last launch has ended.
    private(set) var finished = false

    init(strategy: LaunchStrategy) {
        self.strategy = strategy
    }

    /// Launch `index` starts at `now` with `offline` outages, the run having made
    /// `imageRequests` so far. O(1).
    mutating func begin(_ index: Int, at now: Int64, offline: [Range<Int64>], imageRequests: Int) {
        self.index = index
        start = now
        self.offline = offline
        figures = LaunchFigures(launch: index + 1)
        imageRequestsBefore = imageRequests
        heldBack = []
        preloading = []
    }

    /// The launch's `stored` unviewed images: returns those the strategy shows at once; the
    /// ones it holds back wait for `showFeed`. O(stored).
    mutating func showStored(_ stored: [ImageDescriptor]) -> [ImageDescriptor] {
        feedShown = strategy.showsStoredAtOnce && strategy != .preload
        switch strategy {
        case .cacheFirst, .cacheAndNetwork, .cacheOnly, .preload: return stored
        case .networkFirst, .cacheWithTimeout: heldBack = stored
        case .networkOnly: break
        }
        return []
    }

    /// The API calls the launch starts with, `stored` unviewed images in the store, which
    /// `needsRefresh` or not, by `rules`; strategies that wait for the network call at least
    /// once. O(1).
    func callsAtStart(stored: Int, needsRefresh: Bool, rules: FeedRules) -> Int {
        guard strategy.usesNetwork else { return 0 }
        var calls = needsRefresh ? 1 : 0
        calls = max(calls, rules.callsToMake(unviewed: strategy == .networkOnly ? 0 : stored, on: .launch))
        switch strategy {
        case .cacheAndNetwork, .networkFirst, .networkOnly, .cacheWithTimeout: calls = max(calls, 1)
        case .cacheFirst, .cacheOnly, .preload: break
        }
        return calls
    }

    /// The feed a strategy was holding is shown: returns the held-back stored images, which
    /// the owner appends after the API's. O(1).
    mutating func showFeed() -> [ImageDescriptor] {
        defer { heldBack = [] }
        feedShown = true
        return heldBack
    }

    /// Seed 002's preload waits for `urls`, the first screen's images. O(1).
    mutating func preload(_ urls: [UInt64]) { preloading = urls }

    /// The preloaded images are all decoded: the feed is shown. O(1).
    mutating func preloaded() {
        preloading = []
        feedShown = true
    }

    /// Whether the network is down at `now`. O(outages).
    func isOffline(at now: Int64) -> Bool { offline.contains { $0.contains(now) } }

    /// An item was displayed at `now`. O(outages).
    mutating func displayed(at now: Int64) {
        figures.displays += 1
        if isOffline(at: now) { figures.displaysOffline += 1 }
    }

    /// An image was shown at `now`: returns the time since the launch started when it is the
    /// launch's first. O(1).
    mutating func showedImage(at now: Int64) -> Int64? {
        guard figures.firstImage == nil else { return nil }
        figures.firstImage = now - start
        return now - start
    }

    /// `count` API calls reached the server (negative: calls taken back). O(1).
    mutating func countAPICalls(_ count: Int) { figures.apiRequests += count }

    /// A cell waited for its image. O(1).
    mutating func stalled() { figures.stalls += 1 }

    /// The launch ends with the run at `imageRequests`: its figures. O(1).
    mutating func end(imageRequests: Int) -> LaunchFigures {
        figures.imageRequests = imageRequests - imageRequestsBefore
        return figures
    }

    /// The last launch has ended. O(1).
    mutating func finish() { finished = true }
}
