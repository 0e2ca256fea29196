/// A run's counts as the app plays it — displays and how each was served, stalls and every
/// display's wait, first images, API calls, memory warnings and kills, each launch's figures —
/// told in verbs as things happen, and written into the results row when the run ends, beside
/// what the app's other parts measured (`finish`).
struct RunTally: Sendable {
    private(set) var displays = 0
    private var memoryHits = 0
    private var diskHits = 0
    private var inflightHits = 0
    private var misses = 0
    private var reshownViewed = 0
    /// Each stalled display's wait, and every display's (0 for those shown on their frame).
    private(set) var stalls = StallHistogram()
    private var displayLatency = StallHistogram()
    private var firstImageTimes: [Int64] = []
    /// API calls that reached the server (or left the device: a live one may say it did not).
    private(set) var apiRequests = 0
    private(set) var memoryWarnings = 0
    private(set) var jetsamKills = 0
    private var launchFigures: [LaunchFigures] = []

    /// A cell was displayed, served as `outcome`; `shownOnItsFrame` when its image was on screen
    /// at once (it waited 0); `reshown` when it showed an image viewed in an earlier launch.
    /// O(1).
    mutating func displayed(_ outcome: DisplayOutcome, shownOnItsFrame: Bool, reshown: Bool) {
        displays += 1
        if reshown { reshownViewed += 1 }
        switch outcome {
        case .memoryHit: memoryHits += 1
        case .diskHit: diskHits += 1
        case .inflightHit: inflightHits += 1
        case .miss: misses += 1
        }
        if shownOnItsFrame { displayLatency.recordNoWait() }
    }

    /// A displayed cell waited `wait` nanoseconds for its image (it arrived, failed, or the cell
    /// left or the launch ended first). O(1).
    mutating func stalled(for wait: Int64) {
        stalls.record(nanoseconds: wait)
        displayLatency.record(nanoseconds: wait)
    }

    /// A launch showed its first image `time` after it started. O(1).
    mutating func showedFirstImage(after time: Int64) {
        firstImageTimes.append(time)
    }

    /// An API call left the device. O(1).
    mutating func apiCallSent() { apiRequests += 1 }

    /// The last API call counted never left the device after all (a live server said the network
    /// was down). O(1).
    mutating func apiCallRetracted() { apiRequests -= 1 }

    /// The app got a memory warning. O(1).
    mutating func memoryWarning() { memoryWarnings += 1 }

    /// The app was killed by jetsam. O(1).
    mutating func killed() { jetsamKills += 1 }

    /// A launch ended with `figures`. O(1).
    mutating func launchEnded(_ figures: LaunchFigures) { launchFigures.append(figures) }

    /// Writes the counts into `result`, with what the other parts measured: the memory
    /// `meter` up to `end`, the main thread's `frames`, the pipeline's `downloads` (those
    /// downloaded by prefetches never displayed, by `wasDisplayed`, are wasted), the timeline's
    /// `seconds` and the requests logged. O(downloads).
    func finish(into result: inout RunResult, memory meter: MemoryMeter, until end: Int64, frames: FrameFigures,
                downloads: PipelineFigures, wasDisplayed: (UInt64) -> Bool, seconds: [TimelineSecond]) {
        result.displays = displays
        result.memoryHits = memoryHits
        result.diskHits = diskHits
        result.inflightHits = inflightHits
        result.misses = misses
        result.stalls = stalls
        result.stalls.sortWaits()
        result.displayLatency = displayLatency
        result.displayLatency.sortWaits()
        result.firstImageTimes = firstImageTimes
        result.apiRequests = apiRequests
        result.memoryWarnings = memoryWarnings
        result.jetsamKills = jetsamKills
        result.reshownViewed = reshownViewed
        result.launchFigures = launchFigures
        result.peakMemoryBytes = meter.peak
        result.meanMemoryBytes = meter.mean(upTo: end)
        result.frames = frames
        result.evictions = downloads.evictions
        result.imageRequests = downloads.imageRequests
        result.cancelledRequests = downloads.cancelledRequests
        result.bytesDownloaded = downloads.bytesDownloaded
        result.wastedPrefetches = downloads.prefetchDownloads.filter { !wasDisplayed($0) }.count
        result.timeline = seconds
        result.requests = downloads.requests
    }
}
