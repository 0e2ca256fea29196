/// Tracked memory over a run — memory-cache bytes, bitmaps held by visible cells, in-flight
/// download buffers — with its peak and its time-weighted mean (each level weighted by how long
/// it lasted). O(1) per update.
public struct MemoryMeter: Sendable {
    public private(set) var current: Int64 = 0
    public private(set) var peak: Int64 = 0
    var lastChange: Int64
    var start: Int64
    /// ∫ memory dt, in byte-nanoseconds (a Double: 2^63 byte-ns is only ~9 GB·s).
    var area: Double = 0

    public init(startingAt time: Int64) {
        lastChange = time
        start = time
    }

    /// Records that memory is `bytes` from `time` on.
    public mutating func record(_ bytes: Int64, at time: Int64) {
        area += Double(current) * Double(time - lastChange)
        lastChange = time
        current = bytes
        peak = max(peak, bytes)
    }

    /// Stops the clock of the mean (the app is in the background between launches).
    public mutating func pause(at time: Int64) {
        area += Double(current) * Double(time - lastChange)
        lastChange = time
    }

    /// Restarts it after a pause begun at the last change, leaving the paused span out.
    public mutating func resume(at time: Int64) {
        start += time - lastChange
        lastChange = time
    }

    /// The time-weighted mean from the start up to `time`.
    public func mean(upTo time: Int64) -> Int64 {
        let total = area + Double(current) * Double(time - lastChange)
        let span = time - start
        return span > 0 ? Int64((total / Double(span)).rounded()) : current
    }
}
