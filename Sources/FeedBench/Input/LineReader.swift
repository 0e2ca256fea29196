#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Streams a text file — or bytes already in memory — line by line through one reusable
/// buffer, without building strings: the front end of every FeedBench parser.
///
/// Accepts `\n` and `\r\n` line ends and skips a UTF-8 byte-order mark. A line longer than
/// `maxLineLength` bytes is refused with its line number instead of being buffered whole.
/// Memory is O(buffer), whatever the file's length.
public struct LineReader {
    /// Where the bytes come from.
    enum Input {
        case file
        case memory([UInt8])
    }

    /// The path as given (or the name of in-memory bytes), for messages.
    public let path: String
    /// The longest line accepted, in bytes.
    public let maxLineLength: Int
    let input: Input

    /// Opens nothing yet; `forEachLine` reads the file.
    public init(path: String, maxLineLength: Int = 1 << 20) {
        self.path = path
        self.maxLineLength = maxLineLength
        input = .file
    }

    /// Lines of `bytes`, named `name` in messages (parsers' in-memory entry point: tests, fuzzing).
    public init(bytes: [UInt8], name: String, maxLineLength: Int = 1 << 20) {
        path = name
        self.maxLineLength = maxLineLength
        input = .memory(bytes)
    }

    /// Calls `body` with each line's bytes (without its line end) and its 1-based number.
    /// Reads the file once, in 1 MiB chunks. Throws `InputError` for an unreadable file or an
    /// over-long line, and rethrows what `body` throws.
    public func forEachLine(_ body: (UnsafeBufferPointer<UInt8>, Int) throws -> Void) throws {
        switch input {
        case .file: try forEachFileLine(body)
        case .memory(let bytes):
            try bytes.withUnsafeBufferPointer { all in
                guard let base = all.baseAddress else { return }
                var splitter = Splitter(reader: self)
                var start = 0
                while start < all.count, let found = memchr(base + start, 0x0a, all.count - start) {
                    let newline = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                    try splitter.emit(base, start, newline, body)
                    start = newline + 1
                }
                if start < all.count { try splitter.emit(base, start, all.count, body) }
            }
        }
    }

    /// Numbers lines, strips a carriage return before the line feed and the byte-order mark of
    /// the first line, and refuses over-long lines: the rules both inputs share.
    struct Splitter {
        let reader: LineReader
        var lineNumber = 0
        var first = true

        init(reader: LineReader) { self.reader = reader }

        mutating func emit(_ buffer: UnsafePointer<UInt8>, _ from: Int, _ to: Int,
                           _ body: (UnsafeBufferPointer<UInt8>, Int) throws -> Void) throws {
            var lower = from, upper = to
            lineNumber += 1
            if upper > lower, buffer[upper - 1] == 0x0d { upper -= 1 }
            if first {
                first = false
                if upper - lower >= 3, buffer[lower] == 0xef, buffer[lower + 1] == 0xbb, buffer[lower + 2] == 0xbf {
                    lower += 3
                }
            }
            guard upper - lower <= reader.maxLineLength else { throw reader.overlong(line: lineNumber) }
            try body(UnsafeBufferPointer(start: buffer + lower, count: upper - lower), lineNumber)
        }
    }

    func overlong(line: Int) -> InputError {
        InputError(source: path, line: line, "expected lines of at most \(maxLineLength) bytes, found a longer one")
    }

    func forEachFileLine(_ body: (UnsafeBufferPointer<UInt8>, Int) throws -> Void) throws {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            throw InputError(source: path, "cannot open: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        // At least 64 KiB a read, however short the lines may be (a 64-byte limit read 66
        // bytes a call: a recording of 128,000 lines took 14,000 calls).
        var capacity = max(1 << 16, min(1 << 20, maxLineLength + 2))
        var buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        var start = 0, end = 0
        var atEOF = false
        var splitter = Splitter(reader: self)

        while true {
            // Emit every complete line in the buffer.
            while start < end, let found = memchr(buffer + start, 0x0a, end - start) {
                let newline = buffer.distance(to: found.assumingMemoryBound(to: UInt8.self))
                try splitter.emit(buffer, start, newline, body)
                start = newline + 1
            }
            if atEOF {
                if start < end { try splitter.emit(buffer, start, end, body) }
                return
            }
            // Keep the partial line, growing the buffer if it alone fills it.
            if start > 0 {
                if end > start { memmove(buffer, buffer + start, end - start) }
                end -= start
                start = 0
            }
            if end == capacity {
                guard capacity < maxLineLength + 2 else { throw overlong(line: splitter.lineNumber + 1) }
                let larger = min(capacity * 2, maxLineLength + 2)
                let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
                grown.update(from: buffer, count: end)
                buffer.deallocate()
                buffer = grown
                capacity = larger
            }
            let got = read(fd, buffer + end, capacity - end)
            if got < 0 {
                if errno == EINTR { continue }
                throw InputError(source: path, "cannot read: \(String(cString: strerror(errno)))")
            }
            if got == 0 { atEOF = true } else { end += got }
        }
    }
}
