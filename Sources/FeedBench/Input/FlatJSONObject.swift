/// One JSON object of scalar fields — `{"name": "my-phone", "scale": 3, …}` — read with the line
/// of every field, so a refusal can say `file:line: field: expected …` like the CSV readers.
///
/// FeedBench's own reader rather than `JSONDecoder`, whose errors carry no line, which keeps
/// the last of two equal keys without a word, and whose number handling depends on the
/// Foundation build. Accepted: RFC 8259's syntax for one object whose values are strings or
/// numbers, a UTF-8 byte-order mark, any JSON whitespace (CRLF included). Refused, with the
/// line: anything else at the top level or after the object, a nested object or array,
/// `true`/`false`/`null`, a key given twice, a malformed string or number, a control character
/// inside a string, invalid UTF-8 or an unpaired surrogate escape.
///
/// O(n) in the input; nesting is refused, so no input can make the parser recurse.
public struct FlatJSONObject: Sendable, Equatable {
    /// A field's value: a string (unescaped) or a number (its text, checked against JSON's
    /// number grammar and converted by the caller, which knows the field's type and range).
    public enum Value: Sendable, Equatable {
        case string(String)
        case number(String)
    }

    /// One field: key, value and the 1-based line the key is on.
    public struct Field: Sendable, Equatable {
        public var key: String
        public var value: Value
        public var line: Int
    }

    /// The fields in document order; keys are distinct.
    public let fields: [Field]
    /// The line of the closing brace (where a missing field is reported).
    public let closingLine: Int

    /// Parses `bytes`; `source` names them in messages.
    public init(parsing bytes: [UInt8], source: String) throws {
        var scanner = Scanner(bytes: bytes, source: source)
        fields = try scanner.object()
        closingLine = scanner.closingLine
    }

    /// A byte-level cursor over the document.
    struct Scanner {
        let bytes: [UInt8]
        let source: String
        var position = 0
        var line = 1
        var closingLine = 1

        init(bytes: [UInt8], source: String) {
            self.bytes = bytes
            self.source = source
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        }

        /// The whole document: `{`, fields, `}`, then only whitespace.
        mutating func object() throws -> [Field] {
            skipWhitespace()
            guard peek() == UInt8(ascii: "{") else { throw failure(nil, "expected a JSON object ({ … }) of profile fields, found \(found())") }
            position += 1
            var fields: [Field] = []
            var firstLine: [String: Int] = [:]
            skipWhitespace()
            if peek() == UInt8(ascii: "}") {
                closingLine = line
                position += 1
            } else {
                while true {
                    skipWhitespace()
                    guard peek() == UInt8(ascii: "\"") else { throw failure(nil, "expected a field name in double quotes, found \(found())") }
                    let keyLine = line
                    let key = try string()
                    if let earlier = firstLine[key] {
                        throw InputError(source: source, line: keyLine, field: key, "expected each field once, found it again (first on line \(earlier))")
                    }
                    firstLine[key] = keyLine
                    skipWhitespace()
                    guard peek() == UInt8(ascii: ":") else { throw failure(key, "expected a colon after the field name, found \(found())") }
                    position += 1
                    skipWhitespace()
                    fields.append(Field(key: key, value: try value(of: key), line: keyLine))
                    skipWhitespace()
                    if peek() == UInt8(ascii: ",") {
                        position += 1
                        continue
                    }
                    guard peek() == UInt8(ascii: "}") else { throw failure(key, "expected a comma or the closing brace after the value, found \(found())") }
                    closingLine = line
                    position += 1
                    break
                }
            }
            skipWhitespace()
            guard position == bytes.count else { throw failure(nil, "expected nothing after the closing brace, found \(found())") }
            return fields
        }

        /// A string or number value.
        mutating func value(of key: String) throws -> Value {
            switch peek() ?? 0 {
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number(of: key))
            default: throw failure(key, "expected a string or a number, found \(found())")
            }
        }

        /// A quoted string, unescaped; the position is on its opening quote.
        mutating func string() throws -> String {
            let opening = line
            position += 1
            var text: [UInt8] = []
            while true {
                guard let byte = peek() else {
                    throw InputError(source: source, line: opening, "expected a closing quote for the string opened here, found the end of the file")
                }
                position += 1
                switch byte {
                case UInt8(ascii: "\""):
                    guard let decoded = String(validating: text, as: UTF8.self) else {
                        throw InputError(source: source, line: opening, "expected UTF-8 text in the string, found \(InputError.quote(text))")
                    }
                    return decoded
                case UInt8(ascii: "\\"):
                    try escape(into: &text)
                case 0..<0x20:
                    throw InputError(source: source, line: opening, "expected an escaped control character (\\n, \\t, \\u00XX) in the string, found \(InputError.quote([byte]))")
                default:
                    text.append(byte)
                }
            }
        }

        /// One escape after a backslash, appended as UTF-8.
        mutating func escape(into text: inout [UInt8]) throws {
            guard let letter = peek() else { throw failure(nil, "expected an escape after the backslash, found the end of the file") }
            position += 1
            let simple: [UInt8: UInt8] = [UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F,
                                          UInt8(ascii: "b"): 0x08, UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A,
                                          UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09]
            if let byte = simple[letter] {
                text.append(byte)
                return
            }
            guard letter == UInt8(ascii: "u") else { throw failure(nil, "expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX, found \(InputError.quote([UInt8(ascii: "\\"), letter]))") }
            var scalar = try hex4()
            if (0xD800..<0xDC00).contains(scalar) {
                guard peek() == UInt8(ascii: "\\"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "u") else {
                    throw failure(nil, "expected a low surrogate escape after \\u\(String(scalar, radix: 16, uppercase: true))")
                }
                position += 2
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low) else { throw failure(nil, "expected a low surrogate (\\uDC00–\\uDFFF), found \\u\(String(low, radix: 16, uppercase: true))") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw failure(nil, "expected a Unicode scalar, found the lone surrogate \\u\(String(scalar, radix: 16, uppercase: true))") }
            text.append(contentsOf: Array(String(Character(unicode)).utf8))
        }

        /// Four hexadecimal digits.
        mutating func hex4() throws -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard let byte = peek(), let digit = Int(String(UnicodeScalar(byte)), radix: 16) else {
                    throw failure(nil, "expected four hexadecimal digits after \\u, found \(found())")
                }
                value = value << 4 | UInt32(digit)
                position += 1
            }
            return value
        }

        /// A number's text, checked against `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
        mutating func number(of key: String) throws -> String {
            let start = position
            func digits() -> Int {
                let first = position
                while let byte = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { position += 1 }
                return position - first
            }
            if peek() == UInt8(ascii: "-") { position += 1 }
            let integerStart = position
            var valid = digits() > 0 && (bytes[integerStart] != UInt8(ascii: "0") || position - integerStart == 1)
            if valid, peek() == UInt8(ascii: ".") {
                position += 1
                valid = digits() > 0
            }
            if valid, peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
                position += 1
                if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { position += 1 }
                valid = digits() > 0
            }
            // A number ends at whitespace, a comma or a brace; `12abc` or `1.` is one bad token.
            while let byte = peek(), !Self.delimiters.contains(byte) {
                valid = false
                position += 1
            }
            let text = bytes[start..<position]
            guard valid else { throw failure(key, "expected a JSON number, found \(InputError.quote(text))") }
            return String(decoding: text, as: UTF8.self)
        }

        static let delimiters: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]")]

        mutating func skipWhitespace() {
            while let byte = peek() {
                switch byte {
                case 0x0A: line += 1
                case 0x20, 0x09, 0x0D: break
                default: return
                }
                position += 1
            }
        }

        func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

        /// What is at the position, for a message: the token there (up to the next delimiter,
        /// or the one byte that is a delimiter), or "the end of the file".
        func found() -> String {
            guard position < bytes.count else { return "the end of the file" }
            var end = position + 1
            if !Self.delimiters.contains(bytes[position]) {
                while end < bytes.count, end - position < 41, !Self.delimiters.contains(bytes[end]) { end += 1 }
            }
            return InputError.quote(bytes[position..<end])
        }

        func failure(_ field: String?, _ message: String) -> InputError {
            InputError(source: source, line: line, field: field, message)
        }
    }
}
