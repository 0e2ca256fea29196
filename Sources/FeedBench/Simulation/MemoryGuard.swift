/// The app's tracked memory against the device's limits (docs/model.md#memory-warnings-and-the-os): it keeps the level
/// over time (`MemoryMeter`), and says when a level crosses the memory warning (once per
/// crossing, when the pipeline responds to warnings) or the jetsam limit.
struct MemoryGuard {
    /// What a level of tracked memory calls for.
    enum Verdict: Equatable {
        case fine
        /// The warning threshold was crossed: the memory cache is cleared.
        case warning
        /// Above the jetsam limit: the app is killed.
        case jetsam
    }

    let warningBytes: Int64
    let jetsamBytes: Int64
    let respondsToWarnings: Bool
    private(set) var meter = MemoryMeter(startingAt: 0)
    /// Whether the level is above the warning threshold since it last crossed it.
    private var warned = false

    init(profile: DeviceProfile, respondsToWarnings: Bool) {
        warningBytes = profile.memoryWarningBytes
        jetsamBytes = profile.jetsamLimitBytes
        self.respondsToWarnings = respondsToWarnings
    }

    /// The run starts at `time` with nothing tracked. O(1).
    mutating func start(at time: Int64) { meter = MemoryMeter(startingAt: time) }

    /// The level is `bytes` from `time` on. O(1).
    mutating func record(_ bytes: Int64, at time: Int64) { meter.record(bytes, at: time) }

    /// What the level `tracked` calls for: jetsam above its limit; a warning when it crosses
    /// the threshold (not again until it has fallen below). O(1).
    mutating func judge(_ tracked: Int64) -> Verdict {
        if tracked > jetsamBytes { return .jetsam }
        guard tracked > warningBytes, respondsToWarnings else {
            warned = false
            return .fine
        }
        if warned { return .fine }
        warned = true
        return .warning
    }

    /// The app is in the background from `time` to `resume(at:)`: not counted in the mean. O(1).
    mutating func pause(at time: Int64) { meter.pause(at: time) }
    mutating func resume(at time: Int64) { meter.resume(at: time) }
}
