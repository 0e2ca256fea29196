/// The screen over the feed (docs/model.md#layout-and-scrolling): a launch's scroll trace moves it, frame by frame,
/// over a grid of `profile.columns` columns of square cells; it knows which items are visible,
/// which way and how fast the user scrolls, and the cell on screen for each item — what it shows
/// and, until its image arrives, since when it waits.
///
/// It answers in values: `updateVisible` returns the visible items before and after a frame, and
/// the owner turns the items that entered and left into pipeline calls. Cells are indexed as the
/// feed's items, so the owner adds a slot (`addItem()`) for every item the feed appends.
struct Viewport {
    /// A cell on screen: which item it shows and, until its image arrives, since when it waits.
    struct Cell: Equatable {
        var url: UInt64
        var waitingSince: Int64?
        var bitmapBytes: Int64
    }

    /// A change to what the screen shows: the cells showing `url` show `bytes` more bitmap
    /// bytes (fewer when negative). A cell shows its bitmap from when it stops waiting (or
    /// from the start, when its image was there) until it goes off screen.
    struct ShownChange: Equatable {
        var url: UInt64
        var bytes: Int64
    }

    /// What a frame changed: the items visible before and after it (`left` and `entered` are the
    /// differences, in ascending order).
    struct Change {
        var before: Range<Int>
        var after: Range<Int>

        var left: LazyFilterSequence<Range<Int>> { before.lazy.filter { !after.contains($0) } }
        var entered: LazyFilterSequence<Range<Int>> { after.lazy.filter { !before.contains($0) } }
    }

    /// The screen and its grid, in points: a few numbers, so the hot path copies no profile.
    struct Grid {
        var columns: Int
        var cellSide: Double
        var screenHeight: Double

        init(_ profile: DeviceProfile) {
            columns = profile.columns
            cellSide = profile.cellSide
            screenHeight = profile.screenHeight
        }
    }

    let grid: Grid
    private(set) var trace = ScrollTrace(name: "", frameInterval: 1, offsets: [])
    /// The top of the screen, in points from the top of the feed.
    private(set) var offset = 0.0
    /// The trace's offset at the last frame (the trace moves the screen by its differences).
    private var lastDesired = 0.0
    /// Whether the user last scrolled towards the end of the feed.
    private(set) var forward = true
    private(set) var visible = 0..<0
    /// Smoothed scroll speed in points per second (for the velocity window).
    private(set) var speed = 0.0
    /// Whether the last `scroll` moved the screen.
    private(set) var moved = false
    /// The cell showing each item (`nil` while the item is off screen), indexed as the feed's
    /// items: looked up several times an event, so an array rather than a dictionary.
    private(set) var cells: [Cell?] = []
    /// What the screen has shown and stopped showing since the owner last cleared it, in order
    /// (the owner passes it to the memory caches, which count the bitmaps they do not hold).
    private(set) var shownChanges: [ShownChange] = []

    init(profile: DeviceProfile) {
        grid = Grid(profile)
    }

    /// A new launch's screen, at the top of an empty feed, following `trace`. O(1).
    mutating func startLaunch(trace: ScrollTrace) {
        clear()
        self.trace = trace
        offset = 0
        lastDesired = trace.offsets.first ?? 0
        forward = true
        visible = 0..<0
        cells = []
        speed = 0
        moved = false
    }

    /// The feed appended an item: its cell slot, empty. Amortized O(1).
    mutating func addItem() { cells.append(nil) }

    /// Moves the screen to frame `index` of the trace over a feed of `itemCount` items; until
    /// the feed is `shown` the user cannot scroll it. The visible items follow with
    /// `updateVisible`. O(1).
    @inline(__always) // once a frame: a call on its own was a tenth of the frame's cost
    mutating func scroll(toFrame index: Int, itemCount: Int, shown: Bool) {
        let desired = trace.offsets[index]
        let delta = shown ? desired - lastDesired : 0
        lastDesired = desired
        if delta > 0 { forward = true } else if delta < 0 { forward = false }
        let rows = (itemCount + grid.columns - 1) / grid.columns
        let maxOffset = max(0, Double(rows) * grid.cellSide - grid.screenHeight)
        let previous = offset
        offset = min(max(offset + delta, 0), maxOffset)
        moved = offset != previous
        speed = 0.85 * speed + 0.15 * abs(offset - previous) / (Double(trace.frameInterval) / 1e9)
    }

    /// The items visible at the current offset become `visible`; returns them before and after,
    /// and the owner shows and withdraws the cells of the difference. O(1).
    @inline(__always)
    mutating func updateVisible(itemCount: Int, shown: Bool) -> Change {
        let change = Change(before: visible, after: visibleItems(itemCount: itemCount, shown: shown))
        visible = change.after
        return change
    }

    /// The items whose cells intersect the screen at the current offset. O(1).
    @inline(__always)
    func visibleItems(itemCount: Int, shown: Bool) -> Range<Int> {
        guard shown, itemCount > 0 else { return 0..<0 }
        let firstRow = Int(offset / grid.cellSide)
        let lastRow = Int((offset + grid.screenHeight - 0.001) / grid.cellSide)
        let lower = min(itemCount, firstRow * grid.columns)
        let upper = min(itemCount, (lastRow + 1) * grid.columns)
        return lower..<upper
    }

    /// How long the launch's scroll session lasts. O(1).
    var traceDuration: Int64 { Int64(trace.offsets.count) * trace.frameInterval }

    /// When the trace's frame after `index` is due in a launch that started at `start`; `nil`
    /// when `index` is the last.
    func frameAfter(_ index: Int, launchStart start: Int64) -> Int64? {
        index + 1 < trace.offsets.count ? start + Int64(index + 1) * trace.frameInterval : nil
    }

    /// Item `index`'s cell comes on screen showing `url`, waiting since `waitingSince` unless its
    /// image is already there. O(1).
    mutating func show(_ index: Int, url: UInt64, waitingSince: Int64?, bitmapBytes: Int64) {
        cells[index] = Cell(url: url, waitingSince: waitingSince, bitmapBytes: bitmapBytes)
        if waitingSince == nil { shownChanges.append(ShownChange(url: url, bytes: bitmapBytes)) }
    }

    /// Item `index`'s cell goes off screen; returns what it showed. O(1).
    mutating func hide(_ index: Int) -> Cell? {
        defer { cells[index] = nil }
        if let cell = cells[index], cell.waitingSince == nil { shownChanges.append(ShownChange(url: cell.url, bytes: -cell.bitmapBytes)) }
        return cells[index]
    }

    /// Item `index`'s cell stops waiting — its image arrived, or (`failed`) it never will and
    /// the cell shows no bitmap; returns since when it waited, `nil` when it was not waiting. O(1).
    mutating func stopWaiting(_ index: Int, failed: Bool = false) -> Int64? {
        guard var cell = cells[index], let since = cell.waitingSince else { return nil }
        cell.waitingSince = nil
        if failed { cell.bitmapBytes = 0 }
        cells[index] = cell
        shownChanges.append(ShownChange(url: cell.url, bytes: cell.bitmapBytes))
        return since
    }

    /// The owner has passed `shownChanges` on. O(1).
    mutating func clearShownChanges() { shownChanges.removeAll(keepingCapacity: true) }

    /// Every cell goes off screen at once (the app was killed). O(items).
    mutating func clear() {
        for case let cell? in cells where cell.waitingSince == nil {
            shownChanges.append(ShownChange(url: cell.url, bytes: -cell.bitmapBytes))
        }
        cells = Array(repeating: nil, count: cells.count)
        visible = 0..<0
    }
}
