import Foundation
import Testing
@testable import FeedBench

/// The check a nested JSON document passes before Foundation reads it: one line with the line
/// number and the field's path for a repeated key, a number no Double holds, too deep a
/// nesting and any syntax error; every well-formed document through untouched.
@Suite struct JSONDocumentCheckTests {
    static func refusal(_ text: String) -> String? {
        do {
            try JSONDocumentCheck.check(Array(text.utf8), source: "net.json")
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test(arguments: [
        #"{"name": "a", "api": {"latency": {"model": "fixed", "ms": 1}}, "list": [1, -2.5e3, "x", true, false, null, [], {}]}"#,
        "\u{FEFF} [ ]\r\n", #""text""#, "0", #"{"a": "\u00e9\ud83d\ude00"}"#,
    ])
    func acceptsWhatRFC8259Allows(document: String) {
        #expect(Self.refusal(document) == nil)
    }

    @Test(arguments: [
        (#"{"offline": true, "offline": false}"#, "net.json:1: offline: expected each field once, found it again (first on line 1)"),
        ("{\"network\": {\"bitsPerSecond\": 1,\n  \"bitsPerSecond\": 2}}",
         "net.json:2: network.bitsPerSecond: expected each field once, found it again (first on line 1)"),
        ("{\"a\": [{\"b\": 1},\n {\"b\": 1e400}]}", "net.json:2: a[1].b: expected a number within ±1.8e308, found 1e400"),
        (#"{"bitsPerSecond": NaN}"#,
         "net.json:1: bitsPerSecond: expected a JSON value (an object, list, string, number, true, false or null), found \"NaN\""),
        (#"{"a": 1 "b": 2}"#, #"net.json:1: a: expected a comma or the closing brace, found "\x22b\x22:""#),
        (#"{"a": 1, b: 2}"#, "net.json:1: expected a field name in double quotes, found \"b:\""),
        (#"{"a": [1, 2}"#, "net.json:1: a[1]: expected a comma or the closing bracket, found \"}\""),
        (#"{"a": 1} x"#, "net.json:1: expected nothing after the JSON value, found \"x\""),
        ("{\"a\":", "net.json:1: a: expected a JSON value, found the end of the file"),
        (#"{a: 1}"#, "net.json:1: expected a field name in double quotes, found \"a:\""),
        (#"{"a": tru}"#, "net.json:1: a: expected a JSON value (an object, list, string, number, true, false or null), found \"tru\""),
    ])
    func refusesInOneLineWithTheLineAndTheField(document: String, message: String) {
        #expect(Self.refusal(document) == message)
    }

    /// 10,000 levels are refused at the 65th, without recursing.
    @Test func refusesNestingPastItsDepth() {
        #expect(Self.refusal(String(repeating: "[", count: 64) + String(repeating: "]", count: 64)) == nil)
        #expect(Self.refusal(String(repeating: "[", count: 10_000)) == "net.json:1: [0][0][0]"
            + String(repeating: "[0]", count: 61) + ": expected at most 64 levels of nesting, found more")
    }

    /// What the check passes, Foundation reads: over random documents built from the grammar,
    /// and their mutations, the two agree on what is JSON (the check also refusing repeated keys
    /// and infinities, which the generator never makes).
    @Test(arguments: 1...40)
    func agreesWithFoundationOnWhatIsJSON(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        func value(_ depth: Int) -> String {
            switch random.next() % (depth > 3 ? 4 : 6) {
            case 0: return ["0", "-1.5", "2e3", "17"][Int(random.next() % 4)]
            case 1: return #""s\n\u0041""#
            case 2: return ["true", "false", "null"][Int(random.next() % 3)]
            case 3: return #""""#
            case 4: return "[" + (0..<Int(random.next() % 3)).map { _ in value(depth + 1) }.joined(separator: ", ") + "]"
            default: return "{" + (0..<Int(random.next() % 3)).map { "\"k\($0)\": " + value(depth + 1) }.joined(separator: ", ") + "}"
            }
        }
        var document = Array(value(0).utf8)
        #expect(Self.refusal(String(decoding: document, as: UTF8.self)) == nil)
        // Drop a byte: both refuse or both accept.
        if !document.isEmpty { document.remove(at: Int(random.next() % UInt64(document.count))) }
        let foundation = (try? JSONSerialization.jsonObject(with: Data(document), options: [.fragmentsAllowed])) != nil
        let text = String(decoding: document, as: UTF8.self)
        #expect((Self.refusal(text) == nil) == foundation, "\(text)")
    }
}
