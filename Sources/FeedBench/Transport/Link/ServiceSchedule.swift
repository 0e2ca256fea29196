/// When the bottleneck's queued bytes leave it: the downlink's service schedule, in wire bytes
/// and nanoseconds. Every preset and network file today is a fixed rate; this is the one place a
/// link whose rate varies (a recorded trace of delivery opportunities) would answer instead.
struct ServiceSchedule: Sendable {
    /// Wire bytes served a nanosecond: the downlink's rate.
    let wirePerNanosecond: Double

    init(bitsPerSecond: Int64) {
        wirePerNanosecond = Double(bitsPerSecond) / 8e9
    }

    /// The wire bytes the link serves from `start` to `end` (none when `end` is not later). O(1).
    func capacity(from start: Int64, to end: Int64) -> Double {
        wirePerNanosecond * Double(max(0, end - start))
    }

    /// When `wire` bytes whose service starts at `start` will have left, rounded up to the
    /// nanosecond. O(1).
    func departure(of wire: Double, from start: Int64) -> Int64 {
        start + Int64((wire / wirePerNanosecond).rounded(.up))
    }

    /// How long a byte arriving at `start` waits behind `wire` bytes queued before it, rounded
    /// down to the nanosecond. O(1).
    func wait(behind wire: Double, from start: Int64) -> Int64 {
        Int64(wire / wirePerNanosecond)
    }
}
