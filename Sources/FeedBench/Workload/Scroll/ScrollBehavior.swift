/// The built-in synthetic scrollers: seeded models of how people move through an image feed,
/// each expanding into a `ScrollTrace` at any refresh rate and screen size.
///
/// Velocities scale with the viewport height (a flick on a tablet moves the content further
/// than on a phone); figures in brackets are for the iPhone SE's 667-point viewport. Every
/// fling starts with a short drag at its release velocity (the finger's travel). Dwell times
/// are log-normal with the given mean and σ (of the logarithm); uniform ranges are written a…b.
public enum ScrollBehavior: String, CaseIterable, Sendable {
    /// Reads each item: dwells 6 s on average (log-normal, σ 0.5), then drags slowly about one
    /// row on (0.8…1.2 rows over 0.35…0.7 s, [≈ 400–1300 pt/s at 375-pt rows]). Covers
    /// roughly a row every 6.5 s.
    case reader
    /// Flicks through at a steady pace: a 0.08 s drag, then a normal-rate (0.998) fling at
    /// 2…4.5 viewports/s [1334–3000 pt/s], coasting ≈ 1–2.25 viewports; then dwells 1.2 s
    /// on average (log-normal, σ 0.6).
    case browser
    /// Races through: a 0.06 s drag, then a fast-rate (0.99) fling at 8…16 viewports/s
    /// [5336–10672 pt/s], coasting ≈ 0.8–1.6 viewports; then dwells 0.15 s on average
    /// (log-normal, σ 0.5) before the next flick.
    case skimmer
    /// A browser that looks back: after each browser fling and dwell, with probability 0.4 it
    /// reverses k rows, k = 1 + a geometric count (success probability 0.45, mean k ≈ 2.2,
    /// at most 12), by a drag at 1.5…3 viewports/s when k ≤ 2 and a normal-rate fling landing
    /// exactly k rows back otherwise, then dwells 2.5 s on average (log-normal, σ 0.5).
    case revisitor

    /// One line for help texts.
    public var summary: String {
        switch self {
        case .reader: "long dwells (mean 6 s), slow drags of about a row"
        case .browser: "steady normal-rate flings of 1–2 screens, short dwells (mean 1.2 s)"
        case .skimmer: "fast repeated high-velocity flings, very short dwells (mean 0.15 s)"
        case .revisitor: "like browser, but 4 times in 10 scrolls back k rows (mean 2.2) to look again"
        }
    }

    /// The stream of the run's seed that scroll traces draw from.
    static let randomStream: UInt64 = 0x5343_524f_4c4c  // "SCROLL"

    /// A trace of this behaviour, named after it: `duration / frameInterval(refreshRate)` frames
    /// (whole frames only) starting at offset 0. Same arguments, same trace, on every platform;
    /// offsets are never negative. O(frames).
    public func trace(seed: UInt64, duration: Int64, refreshRate: Int, rowHeight: Double, viewportHeight: Double) -> ScrollTrace {
        precondition(duration >= 0 && duration <= ScrollTrace.maximumDuration, "ScrollBehavior.trace: duration out of range")
        precondition(viewportHeight > 0 && viewportHeight.isFinite, "ScrollBehavior.trace: viewportHeight must be positive")
        let interval = ScrollTrace.frameInterval(refreshRate: refreshRate)
        var generator = SeededGenerator(seed: seed, stream: ScrollBehavior.randomStream)
        var script = GestureScript(rowHeight: rowHeight)
        while script.duration < duration {
            appendCycle(to: &script, viewportHeight: viewportHeight, using: &generator)
        }
        let frames = Int(duration / interval)
        return ScrollTrace(name: rawValue, frameInterval: interval, offsets: script.offsets(frameInterval: interval, frameCount: frames))
    }

    /// Appends one round of the behaviour (some movement and a pause); every round takes time.
    private func appendCycle(to script: inout GestureScript, viewportHeight: Double, using generator: inout SeededGenerator) {
        func uniform(_ range: ClosedRange<Double>) -> Double {
            range.lowerBound + (range.upperBound - range.lowerBound) * generator.nextUnit()
        }
        func dwell(mean seconds: Double, sigma: Double) {
            let drawn = LogNormalDistribution(mean: seconds, sigma: sigma).sample(using: &generator)
            script.append(.dwell(duration: Int64((drawn * 1e9).rounded())))
        }
        func flick(viewportsPerSecond: ClosedRange<Double>, touch seconds: Double, rate: DecelerationRate) {
            let velocity = uniform(viewportsPerSecond) * viewportHeight
            script.append(.drag(velocity: velocity, duration: Int64((seconds * 1e9).rounded())))
            script.append(.fling(velocity: velocity, deceleration: rate))
        }

        switch self {
        case .reader:
            dwell(mean: 6, sigma: 0.5)
            let distance = uniform(0.8...1.2) * script.rowHeight
            let seconds = uniform(0.35...0.7)
            script.append(.drag(velocity: distance / seconds, duration: Int64((seconds * 1e9).rounded())))
        case .browser:
            flick(viewportsPerSecond: 2...4.5, touch: 0.08, rate: .normal)
            dwell(mean: 1.2, sigma: 0.6)
        case .skimmer:
            flick(viewportsPerSecond: 8...16, touch: 0.06, rate: .fast)
            dwell(mean: 0.15, sigma: 0.5)
        case .revisitor:
            flick(viewportsPerSecond: 2...4.5, touch: 0.08, rate: .normal)
            dwell(mean: 1.2, sigma: 0.6)
            if generator.chance(0.4) {
                var rows = 1
                while rows < 12, !generator.chance(0.45) { rows += 1 }
                let motion: ScrollGesture.ReverseMotion = rows <= 2
                    ? .drag(speed: uniform(1.5...3) * viewportHeight)
                    : .fling(.normal)
                script.append(.reverse(rows: rows, motion: motion))
                dwell(mean: 2.5, sigma: 0.5)
            }
        }
    }
}
