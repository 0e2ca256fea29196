import Foundation

/// A recorded link in Mahimahi's format (`mm-link`): one line per opportunity for 1,500 bytes
/// to leave the queue and cross the link, its time in milliseconds from the recording's start;
/// several opportunities in one millisecond repeat the time. The recording repeats at its end,
/// its last time being the period, so a file holding `1` is a fixed 12 Mbit/s link.
///
/// Queries count opportunities over any stretch of time in O(1) (a count for each millisecond
/// of a period up to an hour; a binary search of the times, O(log n), beyond), never one packet
/// at a time.
public struct DeliveryTrace: Sendable {
    /// The bytes one opportunity serves: Mahimahi's 1,504-byte TUN payload less its 4-byte
    /// header, one full IP packet (the model counts a segment's wire bytes as its IP packet).
    public static let opportunityWire = 1_500.0
    /// The longest recording read: 24 hours, as every time FeedBench reads.
    static let longestMilliseconds: UInt32 = 86_400_000
    /// The most opportunities read: 20 million (80 MB of times), more than a day at 100 Mbit/s
    /// would need only for a recording no one makes.
    static let mostOpportunities = 20_000_000

    /// The file as read (an absolute path), for network files and messages.
    public let path: String
    /// Each opportunity's time in milliseconds, non-decreasing, the last one the period.
    let milliseconds: [UInt32]

    /// The recording's period: its last time, in nanoseconds.
    public var period: Int64 { Int64(milliseconds[milliseconds.count - 1]) * 1_000_000 }

    /// Opportunities in one period.
    public var count: Int { milliseconds.count }

    /// The file's name without its folder.
    public var name: String { path.split(separator: "/").last.map(String.init) ?? path }

    /// For each millisecond of the period, the opportunities at or before it: the count in O(1)
    /// where a binary search takes O(log n). Kept for periods up to `longestIndexed` (4 bytes a
    /// millisecond: 14 MB for an hour); empty beyond, where queries search.
    let atOrBefore: [UInt32]
    /// The longest period indexed by the millisecond: an hour.
    static let longestIndexed: UInt32 = 3_600_000

    /// A trace of `milliseconds` (non-decreasing, the last above 0) named `path`. O(n + period
    /// in ms).
    init(path: String, milliseconds: [UInt32]) {
        precondition(!milliseconds.isEmpty && milliseconds[milliseconds.count - 1] > 0, "DeliveryTrace: an empty recording")
        self.path = path
        self.milliseconds = milliseconds
        let period = milliseconds[milliseconds.count - 1]
        guard period <= Self.longestIndexed else {
            atOrBefore = []
            return
        }
        var index = [UInt32](repeating: 0, count: Int(period) + 1)
        for time in milliseconds { index[Int(time)] += 1 }
        for ms in 1..<index.count { index[ms] += index[ms - 1] }
        atOrBefore = index
    }

    /// Reads the recording at `path` (relative paths from the working folder). Refused in one
    /// line with its line: a missing or unreadable file, a line that is not a whole number of
    /// milliseconds up to 24 h, a time earlier than the line before's, no opportunity, or none
    /// after 0 (a recording must last). Blank lines are skipped. O(lines).
    /// A file is read once a process (`read` keeps it by its absolute path): a network file
    /// that names a recorded preset and its recording reads it once, not twice.
    public static func read(path: String) throws -> DeliveryTrace {
        let path = absolute(path)
        if let trace = readFiles.withLock({ $0[path] }) { return trace }
        let trace = try parse(LineReader(path: path, maxLineLength: 64))
        readFiles.withLock { $0[path] = trace }
        return trace
    }

    /// The recordings read so far, by absolute path (never listed: its order is never seen).
    private static let readFiles = Locked([String: DeliveryTrace]())

    /// The recording `reader` streams. O(lines).
    static func parse(_ reader: LineReader) throws -> DeliveryTrace {
        var times: [UInt32] = []
        // Lines of Mahimahi's recordings average 6 bytes: room for that many, grown if need be.
        if case .file = reader.input, let size = try? FileManager.default.attributesOfItem(atPath: reader.path)[.size] as? Int {
            times.reserveCapacity(min(mostOpportunities, size / 6 + 1))
        }
        try reader.forEachLine { bytes, line in
            var start = 0, end = bytes.count
            while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
            while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
            guard start < end else { return }
            var value: UInt64 = 0
            var digits = true
            for i in start..<end {
                let byte = bytes[i]
                guard byte >= 0x30 && byte <= 0x39, value <= UInt64(longestMilliseconds) else { digits = false; break }
                value = value * 10 + UInt64(byte - 0x30)
            }
            guard digits, value <= UInt64(longestMilliseconds) else {
                let found = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
                throw InputError(source: reader.path, line: line,
                                 "expected a delivery opportunity's time in whole milliseconds from 0 to \(longestMilliseconds) (24 h), found \(InputError.quote(found))")
            }
            if let last = times.last, UInt32(value) < last {
                throw InputError(source: reader.path, line: line, "expected a time no earlier than the line before's \(last) ms, found \(value)")
            }
            guard times.count < mostOpportunities else {
                throw InputError(source: reader.path, line: line, "expected at most \(mostOpportunities) delivery opportunities, found more")
            }
            times.append(UInt32(value))
        }
        guard let last = times.last else {
            throw InputError(source: reader.path, "expected lines of delivery opportunities' times in milliseconds (Mahimahi's format), found none")
        }
        guard last > 0 else {
            throw InputError(source: reader.path, line: times.count,
                             "expected a recording that lasts: its last time is its period, and every opportunity is at 0 ms")
        }
        return DeliveryTrace(path: reader.path, milliseconds: times)
    }

    /// `path` from the root: relative to the working folder.
    static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        let folder = FileManager.default.currentDirectoryPath
        return (folder.hasSuffix("/") ? folder : folder + "/") + path
    }

    // MARK: Counting

    /// Opportunities at times up to `time` (nanoseconds from the recording's start; none before
    /// it), over as many periods as it spans. O(1) for a period of up to an hour, else O(log n).
    func opportunities(through time: Int64) -> Int64 {
        guard time >= 0 else { return 0 }
        let period = self.period
        let cycles = time / period
        let within = UInt32((time - cycles * period) / 1_000_000)
        if !atOrBefore.isEmpty { return cycles * Int64(milliseconds.count) + Int64(atOrBefore[Int(within)]) }
        return cycles * Int64(milliseconds.count) + Int64(searchedCount(through: within))
    }

    /// The times at or before `within` (a millisecond of the period), by binary search. O(log n).
    func searchedCount(through within: UInt32) -> Int {
        var low = 0, high = milliseconds.count
        while low < high {
            let middle = (low + high) / 2
            if milliseconds[middle] <= within { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The time of the `k`-th opportunity (from 1), in nanoseconds from the recording's start.
    /// O(1).
    func time(ofOpportunity k: Int64) -> Int64 {
        precondition(k >= 1, "DeliveryTrace: opportunities count from 1")
        let n = Int64(milliseconds.count)
        let cycle = (k - 1) / n
        return (Int64(milliseconds[Int((k - 1) - cycle * n)]) + cycle * Int64(milliseconds[milliseconds.count - 1])) * 1_000_000
    }
}

extension DeliveryTrace: CustomStringConvertible, CustomDebugStringConvertible {
    /// Its file and size, not its times (a test's message or a profile's description would
    /// otherwise print every one).
    public var description: String {
        "DeliveryTrace(\(path), \(count) opportunities over \(FixedPoint.ratio(period, 1_000_000_000, decimals: 3)) s)"
    }

    public var debugDescription: String { description }
}

extension DeliveryTrace: Hashable {
    public static func == (a: DeliveryTrace, b: DeliveryTrace) -> Bool {
        a.path == b.path && a.milliseconds == b.milliseconds
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(path)
        hasher.combine(milliseconds.count)
        hasher.combine(milliseconds[milliseconds.count - 1])
    }
}
