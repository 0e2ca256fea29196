/// What a run records beyond its results row, each when asked for: every display in order
/// (`recordsDisplays`, for tests and request-by-request callers) and the run's seconds
/// (`recordsTimeline`). The request log is the pipeline's (`RequestRecorder`). A recorder not asked
/// for ignores what it is given; callers on hot paths check first, so as not to build it.
struct RunRecorders {
    /// Whether to keep `displayLog` (off by default: it grows with the run).
    var recordsDisplays = false
    let recordsTimeline: Bool
    /// Every display in order, when `recordsDisplays` is on.
    private(set) var displayLog: [DisplayRecord] = []
    /// The display each waiting image's cell made, by its URL (order never read).
    private var waiting: [UInt64: Int] = [:]
    private var timeline = TimelineRecorder()

    init(recordsTimeline: Bool) {
        self.recordsTimeline = recordsTimeline
    }

    /// The run's seconds so far (all of them once the run has ended).
    var seconds: [TimelineSecond] { timeline.seconds }

    /// `url` was displayed at `time` with `outcome`, its image shown on that frame or not. O(1).
    mutating func display(_ url: UInt64, at time: Int64, outcome: DisplayOutcome, shown: Bool) {
        guard recordsDisplays else { return }
        if !shown { waiting[url] = displayLog.count }
        displayLog.append(DisplayRecord(time: time, url: url, outcome: outcome, shown: shown ? time : nil, stalled: !shown))
    }

    /// The cell that has waited for `url` since `since` showed it at `time` (`shown`), or stopped
    /// waiting without it. O(1).
    mutating func waitEnded(_ url: UInt64, since: Int64, at time: Int64, shown: Bool) {
        guard recordsDisplays, let index = waiting.removeValue(forKey: url), displayLog[index].time == since else { return }
        if shown { displayLog[index].shown = time }
    }

    /// The clock reached `time` with the run's totals at `counters`. O(seconds passed).
    mutating func advance(to time: Int64, counters: TimelineCounters) {
        if recordsTimeline { timeline.advance(to: time, counters: counters) }
    }

    /// Tracked memory is `parts` now. O(1).
    mutating func observe(_ parts: MemoryParts) {
        if recordsTimeline { timeline.observe(parts) }
    }

    /// Launch `index` starts at `time`. O(1).
    mutating func startLaunch(_ index: Int, at time: Int64, counters: TimelineCounters,
                              parts: MemoryParts) {
        if recordsTimeline { timeline.startLaunch(index, at: time, counters: counters, parts: parts) }
    }

    /// The launch ends with the run's totals at `counters`. O(1).
    mutating func endLaunch(counters: TimelineCounters) {
        if recordsTimeline { timeline.endLaunch(counters: counters) }
    }
}
