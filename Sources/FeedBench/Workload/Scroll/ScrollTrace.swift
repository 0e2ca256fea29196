/// A scroll session as the feed sees it: the desired content offset (points from the top of the
/// feed, ≥ 0) on every frame, frame `i` at time `i × frameInterval`. The input of the simulator,
/// which clamps these offsets to the content that exists.
///
/// Built by a `GestureScript`, a `ScrollBehavior` generator or `RecordedScrollTrace.read`;
/// written as CSV `t_ms,offset_pt` by `write(to:)`.
public struct ScrollTrace: Sendable, Equatable {
    /// What the trace is called in results: a behaviour's name or a recorded file's base name.
    public var name: String
    /// Nanoseconds between frames (`frameInterval(refreshRate:)`).
    public var frameInterval: Int64
    /// The offset in points on each frame.
    public var offsets: [Double]

    public init(name: String, frameInterval: Int64, offsets: [Double]) {
        precondition(frameInterval > 0, "ScrollTrace: frameInterval must be positive")
        self.name = name
        self.frameInterval = frameInterval
        self.offsets = offsets
    }

    /// The time the frames cover, in nanoseconds: `offsets.count × frameInterval` (each frame
    /// is on screen for one interval).
    public var duration: Int64 { Int64(offsets.count) * frameInterval }

    /// The longest trace FeedBench generates or reads: 24 hours (10.4 million frames at
    /// 120 Hz, 83 MB of offsets).
    public static let maximumDuration: Int64 = 24 * 3600 * 1_000_000_000

    /// The frame interval of a display refreshing `hz` times a second, in nanoseconds rounded to
    /// the nearest: 60 → 16_666_667, 120 → 8_333_333.
    public static func frameInterval(refreshRate hz: Int) -> Int64 {
        precondition(hz > 0, "ScrollTrace.frameInterval: refresh rate must be positive")
        return (1_000_000_000 + Int64(hz) / 2) / Int64(hz)
    }

    /// The time of frame `i` in whole microseconds, rounded half up: the resolution of `t_ms`
    /// in files, and the grid `RecordedScrollTrace` resamples on.
    static func frameMicroseconds(_ i: Int, frameInterval: Int64) -> Int64 {
        (Int64(i) * frameInterval + 500) / 1000
    }
}

extension ScrollTrace {
    /// The CSV columns: time in milliseconds, offset in points.
    public static let columns = ["t_ms", "offset_pt"]

    /// The trace as CSV: the header `t_ms,offset_pt`, then one line per frame with `t_ms` to
    /// 3 decimals (the frame time rounded to the microsecond) and `offset_pt` to 2 decimals,
    /// formatted exactly and locale-free. Reading it back with `RecordedScrollTrace` at the same
    /// refresh rate gives the same frames, each offset within 0.005 pt.
    public var csv: String {
        var bytes = Array((ScrollTrace.columns.joined(separator: ",") + "\n").utf8)
        appendRows(offsets.indices, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes `csv` to `path` atomically: a reader sees the previous file or the whole new one.
    /// O(frames) time, O(1) memory beyond the trace.
    public func write(to path: String) throws {
        let file = try AtomicFile(path: path)
        try file.write(ScrollTrace.columns.joined(separator: ",") + "\n")
        var bytes: [UInt8] = []
        bytes.reserveCapacity(1 << 16)
        for start in stride(from: 0, to: offsets.count, by: 2048) {
            appendRows(start..<min(start + 2048, offsets.count), to: &bytes)
            try file.write(bytes: bytes)
            bytes.removeAll(keepingCapacity: true)
        }
        try file.commit()
    }

    private func appendRows(_ frames: Range<Int>, to bytes: inout [UInt8]) {
        for i in frames {
            let micros = ScrollTrace.frameMicroseconds(i, frameInterval: frameInterval)
            FixedPoint.appendFixed(scaled: UInt64(micros), decimals: 3, to: &bytes)
            bytes.append(UInt8(ascii: ","))
            FixedPoint.appendDecimal(offsets[i], decimals: 2, to: &bytes)
            bytes.append(UInt8(ascii: "\n"))
        }
    }
}
