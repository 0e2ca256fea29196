import Foundation

/// A block of consecutive key-trace requests as parallel arrays: what cachesim replays at once.
public struct KeyTraceBatch: Sendable {
    public var times: [Int64] = []
    public var keys: [UInt64] = []
    public var sizes: [Int64] = []

    public init(reservingCapacity capacity: Int = 0) {
        times.reserveCapacity(capacity)
        keys.reserveCapacity(capacity)
        sizes.reserveCapacity(capacity)
    }

    public var count: Int { keys.count }

    public mutating func append(time: Int64, key: UInt64, size: Int64) {
        times.append(time)
        keys.append(key)
        sizes.append(size)
    }

    public mutating func removeAll() {
        times.removeAll(keepingCapacity: true)
        keys.removeAll(keepingCapacity: true)
        sizes.removeAll(keepingCapacity: true)
    }
}

/// What a pass over a key trace saw.
public struct KeyTraceSummary: Sendable, Equatable {
    /// Requests replayed (size > 0).
    public var requests = 0
    /// Requests of size 0, dropped as libCacheSim drops them.
    public var zeroSizeRequests = 0
    /// Bytes requested by the replayed requests.
    public var requestedBytes: Int64 = 0

    public init() {}
}

/// Streams a key trace: CSV `time,obj_id,obj_size`, libCacheSim's column layout, one request a
/// line in trace order — or a `bench serve --log` request log, whose image requests it replays
/// in order of arrival (see `RequestLogFile`; such a log is read whole).
///
/// Accepted: a header line `time,obj_id,obj_size` or none (a first line starting with a digit
/// is data), CRLF line ends, a UTF-8 byte-order mark, blank lines (skipped). Refused, with the
/// line and column: any other header, a line without exactly three fields, a field that is not a
/// non-negative decimal integer (ids up to 2^64−1, times and sizes up to 2^63−1), a time
/// earlier than the line before, and a size that takes the trace's total past 2^63−1 bytes. Requests of size 0 are counted and dropped.
///
/// Parsing is byte-level and allocation-free per line; memory is O(batch) whatever the trace's
/// length.
public struct KeyTraceReader {
    public static let columns = ["time", "obj_id", "obj_size"]
    /// The file's path (or the in-memory trace's name), for messages.
    public var path: String { lines.path }
    let lines: LineReader

    /// A reader of the trace file at `path`.
    public init(path: String) { lines = LineReader(path: path) }

    /// A reader of a trace already in memory, named `name` in messages (tests, fuzzing).
    public init(bytes: [UInt8], name: String) { lines = LineReader(bytes: bytes, name: name) }

    /// Reads the whole trace, handing `body` batches of up to `batchSize` requests in order.
    @discardableResult
    public func forEachBatch(batchSize: Int = 1 << 16, _ body: (KeyTraceBatch) throws -> Void) throws -> KeyTraceSummary {
        if let log = try requestLog() { return try replay(log, batchSize: batchSize, body) }
        var batch = KeyTraceBatch(reservingCapacity: batchSize)
        var summary = KeyTraceSummary()
        var previousTime: Int64 = 0
        var seenData = false
        try lines.forEachLine { line, number in
            if line.isEmpty { return }
            if !seenData {
                seenData = true
                if !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(line[0]) {
                    try checkHeader(line, number)
                    return
                }
            }
            let (time, key, size) = try parse(line, number)
            if time < previousTime {
                throw InputError(source: path, line: number, field: "time",
                                 "expected a time no earlier than the previous line's \(previousTime), found \(time)")
            }
            previousTime = time
            if size == 0 {
                summary.zeroSizeRequests += 1
                return
            }
            // Bounding the total bounds every sum a replay makes of request sizes.
            let (total, overflow) = summary.requestedBytes.addingReportingOverflow(size)
            guard !overflow else {
                throw InputError(source: path, line: number, field: "obj_size",
                                 "expected sizes that keep the trace's total under 2^63 bytes, found \(size) after \(summary.requestedBytes)")
            }
            summary.requests += 1
            summary.requestedBytes = total
            batch.append(time: time, key: key, size: size)
            if batch.count == batchSize {
                try body(batch)
                batch.removeAll()
            }
        }
        if batch.count > 0 { try body(batch) }
        if summary.requests + summary.zeroSizeRequests == 0 {
            throw InputError(source: path, line: 1, "expected lines of time,obj_id,obj_size, found no request")
        }
        return summary
    }

    /// Reads the whole trace into memory (for Belady, which needs every next access).
    public func load() throws -> (batch: KeyTraceBatch, summary: KeyTraceSummary) {
        var all = KeyTraceBatch()
        let summary = try forEachBatch { batch in
            all.times.append(contentsOf: batch.times)
            all.keys.append(contentsOf: batch.keys)
            all.sizes.append(contentsOf: batch.sizes)
        }
        return (all, summary)
    }

    /// The whole input when it is a `bench serve` request log (its first bytes are the log's
    /// header), else `nil`; only the first bytes of anything else are read.
    func requestLog() throws -> [UInt8]? {
        switch lines.input {
        case .memory(let bytes):
            return RequestLogFile.startsWithHeader(bytes.prefix(RequestLogFile.header.utf8.count + 4)) ? bytes : nil
        case .file:
            guard let handle = FileHandle(forReadingAtPath: path) else { return nil }  // LineReader says why.
            defer { try? handle.close() }
            let start = (try? handle.read(upToCount: RequestLogFile.header.utf8.count + 4)) ?? nil
            guard let start, RequestLogFile.startsWithHeader(start) else { return nil }
            return try ReadableFile.bytes(at: path)
        }
    }

    /// Hands `body` the image accesses of a request log in batches.
    func replay(_ log: [UInt8], batchSize: Int, _ body: (KeyTraceBatch) throws -> Void) throws -> KeyTraceSummary {
        let trace = try RequestLogFile.keyTrace(parsing: log, source: path)
        var summary = KeyTraceSummary()
        summary.requests = trace.count
        summary.requestedBytes = trace.sizes.reduce(0, +)
        for start in stride(from: 0, to: trace.count, by: batchSize) {
            let end = min(start + batchSize, trace.count)
            var batch = KeyTraceBatch(reservingCapacity: end - start)
            batch.times.append(contentsOf: trace.times[start..<end])
            batch.keys.append(contentsOf: trace.keys[start..<end])
            batch.sizes.append(contentsOf: trace.sizes[start..<end])
            try body(batch)
        }
        return summary
    }

    func checkHeader(_ line: UnsafeBufferPointer<UInt8>, _ number: Int) throws {
        let text = String(decoding: line, as: UTF8.self)
        let names = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.lowercased() }
        guard names == KeyTraceReader.columns else {
            throw InputError(source: path, line: number,
                             "expected the header time,obj_id,obj_size or a request, found \(InputError.quote(line))")
        }
    }

    /// Parses `time,obj_id,obj_size`: a fast scan, and the general splitter for the message when
    /// the scan fails.
    @inline(__always)
    func parse(_ line: UnsafeBufferPointer<UInt8>, _ number: Int) throws -> (Int64, UInt64, Int64) {
        var fields: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var field = 0
        var value: UInt64 = 0
        var digits = 0
        var ok = true
        for byte in line {
            if byte == UInt8(ascii: ",") {
                guard digits > 0, field < 2 else { ok = false; break }
                if field == 0 { fields.0 = value } else { fields.1 = value }
                field += 1
                value = 0
                digits = 0
                continue
            }
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10, digits < 19 else { ok = false; break }
            value = value &* 10 &+ UInt64(digit)
            digits += 1
        }
        fields.2 = value
        if ok, field == 2, digits > 0, fields.0 <= UInt64(Int64.max), fields.2 <= UInt64(Int64.max) {
            return (Int64(fields.0), fields.1, Int64(fields.2))
        }
        // Slow path: 19+ digit ids, or an error to describe.
        let parsed = try CSVFields(line, columns: KeyTraceReader.columns, source: path, line: number)
        return (Int64(try parsed.unsigned(0)), try parsed.unsigned(1, limit: .max), Int64(try parsed.unsigned(2)))
    }
}

extension KeyTraceBatch {
    /// For each request, the position of the next request for the same key (`Int64.max` when
    /// there is none): Belady's input. O(n) time, O(distinct keys) extra memory.
    public func nextAccessPositions() -> [Int64] {
        precondition(count < Int(Int32.max), "nextAccessPositions: more than 2^31 requests")
        var next = [Int64](repeating: .max, count: count)
        var lastSeen = KeyIndex(expectedCount: 1024)
        for position in stride(from: count - 1, through: 0, by: -1) {
            let key = keys[position]
            if let later = lastSeen.slot(for: key) {
                next[position] = Int64(later)
                lastSeen.update(key, slot: Int32(position))
            } else {
                lastSeen.insert(key, slot: Int32(position))
            }
        }
        return next
    }
}
