/// A refused input, said in one line: where (file and line, or the option), which field, and
/// what was expected. `bench` prints `description` and exits with status 2.
public struct InputError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The file path, or the command-line option (`--capacity`) the value came from.
    public var source: String
    /// The 1-based line in `source`, when it is a file.
    public var line: Int?
    /// The field or column, when one is to blame.
    public var field: String?
    /// What was expected and what was found.
    public var message: String

    /// The refusal of runs whose sessions showed no image at all, found only by running them:
    /// there is nothing to rank. `source` names the command.
    public static func noDisplays(source: String, runs: Int) -> InputError {
        InputError(source: source, "expected sessions that show images, found 0 displays in \(runs) run\(runs == 1 ? "" : "s"); give a longer --duration or check --trace, --strategy and --offline")
    }

    public init(source: String, line: Int? = nil, field: String? = nil, _ message: String) {
        self.source = source
        self.line = line
        self.field = field
        self.message = message
    }

    /// One line: control characters in the source and field (a path given as `" \n"`) are
    /// escaped as in `quote`.
    public var description: String {
        var text = Self.escapingControls(source)
        if let line { text += ":\(line)" }
        text += ": "
        if let field { text += "\(Self.escapingControls(field)): " }
        return text + message
    }

    /// `text` with each control character (U+0000–U+001F, U+007F) written `\xNN`.
    public static func escapingControls(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return text }
        var escaped = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F {
                escaped += "\\x" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 2)
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}

extension InputError {
    /// Quotes a found value for a message, shortened to `limit` bytes and with control bytes
    /// escaped, so a binary or 10 MB line still makes one readable line.
    public static func quote<Bytes: Collection>(_ bytes: Bytes, limit: Int = 40) -> String where Bytes.Element == UInt8 {
        var text = "\""
        for byte in bytes.prefix(limit) {
            switch byte {
            case 0x20..<0x7f where byte != UInt8(ascii: "\""): text.unicodeScalars.append(Unicode.Scalar(byte))
            default: text += "\\x" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        if bytes.count > limit { text += "…" }
        return text + "\""
    }

    /// Quotes a string value for a message (see `quote(_:limit:)` for bytes); paths are quoted
    /// whole (`limit: .max`).
    public static func quote(_ value: String, limit: Int = 40) -> String { quote(Array(value.utf8), limit: limit) }
}

extension String {
    func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
