#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A whole CSV file parsed by RFC 4180's rules, for files with quoted text fields (the results
/// CSV quotes a value that holds a comma): a header record and the records after it, each
/// with the line it starts on, so every refusal can name `file:line`.
///
/// Accepted: fields separated by commas; records ended by `\r\n` or `\n` (the last one may
/// have none); fields in double quotes holding commas, quotes (doubled, `""`) and line ends,
/// which are kept as written; a UTF-8 byte-order mark; empty lines between records (skipped).
/// Refused, with the line: a quote inside an unquoted field, anything but a comma or line end
/// after a closing quote, a quoted field left open at the end of the file, a carriage return
/// not followed by a line feed outside quotes, a field that is not UTF-8, and a record whose
/// field count differs from
/// the header's, and a record longer than 1 MiB.
///
/// The file is read whole: it is for tables of results (thousands of rows), not for traces
/// of millions of lines, which stream through `LineReader` and `CSVFields`.
public struct CSVTable: Sendable, Equatable {
    /// One record: its fields, unquoted, and the 1-based line it starts on.
    public struct Record: Sendable, Equatable {
        public var line: Int
        public var fields: [String]

        public init(line: Int, fields: [String]) {
            self.line = line
            self.fields = fields
        }
    }

    /// The file path, or another name for messages.
    public let source: String
    /// The first record: column names.
    public let header: Record
    /// Every record after the header, in file order.
    public let records: [Record]
    /// Whether the file's last byte ends a line (a last record without one may be a file cut
    /// off mid-write; `ResultsFile.read` refuses it).
    public let endsWithLineEnd: Bool

    /// Reads and parses the file at `path`. Throws `InputError` for an unreadable or malformed
    /// file.
    public static func read(path: String) throws -> CSVTable {
        try CSVTable(parsing: ReadableFile.bytes(at: path), source: path)
    }

    /// Parses `bytes`; `source` names them in messages.
    public init(parsing bytes: [UInt8], source: String) throws {
        self.source = source
        var parser = Parser(bytes: bytes, source: source)
        guard let header = try parser.nextRecord() else {
            throw InputError(source: source, line: 1, "expected a header line, found an empty file")
        }
        var records: [Record] = []
        while let record = try parser.nextRecord() {
            guard record.fields.count == header.fields.count else {
                throw InputError(source: source, line: record.line,
                                 "expected \(header.fields.count) fields as in the header, found \(record.fields.count)")
            }
            records.append(record)
        }
        self.header = header
        self.records = records
        endsWithLineEnd = bytes.last == UInt8(ascii: "\n")
    }

    /// The record-by-record state machine over the file's bytes.
    struct Parser {
        let bytes: [UInt8]
        let source: String
        var position = 0
        var line = 1

        /// `skippingByteOrderMark`: whether `bytes` are a file's first, where a UTF-8 byte-order
        /// mark may stand.
        init(bytes: [UInt8], source: String, skippingByteOrderMark: Bool = true) {
            self.bytes = bytes
            self.source = source
            if skippingByteOrderMark, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        }

        static let comma = UInt8(ascii: ","), quote = UInt8(ascii: "\""), cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")

        /// The longest record accepted, in bytes (as `LineReader`'s longest line).
        static let maxRecordLength = 1 << 20

        /// The next non-empty record, or `nil` at the end of the file.
        mutating func nextRecord() throws -> Record? {
            while position < bytes.count, try consumeLineEnd() {}
            guard position < bytes.count else { return nil }
            let start = line
            let firstByte = position
            var fields: [String] = []
            while true {
                fields.append(try nextField())
                guard position - firstByte <= Self.maxRecordLength else {
                    throw InputError(source: source, line: start, "expected records of at most \(Self.maxRecordLength) bytes, found a longer one")
                }
                if position == bytes.count { break }
                if bytes[position] == Self.comma {
                    position += 1
                    continue
                }
                _ = try consumeLineEnd()
                break
            }
            return Record(line: start, fields: fields)
        }

        /// Consumes `\n` or `\r\n` at the position; `false` if there is neither.
        mutating func consumeLineEnd() throws -> Bool {
            if bytes[position] == Self.lf {
                position += 1
                line += 1
                return true
            }
            guard bytes[position] == Self.cr else { return false }
            guard position + 1 < bytes.count, bytes[position + 1] == Self.lf else {
                throw InputError(source: source, line: line, "expected a line feed after a carriage return, found \(found(at: position + 1))")
            }
            position += 2
            line += 1
            return true
        }

        /// One field, up to (not including) the comma or line end after it.
        mutating func nextField() throws -> String {
            guard position < bytes.count, bytes[position] == Self.quote else {
                let start = position
                while position < bytes.count, bytes[position] != Self.comma, bytes[position] != Self.lf, bytes[position] != Self.cr {
                    if bytes[position] == Self.quote {
                        throw InputError(source: source, line: line,
                                         "expected a quote only around a whole field, found \(InputError.quote(bytes[start..<min(bytes.count, position + 1)]))")
                    }
                    position += 1
                }
                return try text(bytes[start..<position], line: line)
            }
            let opening = line
            position += 1
            var text: [UInt8] = []
            while true {
                guard position < bytes.count else {
                    throw InputError(source: source, line: opening, "expected a closing quote for the field opened here, found the end of the file")
                }
                let byte = bytes[position]
                position += 1
                if byte == Self.quote {
                    if position < bytes.count, bytes[position] == Self.quote {
                        text.append(Self.quote)
                        position += 1
                        continue
                    }
                    guard position == bytes.count || [Self.comma, Self.lf, Self.cr].contains(bytes[position]) else {
                        throw InputError(source: source, line: line, "expected a comma or line end after a closing quote, found \(found(at: position))")
                    }
                    return try self.text(text, line: opening)
                }
                if byte == Self.lf { line += 1 }
                text.append(byte)
            }
        }

        /// A field's bytes as text; refused unless they are UTF-8.
        func text<Bytes: Collection<UInt8>>(_ bytes: Bytes, line: Int) throws -> String {
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw InputError(source: source, line: line, "expected UTF-8 text, found \(InputError.quote(bytes))")
            }
            return text
        }

        /// The byte at `index` quoted for a message, or "the end of the file".
        func found(at index: Int) -> String {
            index < bytes.count ? InputError.quote(bytes[index...index]) : "the end of the file"
        }
    }
}
