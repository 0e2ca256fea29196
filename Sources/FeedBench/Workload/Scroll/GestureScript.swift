/// A scroll session written as gestures, starting at the top of the feed (offset 0), and its
/// expansion into per-frame offsets. How `ScrollBehavior` builds traces, and how tests state
/// exact scrolling.
///
/// `append` resolves each gesture against the offset where the previous one left the content,
/// so `duration` and `endOffset` are always current. Offsets never go below 0: a drag or fling
/// toward the top stops there, and a `reverse` goes back at most to the top.
///
/// Complexity: `append` is O(1); expansion is O(gestures + frames), one closed-form evaluation
/// per frame (no numerical integration, so no drift over long sessions).
public struct GestureScript: Sendable {
    /// The height of one row in points: the unit of `reverse`.
    public let rowHeight: Double
    /// The gestures, in order.
    public private(set) var gestures: [ScrollGesture] = []
    /// The total time of the gestures, in nanoseconds.
    public private(set) var duration: Int64 = 0
    /// The offset after the last gesture.
    public private(set) var endOffset: Double = 0
    private var segments: [Segment] = []

    public init(rowHeight: Double, gestures: [ScrollGesture] = []) {
        precondition(rowHeight > 0 && rowHeight.isFinite, "GestureScript: rowHeight must be positive")
        self.rowHeight = rowHeight
        for gesture in gestures { append(gesture) }
    }

    /// Adds `gesture` after the others. O(1).
    public mutating func append(_ gesture: ScrollGesture) {
        let motion: Motion
        switch gesture {
        case let .drag(velocity, duration):
            precondition(velocity.isFinite && duration >= 0, "GestureScript: drag needs a finite velocity and a duration ≥ 0")
            motion = .linear(velocity: velocity, duration: duration, distance: velocity * Double(duration) / 1e9)
        case let .fling(velocity, rate):
            motion = .fling(FlingPath(velocity: velocity, rate: rate))
        case let .dwell(duration):
            precondition(duration >= 0, "GestureScript: dwell needs a duration ≥ 0")
            motion = .linear(velocity: 0, duration: duration, distance: 0)
        case let .reverse(rows, how):
            precondition(rows >= 0, "GestureScript: reverse needs rows ≥ 0")
            let distance = min(Double(rows) * rowHeight, endOffset)
            switch how {
            case let .drag(speed):
                precondition(speed > 0 && speed.isFinite, "GestureScript: reverse needs a positive speed")
                let duration = Int64((distance / speed * 1e9).rounded(.up))
                motion = .linear(velocity: -speed, duration: duration, distance: -distance)
            case let .fling(rate):
                motion = .fling(FlingPath(distance: -distance, rate: rate))
            }
        }
        let segment = Segment(start: duration, from: endOffset, motion: motion)
        gestures.append(gesture)
        segments.append(segment)
        duration += segment.motion.duration
        endOffset = segment.offset(after: segment.motion.duration)
    }

    /// The offsets of `frameCount` frames `frameInterval` ns apart from time 0; frames after the
    /// last gesture hold `endOffset`. O(gestures + frameCount).
    public func offsets(frameInterval: Int64, frameCount: Int) -> [Double] {
        precondition(frameInterval > 0 && frameCount >= 0, "GestureScript.offsets: out of range")
        var offsets = [Double]()
        offsets.reserveCapacity(frameCount)
        var time: Int64 = 0
        for segment in segments {
            let end = segment.start + segment.motion.duration
            while offsets.count < frameCount, time < end {
                offsets.append(segment.offset(after: time - segment.start))
                time += frameInterval
            }
        }
        while offsets.count < frameCount { offsets.append(endOffset) }
        return offsets
    }

    /// The whole script as a trace at `refreshRate` Hz: every frame from time 0 up to and
    /// including the first at or after `duration`, which shows `endOffset`.
    public func trace(name: String, refreshRate: Int) -> ScrollTrace {
        let interval = ScrollTrace.frameInterval(refreshRate: refreshRate)
        let frames = Int((duration + interval - 1) / interval) + 1
        return ScrollTrace(name: name, frameInterval: interval, offsets: offsets(frameInterval: interval, frameCount: frames))
    }

    /// A gesture resolved against its starting offset.
    private struct Segment: Sendable {
        var start: Int64
        var from: Double
        var motion: Motion

        /// The offset `elapsed` ns into the segment, clamped at the top of the feed.
        func offset(after elapsed: Int64) -> Double {
            max(0, from + motion.displacement(after: elapsed))
        }
    }

    /// Movement relative to a segment's start, in points (signed).
    private enum Motion: Sendable {
        /// Constant velocity, ending exactly at `distance` (drags, dwells, reverse drags).
        case linear(velocity: Double, duration: Int64, distance: Double)
        case fling(FlingPath)

        var duration: Int64 {
            switch self {
            case let .linear(_, duration, _): duration
            case let .fling(path): path.duration
            }
        }

        func displacement(after elapsed: Int64) -> Double {
            switch self {
            case let .linear(velocity, duration, distance):
                elapsed >= duration ? distance : velocity * Double(elapsed) / 1e9
            case let .fling(path):
                path.displacement(after: elapsed)
            }
        }
    }
}
