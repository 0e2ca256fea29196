/// What a run's frames came to on the main thread (`MainThread`): the frames during which the
/// feed scrolled, how many were late, and the hitch time, as Apple's tools count them.
/// Times are nanoseconds.
public struct FrameFigures: Sendable, Equatable {
    /// Frames during which the feed scrolled, and their total duration.
    public var frames = 0
    public var scrollingTime: Int64 = 0
    /// Frames presented after their deadline.
    public var framesLate = 0
    /// The time the screen held a frame longer than one refresh interval, in total and at most.
    public var hitchTime: Int64 = 0
    public var longestHitch: Int64 = 0

    public init() {}

    /// Hitch time per second of scrolling, in milliseconds per second with 3 decimals
    /// (MetricKit's `scrollHitchTimeRatio`); 0 when the feed never scrolled.
    public var hitchRatio: String { FixedPoint.ratio(hitchTime * 1_000, scrollingTime, decimals: 3) }

    /// Apple's band for a hitch time ratio in ms/s (WWDC20 session 10077, Tech Talk 10855):
    /// good under 5, warning under 10, critical from 10.
    public static func band(msPerSecond ratio: Double) -> String {
        ratio < 5 ? "good" : ratio < 10 ? "warning" : "critical"
    }
}
