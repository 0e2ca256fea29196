/// The app's prefetcher (docs/model.md#prefetching): the window of items ahead of (and behind) the screen
/// whose images are loaded before they are needed, in the form `WindowMode` gives — a fixed
/// count, screens, the device's count, the scroll speed, or seed 000's adaptive size, which
/// shrinks under memory pressure and stalls and grows back when both are low.
///
/// It answers in values: `move(…)` returns the window's `Change`, the items that left it and
/// those that entered, and the owner turns them into the pipeline's stop and start calls.
/// Items are indices into the feed, which only ever grows within a launch; the owner adds a
/// slot (`addItem()`) for each item it appends.
struct Prefetcher {
    /// What decides the window's items: its size, the visible items, the scroll direction and
    /// how many items the feed holds. While it stays the same, so does the window.
    struct Request: Equatable {
        var window: PrefetchWindow
        var visible: Range<Int>
        var forward: Bool
        var itemCount: Int
    }

    /// How the window moved: the items that left it (in the old window's order) and those that
    /// entered it (nearest first).
    struct Change {
        fileprivate var old: [Int]
        fileprivate var new: [Int]
        fileprivate var marks: [UInt8]

        var left: Items { Items(indices: old, marks: marks, mark: Mark.left) }
        var entered: Items { Items(indices: new, marks: marks, mark: Mark.entered) }

        /// The items of a window with one mark, in the window's order (no closure, so iterating
        /// allocates nothing).
        struct Items: Sequence, IteratorProtocol {
            fileprivate let indices: [Int]
            fileprivate let marks: [UInt8]
            fileprivate let mark: UInt8
            private var position = 0

            fileprivate init(indices: [Int], marks: [UInt8], mark: UInt8) {
                self.indices = indices
                self.marks = marks
                self.mark = mark
            }

            mutating func next() -> Int? {
                while position < indices.count {
                    defer { position += 1 }
                    if marks[indices[position]] == mark { return indices[position] }
                }
                return nil
            }
        }
    }

    /// An item's mark after a move: in the new window (`entered`), the old (`left`), or both.
    private enum Mark {
        static let entered: UInt8 = 1
        static let left: UInt8 = 2
    }

    /// The window's form, and what it needs of the device.
    struct Sizing {
        let mode: WindowMode
        let grid: Viewport.Grid
        let itemsPerScreen: Int
        /// Seed 000's device-class count.
        let deviceCount: Int

        init(mode: WindowMode, profile: DeviceProfile) {
            self.mode = mode
            grid = Viewport.Grid(profile)
            itemsPerScreen = WindowMode.itemsPerScreen(profile)
            deviceCount = WindowMode.deviceCount(profile)
        }

        /// The window at `speed` points a second, the adaptive window being `adaptiveAhead`. O(1).
        @inline(__always)
        func window(speed: Double, adaptiveAhead: Int) -> PrefetchWindow {
            switch mode {
            case let .items(window): return window
            case let .screens(count): return PrefetchWindow(ahead: Int((count * Double(itemsPerScreen)).rounded(.up)))
            case .device: return PrefetchWindow(ahead: deviceCount)
            case .velocity:
                let coveredRows = Int((speed / grid.cellSide).rounded(.up))
                return PrefetchWindow(ahead: min(100, itemsPerScreen + coveredRows * grid.columns))
            case .adaptive: return PrefetchWindow(ahead: adaptiveAhead)
            }
        }
    }

    let sizing: Sizing
    /// The memory warning threshold the adaptive window watches.
    let warningBytes: Int64
    /// The items in the window, nearest first, and those of the window before it.
    private(set) var window: [Int] = []
    private var previous: [Int] = []
    /// Per item, the `Mark`s of the last move (0 for the items of neither window): comparing
    /// windows through sets of URLs was a tenth of a run.
    private var marks: [UInt8] = []
    private var lastRequest: Request?
    /// The adaptive window's current size, when it last adapted, and the stalls and hitch time
    /// since.
    private(set) var adaptiveAhead = 0
    private var lastAdaptation: Int64 = 0
    private var stallsSinceAdaptation = 0
    private var hitchSinceAdaptation: Int64 = 0
    /// The hitch time in one second over which the adaptive window shrinks: Apple's "good"
    /// hitch time ratio ends at 5 ms/s.
    static let hitchBudgetPerSecond: Int64 = 5_000_000

    init(mode: WindowMode, profile: DeviceProfile) {
        sizing = Sizing(mode: mode, profile: profile)
        warningBytes = profile.memoryWarningBytes
    }

    /// A new launch: an empty window over an empty feed; the adaptive window at its start. O(1).
    mutating func startLaunch(at now: Int64) {
        window = []
        previous = []
        marks = []
        lastRequest = nil
        adaptiveAhead = if case let .adaptive(start) = sizing.mode { start } else { 0 }
        lastAdaptation = now
        stallsSinceAdaptation = 0
        hitchSinceAdaptation = 0
    }

    /// Whether item `index` is in the window. O(1).
    func holds(_ index: Int) -> Bool { marks[index] & Mark.entered != 0 }

    /// The feed appended an item. Amortized O(1).
    mutating func addItem() { marks.append(0) }

    /// The window over `visible` (scrolling `forward`, at `speed` points a second, in a feed of
    /// `itemCount` items); `nil` when it is where it was — most frames, as items are only ever
    /// appended. O(old + new window) when it moved, O(1) otherwise.
    @inline(__always) // once a frame, and most frames end at the first guard
    mutating func move(visible: Range<Int>, forward: Bool, speed: Double, itemCount: Int) -> Change? {
        let request = Request(window: sizing.window(speed: speed, adaptiveAhead: adaptiveAhead), visible: visible, forward: forward,
                              itemCount: itemCount)
        guard request != lastRequest else { return nil }
        return move(to: request)
    }

    /// The window for `request`, a new one; `nil` when it holds the same items.
    private mutating func move(to request: Request) -> Change? {
        lastRequest = request
        let wanted = request.window.items(visible: request.visible, forward: request.forward, itemCount: request.itemCount)
        guard wanted != window else { return nil }
        for index in previous { marks[index] = 0 }
        for index in window { marks[index] = Mark.left }
        for index in wanted { marks[index] = marks[index] == Mark.left ? Mark.left | Mark.entered : Mark.entered }
        previous = window
        window = wanted
        return Change(old: previous, new: window, marks: marks)
    }

    /// The window the prefetcher uses at `speed` points a second, by its form. O(1).
    func currentWindow(speed: Double) -> PrefetchWindow { sizing.window(speed: speed, adaptiveAhead: adaptiveAhead) }

    /// A cell waited for its image (the adaptive window counts them). O(1).
    mutating func noteStall() { stallsSinceAdaptation += 1 }

    /// A frame hitched for `time` (the adaptive window counts it). O(1).
    @inline(__always)
    mutating func noteHitch(_ time: Int64) { hitchSinceAdaptation += time }

    /// Where a level of tracked memory falls for the adaptive window: above 80 % of the warning
    /// threshold, below 60 %, or between.
    enum MemoryBand { case low, middle, high }

    /// The band of `level`, as `adapt` reads it. O(1).
    func memoryBand(_ level: Int64) -> MemoryBand {
        let threshold = Double(warningBytes)
        let level = Double(level)
        return level > 0.8 * threshold ? .high : level < 0.6 * threshold ? .low : .middle
    }

    /// Whether `adapt(at: now, …)` would read the memory level. O(1).
    func readsMemory(at now: Int64) -> Bool {
        guard case .adaptive = sizing.mode else { return false }
        return now - lastAdaptation >= 1_000_000_000
    }

    /// Seed 000's feedback loop, once per simulated second (see `WindowMode.adaptive`), with
    /// tracked memory at `memoryLevel`: halve above 80 % of the warning threshold, shrink by a
    /// quarter after more than two stalls or a hitch time ratio over 5 ms/s, grow by a quarter
    /// of the start below 60 % without stalls and within that ratio. O(1).
    mutating func adapt(at now: Int64, memoryLevel: Int64) {
        guard case let .adaptive(start) = sizing.mode, now - lastAdaptation >= 1_000_000_000 else { return }
        let band = memoryBand(memoryLevel)
        if band == .high {
            adaptiveAhead = max(2, adaptiveAhead / 2)
        } else if stallsSinceAdaptation > 2 || hitchSinceAdaptation > Self.hitchBudgetPerSecond {
            adaptiveAhead = max(2, adaptiveAhead - max(1, adaptiveAhead / 4))
        } else if band == .low && stallsSinceAdaptation == 0 {
            adaptiveAhead = min(start, adaptiveAhead + max(1, start / 4))
        }
        lastAdaptation = now
        stallsSinceAdaptation = 0
        hitchSinceAdaptation = 0
    }
}
