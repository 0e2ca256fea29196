/// Splits one CSV line (unquoted fields) into at most `N` byte ranges and parses numbers from
/// them, reporting failures as `InputError`s that name the file, line and column.
///
/// For the numeric formats FeedBench streams at millions of lines a second (key traces, scroll
/// traces); quoted text fields go through `CSVTable`.
public struct CSVFields {
    public let source: String
    public let line: Int
    public let columns: [String]
    var bounds: [Range<Int>] = []
    let bytes: UnsafeBufferPointer<UInt8>

    /// Splits `bytes` on commas; throws unless there are exactly `columns.count` fields.
    public init(_ bytes: UnsafeBufferPointer<UInt8>, columns: [String], source: String, line: Int) throws {
        self.bytes = bytes
        self.columns = columns
        self.source = source
        self.line = line
        bounds.reserveCapacity(columns.count)
        var fieldStart = 0
        for i in 0..<bytes.count where bytes[i] == UInt8(ascii: ",") {
            bounds.append(fieldStart..<i)
            fieldStart = i + 1
        }
        bounds.append(fieldStart..<bytes.count)
        guard bounds.count == columns.count else {
            throw InputError(source: source, line: line,
                             "expected \(columns.count) fields (\(columns.joined(separator: ","))), found \(bounds.count): \(InputError.quote(bytes))")
        }
    }

    /// The raw bytes of field `i`.
    public func bytes(_ i: Int) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: bytes[bounds[i]]) }

    /// Field `i` as text.
    public func text(_ i: Int) -> String { String(decoding: bytes(i), as: UTF8.self) }

    /// Field `i` as a non-negative decimal integer no larger than `limit`.
    public func unsigned(_ i: Int, limit: UInt64 = UInt64(Int64.max)) throws -> UInt64 {
        if let value = CSVFields.parseUnsigned(bytes(i)), value <= limit { return value }
        throw failure(i, "expected a non-negative integer no larger than \(limit)")
    }

    /// Field `i` as a finite decimal number (`12`, `-3.5`, `1e3`).
    public func number(_ i: Int) throws -> Double {
        let raw = text(i)
        guard !raw.isEmpty, let value = Double(raw), value.isFinite,
              raw.utf8.allSatisfy({ $0 != UInt8(ascii: " ") }) else {
            throw failure(i, "expected a finite number")
        }
        return value
    }

    /// An `InputError` for field `i`: `expected …, found "…"`.
    public func failure(_ i: Int, _ expected: String) -> InputError {
        InputError(source: source, line: line, field: columns[i], "\(expected), found \(InputError.quote(bytes(i)))")
    }

    /// Parses ASCII digits; `nil` for an empty field, any other byte, or a value over `UInt64.max`.
    @inline(__always)
    public static func parseUnsigned(_ digits: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard !digits.isEmpty else { return nil }
        var value: UInt64 = 0
        for byte in digits {
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(digit))
            guard !o1, !o2 else { return nil }
            value = sum
        }
        return value
    }
}
