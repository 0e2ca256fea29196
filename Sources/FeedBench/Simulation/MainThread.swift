/// The app's main thread, frame by frame: the work it is given (configuring the cells that come
/// on screen, decoding an image at its first draw where the library leaves that to Core
/// Animation) runs in the frame's commit, and a commit that ends after the frame's deadline
/// presents the frame late. What it counts is what Apple's tools count while a scroll view
/// scrolls (WWDC20 session 10077, Tech Talk 10855):
///
/// - a frame is due one refresh interval (`budget`: 16.67 ms at 60 Hz, 8.33 ms at 120 Hz)
///   after its tick; its commit starts at the tick or when the previous work ends, whichever is
///   later, and the frame is presented at the first refresh after the commit ends — `late`
///   when that is after its deadline;
/// - **hitch time** is the time the screen kept showing a frame for longer than one refresh
///   interval: each frame adds how much later it was presented than one interval after the
///   frame before it (or than its own deadline), so a frame late by k intervals is k
///   intervals of hitch, and the late frames queued behind it add no more;
/// - only frames during which the feed scrolled count (MetricKit's `scrollHitchTimeRatio` is
///   per second of scrolling), though work done while it rests still delays the next ones.
///
/// All times are nanoseconds on the run's clock. Every operation is O(1).
struct MainThread {
    /// One refresh interval.
    let budget: Int64
    /// Work given since the last commit, run in the next one.
    private var pending: Int64 = 0
    /// The main thread is busy until then.
    private var busyUntil: Int64 = 0
    /// When the last counted frame was presented; `nil` before the first of a launch. A pause
    /// in the scroll keeps it: a backlog that outlasts the pause is not counted twice.
    private var lastPresented: Int64?
    private(set) var figures = FrameFigures()

    init(budget: Int64) {
        self.budget = budget
    }

    /// Gives the main thread `time` of work, run in the next frame's commit.
    @inline(__always)
    mutating func add(_ time: Int64) { pending += time }

    /// The frame ticking at `tick`, lasting `interval`, commits what was given since the last
    /// one; it counts when the feed `scrolled` during it. Returns the frame's hitch time (0
    /// when it was on time or did not count).
    @inline(__always) @discardableResult
    mutating func commit(at tick: Int64, interval: Int64, scrolled: Bool) -> Int64 {
        let end = max(tick, busyUntil) + pending
        pending = 0
        busyUntil = end
        guard scrolled else { return 0 }
        let deadline = tick + budget
        let presented = end <= deadline ? deadline : deadline + (end - deadline + budget - 1) / budget * budget
        let expected = max(deadline, (lastPresented ?? .min / 2) + budget)
        let hitch = max(0, presented - expected)
        figures.frames += 1
        figures.scrollingTime += interval
        if presented > deadline { figures.framesLate += 1 }
        figures.hitchTime += hitch
        figures.longestHitch = max(figures.longestHitch, hitch)
        lastPresented = max(presented, lastPresented ?? presented)
        return hitch
    }

    /// A launch starts (the app was relaunched or killed): the work under way is gone; the
    /// figures stay.
    mutating func restart() {
        pending = 0
        lastPresented = nil
    }
}
