/// Scroll sessions recorded in a real app, e.g. logged from `scrollViewDidScroll`: CSV
/// `t_ms,offset_pt`, one sample a line, read and resampled to the simulator's frames.
///
/// Accepted: the header `t_ms,offset_pt` (exactly) or none, CRLF line ends, a UTF-8 byte-order
/// mark, blank lines (skipped). `t_ms` is a non-negative number of milliseconds (fractions
/// allowed, read to the microsecond, at most 24 h), strictly increasing; `offset_pt` a finite
/// number of points ≥ 0 (below 10^15). Refused, with the line and column: any other header,
/// a line without exactly two fields, a field out of those ranges, a sample not at least 1 µs
/// after the one before; and a file with no samples.
///
/// Resampling: frame `i` is taken at `i × frameInterval` rounded to the microsecond, from 0 up
/// to the last sample; its offset is interpolated linearly between the samples around it, and
/// is the first sample's offset before that sample. So a file written by `ScrollTrace.write`
/// reads back frame for frame. O(samples + frames) time, O(samples + frames) memory.
public enum RecordedScrollTrace {
    /// The largest offset accepted, in points: far beyond any feed, small enough to write
    /// back exactly.
    public static let maximumOffset = 1e15

    /// Reads and resamples the trace at `path` for a display at `refreshRate` Hz. The trace is
    /// named after the file, without folder or extension.
    public static func read(path: String, refreshRate: Int) throws -> ScrollTrace {
        try resample(samples(LineReader(path: path)), name: baseName(path), refreshRate: refreshRate)
    }

    /// Reads and resamples a trace already in memory, named `name` in messages (tests, fuzzing).
    public static func read(bytes: [UInt8], name: String, refreshRate: Int) throws -> ScrollTrace {
        try resample(samples(LineReader(bytes: bytes, name: name)), name: baseName(name), refreshRate: refreshRate)
    }

    /// The frames of a display at `refreshRate` Hz, interpolated between the samples.
    static func resample(_ samples: (times: [Int64], offsets: [Double]), name: String, refreshRate: Int) -> ScrollTrace {
        let interval = ScrollTrace.frameInterval(refreshRate: refreshRate)
        let (times, values) = samples
        var offsets = [Double]()
        var next = 0  // the first sample later than the frame
        var frame = 0
        while true {
            let time = ScrollTrace.frameMicroseconds(frame, frameInterval: interval)
            guard time <= times[times.count - 1] else { break }
            while next < times.count, times[next] <= time { next += 1 }
            if next == 0 {
                offsets.append(values[0])
            } else if next == times.count || times[next - 1] == time {
                offsets.append(values[next - 1])
            } else {
                let fraction = Double(time - times[next - 1]) / Double(times[next] - times[next - 1])
                offsets.append(values[next - 1] + (values[next] - values[next - 1]) * fraction)
            }
            frame += 1
        }
        return ScrollTrace(name: name, frameInterval: interval, offsets: offsets)
    }

    /// The samples of `input`: times in microseconds, strictly increasing, and offsets. O(samples)
    /// memory, whatever the times (resampling is O(frames): up to 24 h of them).
    public static func samples(_ input: LineReader) throws -> (times: [Int64], offsets: [Double]) {
        let path = input.path
        let header = ScrollTrace.columns.joined(separator: ",")
        let maximumMicroseconds = ScrollTrace.maximumDuration / 1000
        var times: [Int64] = []
        var offsets: [Double] = []
        var seenData = false
        try input.forEachLine { line, number in
            if line.isEmpty { return }
            if !seenData {
                seenData = true
                let first = line[0] | 0x20  // ASCII lower case
                if (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first) {
                    guard line.elementsEqual(header.utf8) else {
                        throw InputError(source: path, line: number,
                                         "expected the header \(header) or a sample, found \(InputError.quote(line))")
                    }
                    return
                }
            }
            let fields = try CSVFields(line, columns: ScrollTrace.columns, source: path, line: number)
            let milliseconds = try fields.number(0)
            guard milliseconds >= 0, milliseconds * 1000 <= Double(maximumMicroseconds) else {
                throw fields.failure(0, "expected a time in milliseconds from 0 to \(maximumMicroseconds / 1000) (24 h)")
            }
            let time = Int64((milliseconds * 1000).rounded())
            if let previous = times.last, time <= previous {
                throw fields.failure(0, "expected a time at least 1 µs after the previous sample's \(FixedPoint.format(scaled: UInt64(previous), decimals: 3))")
            }
            let offset = try fields.number(1)
            guard offset >= 0, offset < maximumOffset else {
                throw fields.failure(1, "expected an offset in points ≥ 0 (and below 10^15)")
            }
            times.append(time)
            offsets.append(offset)
        }
        guard !times.isEmpty else {
            throw InputError(source: path, line: 1, "expected lines of \(header), found no sample")
        }
        return (times, offsets)
    }

    /// `path`'s last component without its extension: `logs/session-1.csv` → `session-1`.
    static func baseName(_ path: String) -> String {
        let file = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        guard let dot = file.lastIndex(of: "."), dot != file.startIndex else { return file }
        return String(file[..<dot])
    }
}
