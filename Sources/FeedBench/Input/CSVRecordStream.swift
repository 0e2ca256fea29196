#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A CSV file read record by record, on demand, through one small buffer: `CSVTable`'s rules
/// (RFC 4180, the same refusals, the same line numbers) for files too large to hold, and for
/// reading many files side by side — `bench merge` pulls from a thousand shards at once.
///
/// Memory is O(buffer): `bufferSize` bytes, grown only for a record longer than that (up to
/// `CSVTable`'s 1 MiB limit). The file stays open until the stream is released.
public final class CSVRecordStream {
    /// The path, for messages.
    public let source: String
    /// The first record: column names.
    public private(set) var header = CSVTable.Record(line: 1, fields: [])
    /// Whether a last record without a line end is refused as a file cut off mid-write (a
    /// file whose writer always ends its records), rather than read as `CSVTable` reads it.
    public let finalLineEndRequired: Bool

    private let fd: Int32
    private var buffer: [UInt8]
    private var start = 0, end = 0
    private var atEOF = false
    /// The line `buffer[start]` is on.
    private var line = 1

    /// Opens `path` and reads its header. Throws `InputError` for an unreadable file, an
    /// empty one or a malformed header.
    public init(path: String, bufferSize: Int = 1 << 14, finalLineEndRequired: Bool = false) throws {
        source = path
        self.finalLineEndRequired = finalLineEndRequired
        fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw InputError(source: path, "cannot open: \(String(cString: strerror(errno)))") }
        buffer = [UInt8](repeating: 0, count: max(bufferSize, 64))
        do {
            try fill()
            if buffer[start..<end].starts(with: [0xEF, 0xBB, 0xBF]) { start += 3 }
            guard let header = try nextRecordAny() else {
                throw InputError(source: path, line: 1, "expected a header line, found an empty file")
            }
            self.header = header
        } catch {
            close(fd)
            throw error
        }
    }

    deinit { close(fd) }

    /// The next record, or `nil` at the end of the file; refused when its field count is not
    /// the header's.
    public func next() throws -> CSVTable.Record? {
        guard let record = try nextRecordAny() else { return nil }
        guard record.fields.count == header.fields.count else {
            throw InputError(source: source, line: record.line,
                             "expected \(header.fields.count) fields as in the header, found \(record.fields.count)")
        }
        return record
    }

    /// The next non-empty record, whatever its field count.
    private func nextRecordAny() throws -> CSVTable.Record? {
        while true {
            if let length = recordLength() {
                // `nil`: the bytes were an empty line; records follow.
                if let record = try parse(length: length, last: false) { return record }
                continue
            }
            if atEOF {
                guard start < end else { return nil }
                return try parse(length: end - start, last: true)
            }
            try fill()
        }
    }

    /// Parses the record (with any empty lines before it) in the next `length` bytes.
    private func parse(length: Int, last: Bool) throws -> CSVTable.Record? {
        let bytes = Array(buffer[start..<start + length])
        if last, finalLineEndRequired, bytes.contains(where: { $0 != CSVTable.Parser.lf && $0 != CSVTable.Parser.cr }) {
            throw InputError(source: source, line: line + bytes.lazy.filter { $0 == CSVTable.Parser.lf }.count,
                             "expected a line end after the last row, found the file ending mid-row: it was cut off while it was written")
        }
        var parser = CSVTable.Parser(bytes: bytes, source: source, skippingByteOrderMark: false)
        parser.line = line
        let record = try parser.nextRecord()
        line = parser.line
        start += length
        return record
    }

    /// The length of the first record in the buffer through its line feed (quotes followed),
    /// `nil` when the buffer holds no complete record yet.
    private func recordLength() -> Int? {
        var quoted = false
        var index = start
        while index < end {
            let byte = buffer[index]
            if byte == CSVTable.Parser.quote {
                quoted.toggle()
            } else if byte == CSVTable.Parser.lf, !quoted {
                return index - start + 1
            }
            index += 1
        }
        return nil
    }

    /// Reads more of the file, moving the unread bytes to the front and growing the buffer
    /// when one record fills it.
    private func fill() throws {
        if start > 0 {
            buffer.withUnsafeMutableBufferPointer { all in
                guard let base = all.baseAddress, end > start else { return }
                memmove(base, base + start, end - start)
            }
            end -= start
            start = 0
        }
        if end == buffer.count {
            guard buffer.count <= CSVTable.Parser.maxRecordLength else {
                throw InputError(source: source, line: line, "expected records of at most \(CSVTable.Parser.maxRecordLength) bytes, found a longer one")
            }
            buffer.append(contentsOf: repeatElement(0, count: buffer.count))
        }
        while true {
            let got = buffer.withUnsafeMutableBufferPointer { all in
                read(fd, all.baseAddress! + end, all.count - end)
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw InputError(source: source, "cannot read: \(String(cString: strerror(errno)))")
            }
            if got == 0 { atEOF = true } else { end += got }
            return
        }
    }
}
