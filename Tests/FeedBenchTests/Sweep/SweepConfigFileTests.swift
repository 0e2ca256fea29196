@testable import FeedBench
import Foundation
import TestSupport
import Testing

/// Sweep configs: JSON and YAML give the same grid; every malformed config is refused in one
/// line naming the file, the line and the key.
@Suite(.scratchFolder) struct SweepConfigFileTests {
    let json = """
    {"profiles": ["low-end", "mid"], "policies": ["lru", "lfu"], "windows": [0, 10, 20],
     "behaviors": ["browser", "skimmer"], "seeds": [1, 2, 3], "duration": "30s", "launches": 2}
    """
    let yaml = """
    profiles: [low-end, mid]
    policies:
      - lru
      - lfu
    windows: [0, 10, 20]
    behaviors: [browser, skimmer]
    seeds: [1, 2, 3]
    duration: 30s
    launches: 2
    """

    func texts(_ values: [SweepGrid.Value]) -> [String] { values.map(\.text) }

    @Test func jsonAndYamlGiveTheSameGrid() throws {
        let a = try SweepConfigFile.parse(json, source: "a.json")
        let b = try SweepConfigFile.parse(yaml, source: "b.yaml")
        for grid in [a, b] {
            #expect(texts(grid.profiles) == ["low-end", "mid"])
            #expect(texts(grid.policies) == ["lru", "lfu"])
            #expect(texts(grid.windows) == ["0", "10", "20"])
            #expect(texts(grid.seeds) == ["1", "2", "3"])
            #expect(grid.session.duration == 30_000_000_000 && grid.session.launches == 2)
        }
        #expect(try SweepPlan(a).fingerprint == SweepPlan(b).fingerprint)
        #expect(try SweepPlan(a).count == 2 * 2 * 3 * 2 * 3)
    }

    @Test func aByteOrderMarkIsAccepted() throws {
        #expect(try texts(SweepConfigFile.parse("\u{FEFF}" + json, source: "a.json").profiles) == ["low-end", "mid"])
    }

    @Test(arguments: [
        ("", "s.json:1: expected a mapping of sweep axes"),
        ("[1, 2]", "s.json:1: expected a mapping of sweep axes (e.g. {\"profiles\": [\"low-end\"]}), found a list"),
        ("{\"profiles\": [\"low-end\"],\n \"windwos\": [0]}", "s.json:2: windwos: unknown key; expected one of profiles, networks"),
        ("{\"policies\": \"lru\"}", "s.json:1: policies: expected a list"),
        ("{\"seeds\": []}", "s.json:1: seeds: expected at least one value"),
        ("{\"windows\": [[0]]}", "s.json:1: windows: expected a number or a string, found a list"),
        ("{\"profiles\": [\"low-end\"\n", "s.json:2: expected JSON or YAML, found a syntax error"),
        ("profiles: [low-end]\nprofiles: [mid]", "s.json: profiles: expected each key once, found it again"),
        ("launches: [1]", "s.json:1: launches: expected one value, found a list"),
        ("launches: 0", "s.json:1: launches: expected a whole number of launches from 1 to 1000, found \"0\""),
        ("duration: soon", "s.json:1: duration:"),
        ("duration: 25h", "s.json:1: duration: expected a duration up to 24h, found \"25h\""),
    ])
    func malformedConfigsAreRefused(text: String, expected: String) {
        #expect {
            try SweepConfigFile.parse(text, source: "s.json")
        } throws: { error in
            "\(error)".hasPrefix(expected)
        }
    }

    @Test(arguments: [
        ("windows: [0, 10, fast]", "s.yaml:1: windows: unknown window \"fast\""),
        ("policies:\n  - lru\n  - mru", "s.yaml:3: policies: unknown policy \"mru\""),
        ("seeds: [1, -2]", "s.yaml:1: seeds: expected a seed from 0 to"),
        ("memory_limits: [150MB, 150000000B]", "s.yaml:1: memory_limits: expected each value once, found \"150000000B\", the same as \"150MB\""),
        ("memory_limits: [200]", "s.yaml:1: memory_limits: expected a size with a unit, such as 200MB or 64KiB"),
        ("disk_limits: [150000000]", "s.yaml:1: disk_limits: expected a size with a unit, such as 200MB or 64KiB"),
        ("profiles: [pixel]", "s.yaml:1: profiles: unknown profile \"pixel\""),
        ("policies: [belady]", "s.yaml:1: policies: belady needs every future request"),
        ("behaviors: [scroller]", "s.yaml:1: behaviors: unknown behaviour \"scroller\""),
        ("seeds: [1234567890123456789012345]", "s.yaml:1: seeds: expected a seed from 0 to 18446744073709551615, found \"1234567890123456789012345\""),
        ("windows: [.nan]", "s.yaml:1: windows: unknown window \".nan\""),
        ("windows: [-5]", "s.yaml:1: windows: unknown window \"-5\""),
        ("memory_limits: [-5MB]", "s.yaml:1: memory_limits: "),
        ("disk_limits: [.inf]", "s.yaml:1: disk_limits: "),
    ])
    func badValuesNameTheirLineAndKey(text: String, expected: String) throws {
        let grid = try SweepConfigFile.parse(text, source: "s.yaml")
        #expect {
            try SweepPlan(grid)
        } throws: { error in
            "\(error)".hasPrefix(expected)
        }
    }

    @Test func crlfLineEndsAreAccepted() throws {
        let grid = try SweepConfigFile.parse("profiles: [low-end]\r\nseeds:\r\n  - 3\r\n", source: "s.yaml")
        #expect(texts(grid.profiles) == ["low-end"] && texts(grid.seeds) == ["3"])
    }

    @Test func aTenMegabyteLineIsRefusedInOneShortLine() throws {
        let huge = String(repeating: "x", count: 10 << 20)
        let grid = try SweepConfigFile.parse("{\"policies\": [\"\(huge)\"]}", source: "s.json")
        #expect {
            try SweepPlan(grid)
        } throws: { error in
            "\(error)".hasPrefix("s.json:1: policies: unknown policy \"xxxx") && "\(error)".count < 400
        }
    }

    @Test func binaryGarbageIsRefused() throws {
        let path = try SharedFiles.scratchDirectory().appendingPathComponent("garbage.json").path
        try Data([0x7B, 0x00, 0xFF, 0xFE, 0x01, 0x80]).write(to: URL(fileURLWithPath: path))
        #expect {
            try SweepConfigFile.read(path: path)
        } throws: { error in
            "\(error)" == "\(path):1: expected a JSON or YAML text file, found bytes that are not UTF-8 text"
        }
    }
}
