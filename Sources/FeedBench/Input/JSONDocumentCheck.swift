import Foundation

/// A check of a JSON document before Foundation's `JSONSerialization` reads it, for the inputs
/// whose values nest: network files, `bench serve`'s conditions (file and `PUT /_conditions`) and
/// workloads. It refuses, in one line with the line number and the field's path
/// (`network.bitsPerSecond`, `api.latency`), what that reader lets through or refuses without
/// saying where:
/// - a key given twice in one object: the reader kept the last without a word;
/// - a number no `Double` holds: `1e400` became infinity;
/// - more than `maxDepth` levels of nesting: 10,000 got the reader's own refusal, with no line;
/// - anything else outside RFC 8259: `NaN`, a missing comma, a stray byte.
///
/// Strings and numbers are scanned as profile files' are (`FlatJSONObject.Scanner`). O(n) in
/// the document, and iterative: no input makes it recurse.
///
/// `parse` is the check and the read in one: what those inputs call.
public enum JSONDocumentCheck {
    /// The deepest nesting accepted; FeedBench's documents need 4.
    public static let maxDepth = 64

    /// An object or array the scan is inside.
    struct Level {
        let isObject: Bool
        /// The object's keys so far, each with the line it is on.
        var keys: [String: Int] = [:]
        /// The current key (objects) or the current element's index (arrays).
        var key = ""
        var index = 0
    }

    /// The JSON value of `data` as `JSONSerialization` reads it (any value at the top, for the
    /// caller to refuse what is not an object in its own words), once `check` has passed it.
    public static func parse(_ data: Data, source: String) throws -> Any {
        try check(Array(data), source: source)
        guard let value = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            throw InputError(source: source, "expected JSON, found a document this machine's Foundation cannot read")
        }
        return value
    }

    /// Throws an `InputError` naming `source`, the line and the field for the first thing in
    /// `bytes` that is not one well-formed JSON value of at most `maxDepth` levels with distinct
    /// keys and finite numbers.
    public static func check(_ bytes: [UInt8], source: String) throws {
        var scanner = FlatJSONObject.Scanner(bytes: bytes, source: source)
        var levels: [Level] = []
        var expectingValue = true
        func path() -> String? {
            let parts = levels.map { $0.isObject ? ($0.key.isEmpty ? "" : ".\($0.key)") : "[\($0.index)]" }.joined()
            return parts.isEmpty ? nil : String(parts.drop { $0 == "." })
        }
        /// A key, its colon, and a value to come; the position is where the key should start.
        func key() throws {
            levels[levels.count - 1].key = ""
            scanner.skipWhitespace()
            guard scanner.peek() == UInt8(ascii: "\"") else {
                throw scanner.failure(path(), "expected a field name in double quotes, found \(scanner.found())")
            }
            let line = scanner.line
            let key = try scanner.string()
            levels[levels.count - 1].key = key
            if let earlier = levels[levels.count - 1].keys[key] {
                throw InputError(source: source, line: line, field: path(), "expected each field once, found it again (first on line \(earlier))")
            }
            levels[levels.count - 1].keys[key] = line
            scanner.skipWhitespace()
            guard scanner.peek() == UInt8(ascii: ":") else { throw scanner.failure(path(), "expected a colon after the field name, found \(scanner.found())") }
            scanner.position += 1
            expectingValue = true
        }
        while true {
            scanner.skipWhitespace()
            if expectingValue {
                guard let byte = scanner.peek() else { throw scanner.failure(path(), "expected a JSON value, found the end of the file") }
                expectingValue = false
                switch byte {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    guard levels.count < maxDepth else { throw scanner.failure(path(), "expected at most \(maxDepth) levels of nesting, found more") }
                    let isObject = byte == UInt8(ascii: "{")
                    levels.append(Level(isObject: isObject))
                    scanner.position += 1
                    scanner.skipWhitespace()
                    if scanner.peek() == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                        scanner.position += 1
                        levels.removeLast()
                    } else if isObject {
                        try key()
                    } else {
                        expectingValue = true
                    }
                case UInt8(ascii: "\""):
                    _ = try scanner.string()
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    let number = try scanner.number(of: path() ?? "value")
                    guard let value = Double(number), value.isFinite else {
                        throw scanner.failure(path(), "expected a number within ±1.8e308, found \(number)")
                    }
                default:
                    guard let literal = ["true", "false", "null"].first(where: { scanner.bytes[scanner.position...].starts(with: $0.utf8) }),
                          scanner.position + literal.utf8.count == bytes.count
                          || FlatJSONObject.Scanner.delimiters.contains(bytes[scanner.position + literal.utf8.count]) else {
                        throw scanner.failure(path(), "expected a JSON value (an object, list, string, number, true, false or null), found \(scanner.found())")
                    }
                    scanner.position += literal.utf8.count
                }
                continue
            }
            guard let level = levels.last else {
                guard scanner.position == bytes.count else { throw scanner.failure(nil, "expected nothing after the JSON value, found \(scanner.found())") }
                return
            }
            let closing = level.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
            if scanner.peek() == UInt8(ascii: ",") {
                scanner.position += 1
                if level.isObject {
                    try key()
                } else {
                    levels[levels.count - 1].index += 1
                    expectingValue = true
                }
            } else if scanner.peek() == closing {
                scanner.position += 1
                levels.removeLast()
            } else {
                throw scanner.failure(path(), "expected a comma or \(level.isObject ? "the closing brace" : "the closing bracket"), found \(scanner.found())")
            }
        }
    }
}
