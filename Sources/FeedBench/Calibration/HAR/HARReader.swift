#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a pass over a HAR capture found besides its entries: `log.version`, `log.creator`,
/// `log.browser`, how many pages and entries.
public struct HARSummary: Sendable, Equatable {
    /// `log.version`: `1.1` or `1.2`.
    public var version: String
    /// `log.creator.name` and `.version`: the tool that wrote the capture, when it says.
    public var creatorName: String?
    public var creatorVersion: String?
    /// `log.browser.name` and `.version`, when written.
    public var browserName: String?
    public var browserVersion: String?
    /// Entries in `log.pages` (0 when absent).
    public var pages: Int
    /// Entries in `log.entries`.
    public var entries: Int

    public init(version: String, creatorName: String? = nil, creatorVersion: String? = nil,
                browserName: String? = nil, browserVersion: String? = nil, pages: Int = 0, entries: Int) {
        self.version = version
        self.creatorName = creatorName
        self.creatorVersion = creatorVersion
        self.browserName = browserName
        self.browserVersion = browserVersion
        self.pages = pages
        self.entries = entries
    }
}

/// Streams a HAR 1.1 or 1.2 capture (a browser's or proxy's "Save all as HAR") entry by entry,
/// in bounded memory whatever its size: the file is read in 1 MiB chunks, a byte-level scanner
/// (`HARScanner`) finds each element of `log.entries`, and only that entry's bytes are held and
/// decoded (Foundation's `JSONSerialization`) into a `HAREntry`. An entry may be as large as
/// `maxEntryBytes` (64 MiB by default: a base64 body of ~48 MB); a larger one is refused,
/// named. Memory is O(chunk + largest entry); time O(bytes).
///
/// Accepted: a UTF-8 byte-order mark, whitespace anywhere, `log`'s members in any order
/// (`pages` before or after `entries`, `version` after them), any member FeedBench does not
/// read (`comment`, `_custom` fields), and the deviations real exporters make (see
/// `HARTimings`, `HAREntry`): status 0 for aborted requests, a −1 `receive` (Playwright),
/// `timings: {}` in a 0 ms cache hit and no `content.size` (Firefox), a null `redirectURL`
/// (Charles). Refused, one `InputError` naming the file, the line where the offending entry
/// (or byte) starts and the field (`log.entries[12].timings.wait`): a file that is not a JSON
/// object, no `log` object, no `log.entries` array, a `log.version` other than `1.1` or `1.2`,
/// an entry that is not an object or not valid JSON, a missing or mistyped `startedDateTime`,
/// `time`, `request.method`, `request.url`, `response.status`, `response.content` or
/// `timings` with its `send`, `wait` and `receive`; a negative `send`/`wait`/`receive` (other
/// than −1), an optional timing below −1; a capture that ends early (cut off mid-write);
/// anything after the closing brace.
///
/// The refusal may come after entries were handed out — an entry late in the file, a
/// `log.version` after the entries, a cut-off end — so a throw refuses the capture as a whole:
/// the caller must discard whatever `body` received.
public struct HARReader {
    enum Input {
        case file
        case memory([UInt8])
    }

    /// The path as given (or the in-memory capture's name), for messages.
    public let path: String
    /// The largest entry accepted, in bytes.
    public let maxEntryBytes: Int
    let input: Input
    /// Bytes read (or handed to the scanner) at a time.
    let chunkSize: Int

    /// A reader of the capture at `path`; opens nothing yet.
    public init(path: String, maxEntryBytes: Int = 64 << 20) {
        self.init(input: .file, path: path, maxEntryBytes: maxEntryBytes, chunkSize: 1 << 20)
    }

    /// A reader of a capture already in memory, named `name` in messages (tests, fuzzing).
    public init(bytes: [UInt8], name: String, maxEntryBytes: Int = 64 << 20) {
        self.init(input: .memory(bytes), path: name, maxEntryBytes: maxEntryBytes, chunkSize: 1 << 20)
    }

    /// Any input in chunks of `chunkSize` bytes (tests make them small to split every token).
    init(input: Input, path: String, maxEntryBytes: Int, chunkSize: Int) {
        self.input = input
        self.path = path
        self.maxEntryBytes = maxEntryBytes
        self.chunkSize = chunkSize
    }

    /// Calls `body` with each entry in file order and returns the summary once the whole
    /// capture has been read and checked. Throws `InputError` for an unreadable or refused
    /// capture — possibly after some entries were handed to `body`, which must then be
    /// discarded (see the type's documentation) — and rethrows what `body` throws.
    /// O(bytes) time, O(1 MiB + largest entry) memory.
    public func forEachEntry(_ body: (HAREntry) throws -> Void) throws -> HARSummary {
        var scanner = HARScanner(source: path, maxValueBytes: maxEntryBytes)
        var summary = HARSummary(version: "", entries: 0)
        func handle(_ event: HARScanner.Event) throws {
            switch event {
            case .value(let member, let line, let bytes):
                try decode(member, line: line, bytes: bytes, into: &summary, body)
            case .logClosed(let line):
                guard !summary.version.isEmpty else {
                    throw InputError(source: path, line: line, field: "log.version", "expected \"1.1\" or \"1.2\", found none")
                }
            }
        }
        switch input {
        case .memory(let bytes):
            try bytes.withUnsafeBufferPointer { all in
                var start = 0
                while start < all.count {
                    let count = min(chunkSize, all.count - start)
                    try scanner.consume(UnsafeBufferPointer(rebasing: all[start..<start + count]), handle)
                    start += count
                }
            }
        case .file:
            try readFile { try scanner.consume($0, handle) }
        }
        try scanner.finish()
        summary.entries = scanner.entries
        return summary
    }

    /// Decodes a value the scanner captured: an entry goes to `body`, `log`'s members to
    /// `summary`.
    func decode(_ member: HARScanner.Member, line: Int, bytes: UnsafeRawBufferPointer,
                into summary: inout HARSummary, _ body: (HAREntry) throws -> Void) throws {
        switch member {
        case .entry(let index):
            let field = "log.entries[\(index)]"
            let value = try HARFields.decode(bytes, fragments: false, source: path, line: line, field: field)
            try body(HAREntry(decoding: HARFields(value, path: field, source: path, line: line), index: index))
        case .version:
            let value = try HARFields.decode(bytes, fragments: true, source: path, line: line, field: "log.version")
            guard let version = value as? String, version == "1.1" || version == "1.2" else {
                throw InputError(source: path, line: line, field: "log.version", "expected \"1.1\" or \"1.2\", found \(HARFields.describe(value))")
            }
            summary.version = version
        case .creator, .browser:
            let field = member == .creator ? "log.creator" : "log.browser"
            let tool = try HARFields(HARFields.decode(bytes, fragments: true, source: path, line: line, field: field),
                                     path: field, source: path, line: line)
            let name = try tool.optionalString("name"), version = try tool.optionalString("version")
            if member == .creator {
                (summary.creatorName, summary.creatorVersion) = (name, version)
            } else {
                (summary.browserName, summary.browserVersion) = (name, version)
            }
        case .pages:
            let value = try HARFields.decode(bytes, fragments: true, source: path, line: line, field: "log.pages")
            guard let pages = value as? [Any] else {
                throw InputError(source: path, line: line, field: "log.pages", "expected an array, found \(HARFields.describe(value))")
            }
            summary.pages = pages.count
        }
    }

    /// Reads the file in `chunkSize` chunks through one buffer (POSIX `read`).
    func readFile(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw InputError(source: path, "cannot open: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: chunkSize)
        defer { buffer.deallocate() }
        while true {
            let got = read(fd, buffer, chunkSize)
            if got < 0 {
                if errno == EINTR { continue }
                throw InputError(source: path, "cannot read: \(String(cString: strerror(errno)))")
            }
            if got == 0 { return }
            try body(UnsafeBufferPointer(start: buffer, count: got))
        }
    }
}
