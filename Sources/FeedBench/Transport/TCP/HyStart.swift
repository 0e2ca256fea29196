/// CUBIC's hybrid slow start (HyStart), the part of a connection's congestion state that ends
/// slow start before a loss does, with ns-3 3.44's `TcpCubic` defaults (the reference check
/// runs them). It looks only at windows of at least `lowWindow` segments. Its delay detector
/// takes the least of a round's first `samples` round trips (acknowledgements come every second
/// segment) and fires when it exceeds the minimum by the minimum clamped to `delayThreshold`;
/// its train detector takes acknowledgements at most `trainSpacing` apart as one train, and
/// fires when a round's train lasts longer than the minimum round trip. Linux's thresholds are
/// lower (RTT/8 clamped to 4–16 ms, half a round trip for the train): it leaves slow start
/// sooner.
struct HyStart: Sendable {
    static let lowWindow = 16.0
    static let samples = 8.0
    static let delayThreshold: ClosedRange<Int64> = 4_000_000...1_000_000_000
    static let trainSpacing: Int64 = 2_000_000

    /// Nanoseconds a segment (with its headers) takes to leave the bottleneck, when two of them
    /// leave within `trainSpacing` (their acknowledgements form trains); `nil` on a slower or
    /// unknown link, where the train detector never fires.
    let trainSegmentDrain: Double?
    /// The least round trip since the last timeout.
    private var minimumRoundTrip: Int64?

    init(bottleneckBitsPerSecond: Int64?, segmentWire: Double) {
        let drain = bottleneckBitsPerSecond.map { segmentWire * 8e9 / Double($0) }
        trainSegmentDrain = drain.flatMap { Int64(2 * $0) <= Self.trainSpacing ? $0 : nil }
    }

    /// The most a slow-start round grows the window in the round HyStart ends it: what the
    /// acknowledgements of its first samples add.
    static func growthBeforeExit(segment: Double) -> Double { 2 * samples * segment }

    /// Whether slow start ends after a round of `bytes` acknowledged, measured at `roundTrip`,
    /// with `window` (`segment` bytes a segment); the round trip counts toward the minimum.
    /// The delay detector needs more than `samples` acknowledgements in the round. O(1).
    mutating func finds(roundTrip: Int64, acknowledged bytes: Double, window: Double, segment: Double) -> Bool {
        let minimum = min(minimumRoundTrip ?? roundTrip, roundTrip)
        minimumRoundTrip = minimum
        guard window >= Self.lowWindow * segment else { return false }
        let threshold = min(max(minimum, Self.delayThreshold.lowerBound), Self.delayThreshold.upperBound)
        if bytes > Self.growthBeforeExit(segment: segment) && roundTrip > minimum + threshold { return true }
        guard let drain = trainSegmentDrain else { return false }
        return bytes / segment * drain > Double(minimum)
    }

    /// A retransmission timeout: the minimum is forgotten (ns-3 resets HyStart on entering loss).
    mutating func timedOut() { minimumRoundTrip = nil }
}
