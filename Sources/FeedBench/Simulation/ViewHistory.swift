/// What the user has seen, across launches: the images displayed in the run, those viewed in
/// this launch and in earlier ones (a later session's store counts as earlier), and the views
/// not yet written to the feed store — written in one transaction before the store is next
/// written or read, each with the time it was shown, so the store holds whenever it is
/// consulted what it would had each been written at once, at a fraction of the transactions.
struct ViewHistory {
    private var viewedEarlier: Set<UInt64>
    private var viewedThisLaunch = Set<UInt64>()
    private var displayed = Set<UInt64>()
    /// Views not yet written to the store, in the order they happened.
    private(set) var unwritten: [FeedStore.View] = []

    /// A history whose earlier launches viewed `viewedEarlier`.
    init(viewedEarlier: Set<UInt64> = []) {
        self.viewedEarlier = viewedEarlier
    }

    /// A new launch: this launch's views become earlier ones. O(views).
    mutating func startLaunch() {
        viewedEarlier.formUnion(viewedThisLaunch)
        viewedThisLaunch.removeAll()
    }

    /// `url` was displayed at `now`: returns whether an earlier launch had viewed it (it is
    /// shown again). O(1).
    mutating func displayed(_ url: UInt64, at now: Int64) -> Bool {
        displayed.insert(url)
        if viewedThisLaunch.insert(url).inserted { unwritten.append(FeedStore.View(url: url, time: now)) }
        return viewedEarlier.contains(url)
    }

    /// Whether `url` was displayed in the run. O(1).
    func wasDisplayed(_ url: UInt64) -> Bool { displayed.contains(url) }

    /// The unwritten views are in the store now. O(1).
    mutating func written() { unwritten.removeAll(keepingCapacity: true) }
}
