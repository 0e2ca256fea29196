/// The byte-level walk over a HAR capture that `HARReader` runs chunk by chunk: it follows the
/// JSON structure down to `log.entries` — strings with their escapes, nesting, the key of each
/// member — and hands over, one at a time, the bytes of each entry and of `log`'s small members
/// for Foundation to decode. Everything else is skipped after a check that its strings end and
/// its brackets pair up (the values FeedBench decodes are checked in full by the decoder).
///
/// Memory is one captured value (at most `maxValueBytes`, refused beyond) and one key;
/// time is O(bytes), a handful of comparisons a byte.
struct HARScanner {
    /// A value the reader decodes.
    enum Member: Equatable {
        case entry(index: Int)
        case version, creator, browser, pages
    }

    /// What the scanner found for the reader.
    enum Event {
        /// A whole captured value, the line where it starts and its bytes (valid until the
        /// handler returns).
        case value(Member, line: Int, bytes: UnsafeRawBufferPointer)
        /// `log`'s closing brace, on `line`: every member of `log` has been met.
        case logClosed(line: Int)
    }

    /// Which container the walk is in, outside the values it captures or skips.
    enum Place { case beforeTop, top, log, entries, afterTop }
    /// What the next structural byte may be.
    enum Expect { case keyOrClose, key, colon, value, valueOrClose, commaOrClose }

    let source: String
    let maxValueBytes: Int

    /// The 1-based line of the byte being looked at.
    private(set) var line = 1
    var place = Place.beforeTop
    var expect = Expect.value
    /// Bytes of the UTF-8 byte-order mark seen at the very start.
    var byteOrderMark = 0
    /// Bytes consumed before the current chunk.
    var offset = 0

    /// The key being read (raw, escapes as written), and the last one read.
    var inKey = false
    var keyEscaped = false
    var keyBytes: [UInt8] = []
    var key = ""

    /// The value being captured (`member` set) or skipped.
    var inValue = false
    var member: Member?
    var valueLine = 1
    /// The closing bracket each open container of the value expects, innermost last.
    var closers: [UInt8] = []
    var inString = false
    var escaped = false
    var captured: [UInt8] = []

    var sawLog = false
    var sawEntries = false
    /// Entries met so far; the next one's index.
    private(set) var entries = 0

    init(source: String, maxValueBytes: Int) {
        self.source = source
        self.maxValueBytes = maxValueBytes
    }

    // ASCII bytes the walk looks for.
    static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\"), newline = UInt8(ascii: "\n")
    static let openBrace = UInt8(ascii: "{"), closeBrace = UInt8(ascii: "}")
    static let openBracket = UInt8(ascii: "["), closeBracket = UInt8(ascii: "]")
    static let comma = UInt8(ascii: ","), colon = UInt8(ascii: ":")
    static let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t"), carriageReturn = UInt8(ascii: "\r")
    static let byteOrderMarkBytes: [UInt8] = [0xef, 0xbb, 0xbf]

    /// Walks `chunk`, the bytes that follow the previous chunk's, calling `handle` for each
    /// value completed in it. O(chunk) plus the handler.
    mutating func consume(_ chunk: UnsafeBufferPointer<UInt8>, _ handle: (Event) throws -> Void) throws {
        guard let bytes = chunk.baseAddress else { return }
        let end = chunk.count
        defer { offset += end }
        var i = 0
        while i < end {
            if inValue {
                let from = i
                guard let done = try scanValue(bytes, from, end) else {
                    if member != nil { try keep(bytes + from, end - from) }
                    return
                }
                inValue = false
                expect = .commaOrClose
                i = done
                if let member {
                    try keep(bytes + from, done - from)
                    try captured.withUnsafeBytes { try handle(.value(member, line: valueLine, bytes: $0)) }
                    captured.removeAll(keepingCapacity: true)
                    if case .entry = member { entries += 1 }
                }
                continue
            }
            let byte = bytes[i]
            if inKey {
                try readKey(byte)
                i += 1
                continue
            }
            switch byte {
            case Self.space, Self.tab, Self.carriageReturn:
                i += 1
                continue
            case Self.newline:
                line += 1
                i += 1
                continue
            default:
                break
            }
            if place == .beforeTop, byteOrderMark < 3, offset + i == byteOrderMark, byte == Self.byteOrderMarkBytes[byteOrderMark] {
                byteOrderMark += 1
                i += 1
                continue
            }
            try step(byte, found: UnsafeBufferPointer(start: bytes + i, count: end - i), handle)
            // A value starting here is walked from its first byte.
            if !inValue { i += 1 }
        }
    }

    /// At the end of the input: refuses a capture that stops before its closing brace.
    func finish() throws {
        switch place {
        case .afterTop:
            return
        case .beforeTop:  // any byte but whitespace is refused at once
            throw InputError(source: source, line: line, "expected a HAR capture (a JSON object { \"log\": … }), found an empty file")
        default:
            let inEntry = inValue && member == .entry(index: entries)
            throw InputError(source: source, line: inEntry ? valueLine : line, field: inEntry ? path : nil,
                             "expected the rest of the capture, found its end at line \(line) (a capture cut off mid-write?)")
        }
    }

    /// The path of the member whose value is being read, for messages: `log`, `log.pages`,
    /// `log.entries[12]`.
    var path: String {
        switch place {
        case .beforeTop, .top, .afterTop: return key
        case .log: return "log." + key
        case .entries: return "log.entries[\(entries)]"
        }
    }

    // MARK: - Structure outside the values

    /// One structural byte (not whitespace) outside keys and values; `found` starts with it.
    mutating func step(_ byte: UInt8, found: UnsafeBufferPointer<UInt8>, _ handle: (Event) throws -> Void) throws {
        switch (place, expect) {
        case (.beforeTop, _):
            guard byte == Self.openBrace, byteOrderMark == 0 || byteOrderMark == 3 else {
                throw refusal(nil, "expected a HAR capture (a JSON object { \"log\": … }), found \(InputError.quote(found, limit: 20))")
            }
            place = .top
            expect = .keyOrClose
        case (.afterTop, _):
            throw refusal(nil, "expected nothing after the capture's closing }, found \(InputError.quote(found, limit: 20))")
        case (.top, .keyOrClose), (.top, .key), (.log, .keyOrClose), (.log, .key):
            if byte == Self.quote {
                inKey = true
                keyBytes.removeAll(keepingCapacity: true)
            } else if byte == Self.closeBrace && expect == .keyOrClose {
                try closeObject(handle)
            } else {
                throw refusal(place == .log ? "log" : nil, "expected a key in quotes\(expect == .keyOrClose ? " or }" : ""), found \(InputError.quote(found, limit: 20))")
            }
        case (.top, .colon), (.log, .colon):
            guard byte == Self.colon else { throw refusal(path, "expected a colon after the key, found \(InputError.quote(found, limit: 20))") }
            expect = .value
        case (.top, .value), (.log, .value):
            try startMember(byte, found: found)
        case (.top, .commaOrClose), (.log, .commaOrClose):
            if byte == Self.comma {
                expect = .key
            } else if byte == Self.closeBrace {
                try closeObject(handle)
            } else {
                throw refusal(place == .log ? "log" : nil, "expected a comma or }, found \(InputError.quote(found, limit: 20))")
            }
        case (.entries, .valueOrClose) where byte == Self.closeBracket:
            place = .log
            expect = .commaOrClose
        case (.entries, .valueOrClose), (.entries, .value):
            guard byte == Self.openBrace else { throw refusal(path, "expected an entry object, found \(InputError.quote(found, limit: 20))") }
            startValue(.entry(index: entries))
        case (.entries, _):
            if byte == Self.comma {
                expect = .value
            } else if byte == Self.closeBracket {
                place = .log
                expect = .commaOrClose
            } else {
                throw refusal("log.entries", "expected a comma or ] after entry \(entries - 1), found \(InputError.quote(found, limit: 20))")
            }
        case (.top, _), (.log, _):
            preconditionFailure("HARScanner: \(expect) is not an object's state")
        }
    }

    /// The value of the member named `key` starts with `byte`.
    mutating func startMember(_ byte: UInt8, found: UnsafeBufferPointer<UInt8>) throws {
        switch (place, key) {
        case (.top, "log"):
            guard !sawLog else { throw refusal("log", "expected one log, found a second") }
            guard byte == Self.openBrace else { throw refusal("log", "expected an object, found \(InputError.quote(found, limit: 20))") }
            sawLog = true
            place = .log
            expect = .keyOrClose
            return
        case (.log, "entries"):
            guard !sawEntries else { throw refusal("log.entries", "expected one array of entries, found a second") }
            guard byte == Self.openBracket else { throw refusal("log.entries", "expected an array, found \(InputError.quote(found, limit: 20))") }
            sawEntries = true
            place = .entries
            expect = .valueOrClose
            return
        default:
            break
        }
        guard byte == Self.openBrace || byte == Self.openBracket || byte == Self.quote || Self.isLiteral(byte) else {
            throw refusal(path, "expected a JSON value, found \(InputError.quote(found, limit: 20))")
        }
        switch (place, key) {
        case (.log, "version"): startValue(.version)
        case (.log, "creator"): startValue(.creator)
        case (.log, "browser"): startValue(.browser)
        case (.log, "pages"): startValue(.pages)
        default: startValue(nil)
        }
    }

    /// The current object's closing brace.
    mutating func closeObject(_ handle: (Event) throws -> Void) throws {
        if place == .top {
            guard sawLog else { throw refusal("log", "expected a log object, found none") }
            place = .afterTop
        } else {
            guard sawEntries else { throw refusal("log.entries", "expected an array of entries, found none") }
            try handle(.logClosed(line: line))
            place = .top
            expect = .commaOrClose
        }
    }

    /// One byte of a key, after its opening quote.
    mutating func readKey(_ byte: UInt8) throws {
        if keyEscaped {
            keyEscaped = false
        } else if byte == Self.backslash {
            keyEscaped = true
        } else if byte == Self.quote {
            inKey = false
            expect = .colon
            key = Self.unescape(keyBytes)
            return
        }
        guard keyBytes.count < maxValueBytes else {
            throw refusal(place == .log ? "log" : nil, "expected a key of at most \(HARScanner.mebibytes(maxValueBytes)), found a longer one")
        }
        keyBytes.append(byte)
    }

    /// A key's text from its raw bytes; escapes (rare in keys) are decoded by Foundation, and a
    /// key it cannot decode keeps its raw text (no member FeedBench reads is named like that).
    static func unescape(_ raw: [UInt8]) -> String {
        guard raw.contains(backslash),
              let decoded = ([quote] + raw + [quote]).withUnsafeBytes({ try? HARFields.decode($0, fragments: true) }) as? String
        else { return String(decoding: raw, as: UTF8.self) }
        return decoded
    }

    // MARK: - Values

    mutating func startValue(_ member: Member?) {
        inValue = true
        self.member = member
        valueLine = line
        closers.removeAll(keepingCapacity: true)
        inString = false
        escaped = false
    }

    /// Bytes that may continue a number, `true`, `false` or `null` (the decoder, or nothing for
    /// skipped values, checks the spelling).
    static func isLiteral(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."):
            return true
        default:
            return false
        }
    }

    /// Walks the current value from `from`: returns the index just past its last byte, or `nil`
    /// when the chunk ends first. The hot loop: plain string bytes cost three comparisons.
    mutating func scanValue(_ bytes: UnsafePointer<UInt8>, _ from: Int, _ end: Int) throws -> Int? {
        var i = from
        var line = self.line, inString = self.inString, escaped = self.escaped
        defer {
            self.line = line
            self.inString = inString
            self.escaped = escaped
        }
        while i < end {
            if inString {
                if escaped {
                    escaped = false
                    i += 1
                    continue
                }
                while i < end, bytes[i] != Self.quote, bytes[i] != Self.backslash, bytes[i] != Self.newline { i += 1 }
                guard i < end else { return nil }
                switch bytes[i] {
                case Self.quote:
                    inString = false
                    if closers.isEmpty { return i + 1 }
                case Self.backslash: escaped = true
                default: line += 1
                }
                i += 1
                continue
            }
            let byte = bytes[i]
            switch byte {
            case Self.quote:
                inString = true
            case Self.openBrace:
                closers.append(Self.closeBrace)
            case Self.openBracket:
                closers.append(Self.closeBracket)
            case Self.closeBrace, Self.closeBracket:
                guard let expected = closers.last else { return i }  // ends a number or literal
                guard byte == expected else {
                    self.line = line
                    throw refusal(path, "expected \(expected == Self.closeBrace ? "}" : "]") to close the \(expected == Self.closeBrace ? "object" : "array") opened before, found \(InputError.quote(UnsafeBufferPointer(start: bytes + i, count: end - i), limit: 20))")
                }
                closers.removeLast()
                if closers.isEmpty { return i + 1 }
            case Self.newline:
                if closers.isEmpty { return i }
                line += 1
            case Self.space, Self.tab, Self.carriageReturn, Self.comma:
                if closers.isEmpty { return i }
            default:
                if closers.isEmpty && !Self.isLiteral(byte) {
                    self.line = line
                    throw refusal(path, "expected a JSON value, found \(InputError.quote(UnsafeBufferPointer(start: bytes + i, count: end - i), limit: 20))")
                }
            }
            i += 1
        }
        return nil
    }

    /// Appends `count` bytes of the captured value, refusing a value past the limit.
    mutating func keep(_ bytes: UnsafePointer<UInt8>, _ count: Int) throws {
        guard captured.count + count <= maxValueBytes else {
            throw InputError(source: source, line: valueLine, field: path,
                             "expected \(member == .entry(index: entries) ? "an entry" : "a value") of at most \(HARScanner.mebibytes(maxValueBytes)), found a longer one")
        }
        captured.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
    }

    static func mebibytes(_ bytes: Int) -> String {
        bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
    }

    func refusal(_ field: String?, _ message: String) -> InputError {
        InputError(source: source, line: line, field: field, message)
    }
}
