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
    private var timeline = TimelineRecorder()

    init(recordsTimeline: Bool) {
        self.recordsTimeline = recordsTimeline
    }

    /// The run's seconds so far (all of them once the run has ended).
    var seconds: [TimelineSecond] { timeline.seconds }

    /// `url` was displayed at `time` with `outcome`. O(1).
    mutating func display(_ url: UInt64, at time: Int64, outcome: DisplayOutcome) {
        if recordsDisplays { displayLog.append(DisplayRecord(time: time, url: url, outcome: outcome)) }
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
