import Foundation

/// `bench serve --log FILE`: one CSV line per request, written as each response ends —
/// `time_ms,method,path,status,bytes,object_bytes,injected_delay_ms,duration_ms,connection,new_connection,protocol,priority,sent_ms`.
/// The server writes it (`RequestLog` in FeedServe); `bench cachesim` replays its image
/// requests as a key trace, and `records(…)` reads it back.
///
/// - `time_ms`: when the request arrived, in milliseconds since the server started (3 decimals);
/// - `bytes`: the body sent; `object_bytes`: the whole image's size for a request that named
///   an image, whatever part of it was sent (empty for other requests);
/// - `injected_delay_ms`: the server's own time (the API's latency; 0 for images);
///   `duration_ms`: arrival to the last byte (what the client waited: handshakes, the network
///   model and the server's time); `connection`: the network model's connection, 1, 2, … as it
///   opened them, numbered on across a change of the server's network (empty for a request that
///   crossed no network: the conditions, the API document, a refusal, an offline answer);
///   `new_connection`: 1 when this request opened its connection, else 0; `protocol`: `http/1.1`
///   or `h2`; `priority`: `high` or `low` as the app sent it (a simulated run's), empty when not
///   known (the server's: HTTP/1.1 carries none); `sent_ms`: when the request went onto the
///   network model, to the nanosecond (6 decimals) — its arrival, or later where the server
///   held it for one of the client's connections or for its earlier requests (`RequestOrder`).
///   A replay of the log through the model sends it then, and so sees what the server's model
///   saw. Empty for a request that crossed no network; a simulated run's is its `time_ms`.
///
/// Logs written before `sent_ms` (12 columns) are read too, each request sent at its arrival;
/// so are those written before `priority` (11 columns), their priority empty, and those
/// written before `new_connection` and `protocol` existed (9 columns): a connection's
/// first request then counts as opening it (their `injected_delay_ms` held an image's round trip
/// and pacing too in a server's log, and the whole duration in a simulated run's).
///
/// Lines are in order of completion, not arrival: a reader that wants the order in which the
/// client asked sorts by `time_ms` (`records` does). A request the client gave up on before its
/// last byte (a cancelled download) still has its line, with status 499 (`clientClosed`, as
/// nginx logs it) and the bytes sent until then: every request that reached the server is there.
public enum RequestLogFile {
    public static let columns = ["time_ms", "method", "path", "status", "bytes", "object_bytes",
                                 "injected_delay_ms", "duration_ms", "connection", "new_connection", "protocol", "priority", "sent_ms"]
    /// The columns of a log written before `sent_ms`.
    static let unsentColumns = Array(columns.prefix(12))
    /// The columns of a log written before `priority`.
    static let previousColumns = Array(columns.prefix(11))
    /// The columns of a log written before `new_connection` and `protocol`.
    static let earlierColumns = Array(columns.prefix(9))
    /// The headers whose `injected_delay_ms` is the server's own time and whose `new_connection`
    /// is recorded (this one, and those of 12 and 11 columns), and every header read.
    static let currentHeaders = [columns, unsentColumns, previousColumns]
    static let readableHeaders = currentHeaders + [earlierColumns]
    /// `priority`'s values: the request went with high priority (a visible cell's image, the
    /// API's call) or low (a prefetch's); empty where it is not known (`bench serve`'s log of a
    /// request without RFC 9218's `priority` header).
    public static let highPriority = "high"
    public static let lowPriority = "low"
    /// `protocol`'s values, ALPN's names: HTTP/1.1 and HTTP/2.
    public static let http11 = "http/1.1"
    public static let http2 = "h2"
    /// The status of a request whose client closed the connection before the response ended.
    public static let clientClosed = 499
    /// The header line, line end included.
    public static let header = columns.joined(separator: ",") + "\n"

    /// One request of the log; times in nanoseconds.
    public struct Record: Sendable, Equatable {
        public var time: Int64
        public var method: String
        public var path: String
        public var status: Int
        public var bytes: Int64
        public var objectBytes: Int64?
        public var injectedDelay: Int64
        public var duration: Int64
        /// The network model's connection it went on; `nil` when it crossed no network.
        public var connection: Int?
        /// Whether this request opened its connection.
        public var newConnection: Bool
        public var httpProtocol: String
        /// `high`, `low`, or empty when not known.
        public var priority: String
        /// When it went onto the network model (`sent_ms`), when the log says.
        public var sent: Int64?
        /// The file line it was read from (0 for a record not read from a file).
        public var line: Int

        public init(time: Int64, method: String, path: String, status: Int, bytes: Int64, objectBytes: Int64?, injectedDelay: Int64,
                    duration: Int64, connection: Int?, newConnection: Bool = false, httpProtocol: String = RequestLogFile.http11,
                    priority: String = "", sent: Int64? = nil, line: Int = 0) {
            self.time = time
            self.method = method
            self.path = path
            self.status = status
            self.bytes = bytes
            self.objectBytes = objectBytes
            self.injectedDelay = injectedDelay
            self.duration = duration
            self.connection = connection
            self.newConnection = newConnection
            self.httpProtocol = httpProtocol
            self.priority = priority
            self.sent = sent
            self.line = line
        }

        /// When the request went onto the network model: `sent` when the log says, else its
        /// arrival.
        public var sentOrArrival: Int64 { sent ?? time }

        /// The record's CSV line, line end included: times as milliseconds with 3 decimals
        /// (`sent_ms` with 6: to the nanosecond, as a replay needs it), the path quoted when it
        /// holds a comma or a quote.
        public var csvLine: String {
            let quotedPath = path.contains(",") || path.contains("\"") ? "\"" + path.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : path
            return [Self.milliseconds(time), method, quotedPath, String(status), String(bytes), objectBytes.map(String.init) ?? "",
                    Self.milliseconds(injectedDelay), Self.milliseconds(duration), connection.map(String.init) ?? "", newConnection ? "1" : "0",
                    httpProtocol, priority, sent.map { FixedPoint.ratio($0, 1_000_000, decimals: 6) } ?? ""].joined(separator: ",") + "\n"
        }

        static func milliseconds(_ nanoseconds: Int64) -> String { FixedPoint.ratio(nanoseconds, 1_000_000, decimals: 3) }

        /// The image this request asked for (`GET /images/{id}.jpg`, a query allowed) when the
        /// server answered with it or with a part of it (200, 206) or confirmed the client's
        /// copy (304): an access to that image, whose whole size is `objectBytes`.
        public var imageAccess: (id: UInt64, bytes: Int64)? {
            guard method == "GET", [200, 206, 304].contains(status), let objectBytes, objectBytes > 0,
                  let id = RequestLogFile.imageID(path: path) else { return nil }
            return (id, objectBytes)
        }
    }

    /// The image id a path names: `/images/{id}.jpg`, optionally with a query; `nil` otherwise.
    public static func imageID(path: String) -> UInt64? {
        let route = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        guard route.hasPrefix("/images/"), route.hasSuffix(".jpg") else { return nil }
        let digits = route.dropFirst("/images/".count).dropLast(".jpg".count)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return UInt64(digits)
    }

    /// A whole log: the header, then `records` in the order given.
    public static func csv(_ records: [Record]) -> String {
        records.reduce(into: header) { $0 += $1.csvLine }
    }

    /// Whether `prefix` (a file's first bytes) starts with the log's header line (this one, or
    /// an earlier one of 12, 11 or 9 columns).
    public static func startsWithHeader<Bytes: Collection>(_ prefix: Bytes) -> Bool where Bytes.Element == UInt8 {
        readableHeaders.contains { starts(prefix, with: $0) }
    }

    /// Whether `prefix` (a file's first bytes) starts with a header line whose
    /// `injected_delay_ms` is the server's own time and whose `new_connection` is recorded (this
    /// one, or one of 12 or 11 columns).
    public static func startsWithCurrentHeader<Bytes: Collection>(_ prefix: Bytes) -> Bool where Bytes.Element == UInt8 {
        currentHeaders.contains { starts(prefix, with: $0) }
    }

    static func starts<Bytes: Collection>(_ prefix: Bytes, with columns: [String]) -> Bool where Bytes.Element == UInt8 {
        let body = Array(prefix.starts(with: [0xEF, 0xBB, 0xBF]) ? prefix.dropFirst(3) : prefix[...])
        let line = Array(columns.joined(separator: ",").utf8)
        guard body.starts(with: line) else { return false }
        let rest = body.dropFirst(line.count)
        return rest.first == UInt8(ascii: "\n") || rest.starts(with: [13, 10])
    }

    /// Every request of the log `bytes` (named `source` in messages), sorted by arrival time
    /// (ties keep the file's order). Refused, with the line and column: another header (this
    /// one, or an earlier one of 12, 11 or 9 columns), a line
    /// without the header's fields, a field that is not what its column holds. O(n log n); the log is
    /// read whole (a session's log is thousands of lines).
    public static func records(parsing bytes: [UInt8], source: String) throws -> [Record] {
        let table = try CSVTable(parsing: bytes, source: source)
        let current = currentHeaders.contains(table.header.fields)
        let prioritized = table.header.fields.count >= 12
        let timed = table.header.fields.count == columns.count
        guard current || table.header.fields == earlierColumns else {
            throw InputError(source: source, line: table.header.line,
                             "expected the header \(columns.joined(separator: ",")), found \(InputError.quote(table.header.fields.joined(separator: ",")))")
        }
        var records: [Record] = []
        records.reserveCapacity(table.records.count)
        var seen = Set<Int>()
        for record in table.records {
            let fields = Fields(record: record, source: source)
            // Empty: a request that crossed no network (the current logs only).
            let connection = current && record.fields[8].isEmpty ? nil : Int(try fields.whole(8, in: 1...Int64(Int32.max)))
            let opened = current ? try fields.whole(9, in: 0...(connection == nil ? 0 : 1)) == 1 : seen.insert(connection!).inserted
            let httpProtocol = current ? try fields.token(10) : http11
            let priority = prioritized ? try fields.priority(11) : ""
            let sent = timed && !record.fields[12].isEmpty ? try fields.milliseconds(12) : nil
            records.append(Record(
                time: try fields.milliseconds(0), method: try fields.word(1), path: record.fields[2],
                status: Int(try fields.whole(3, in: 100...599)), bytes: try fields.whole(4),
                objectBytes: record.fields[5].isEmpty ? nil : try fields.whole(5),
                injectedDelay: try fields.milliseconds(6), duration: try fields.milliseconds(7),
                connection: connection, newConnection: opened, httpProtocol: httpProtocol, priority: priority, sent: sent, line: record.line))
        }
        // Stable: equal times keep the order of the file.
        return records.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    }

    /// The image accesses of the log `bytes` as a key trace in arrival order: time in whole
    /// milliseconds, the image id as the key, the whole image's size as the size.
    public static func keyTrace(parsing bytes: [UInt8], source: String) throws -> KeyTraceBatch {
        var batch = KeyTraceBatch()
        var total: Int64 = 0
        for record in try records(parsing: bytes, source: source) {
            guard let access = record.imageAccess else { continue }
            let (sum, overflow) = total.addingReportingOverflow(access.bytes)
            guard !overflow else {
                throw InputError(source: source, line: record.line, field: "object_bytes", "expected sizes that keep the trace's total under 2^63 bytes, found \(access.bytes) after \(total)")
            }
            total = sum
            batch.append(time: record.time / 1_000_000, key: access.id, size: access.bytes)
        }
        guard batch.count > 0 else {
            throw InputError(source: source, "expected image requests (GET /images/{id}.jpg answered 200, 206 or 304), found none")
        }
        return batch
    }

    /// One record's fields, parsed and refused with the line and column.
    struct Fields {
        let record: CSVTable.Record
        let source: String

        func failure(_ i: Int, _ expected: String) -> InputError {
            InputError(source: source, line: record.line, field: RequestLogFile.columns[i],
                       "expected \(expected), found \(InputError.quote(record.fields[i]))")
        }

        func whole(_ i: Int, in range: ClosedRange<Int64> = 0...Int64.max) throws -> Int64 {
            let text = record.fields[i]
            guard !text.isEmpty, text.utf8.allSatisfy({ (48...57).contains($0) }), let value = Int64(text), range.contains(value) else {
                throw failure(i, range.upperBound == .max ? "a whole number of at least \(range.lowerBound)" : "a whole number in \(range.lowerBound)…\(range.upperBound)")
            }
            return value
        }

        /// Milliseconds with up to 6 decimals, as nanoseconds.
        func milliseconds(_ i: Int) throws -> Int64 {
            let parts = record.fields[i].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
            let digits: (Substring) -> Bool = { $0.utf8.allSatisfy { (48...57).contains($0) } }
            guard let whole = parts.first, !whole.isEmpty, whole.count <= 12, digits(whole),
                  parts.count == 1 || (parts[1].count <= 6 && !parts[1].isEmpty && digits(parts[1])),
                  let milliseconds = Int64(whole) else {
                throw failure(i, "milliseconds (digits, up to 6 decimals)")
            }
            let fraction = parts.count == 2 ? Int64(parts[1] + String(repeating: "0", count: 6 - parts[1].count)) ?? 0 : 0
            return milliseconds * 1_000_000 + fraction
        }

        /// A protocol name such as `http/1.1`: printable ASCII without spaces or commas.
        func token(_ i: Int) throws -> String {
            let text = record.fields[i]
            guard !text.isEmpty, text.count <= 32, text.utf8.allSatisfy({ (33...126).contains($0) && $0 != 44 && $0 != 34 }) else {
                throw failure(i, "a protocol such as http/1.1")
            }
            return text
        }

        /// `high`, `low` or empty.
        func priority(_ i: Int) throws -> String {
            let text = record.fields[i]
            guard text.isEmpty || text == RequestLogFile.highPriority || text == RequestLogFile.lowPriority else {
                throw failure(i, "high, low or nothing")
            }
            return text
        }

        func word(_ i: Int) throws -> String {
            let text = record.fields[i]
            guard !text.isEmpty, text.utf8.allSatisfy({ (65...90).contains($0) }) else { throw failure(i, "an HTTP method") }
            return text
        }
    }
}
