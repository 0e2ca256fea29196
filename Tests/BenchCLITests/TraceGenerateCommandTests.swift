import Foundation
import TestSupport
import Testing

/// `bench trace generate` end to end: reproducible files and one-line refusals.
@Suite(.scratchFolder) struct TraceGenerateCommandTests {
    func generate(_ arguments: [String], out: URL) throws -> BenchProcess {
        try BenchProcess.run(["trace", "generate"] + arguments + ["--out", out.path])
    }

    @Test func theSameArgumentsWriteTheSameBytes() throws {
        let folder = try BenchProcess.scratch()
        let arguments = ["--behavior", "revisitor", "--seed", "42", "--duration", "2m", "--refresh-rate", "120"]
        for name in ["a.csv", "b.csv"] {
            let result = try generate(arguments, out: folder.appendingPathComponent(name))
            #expect(result.status == 0 && result.stdout.isEmpty && result.stderr.isEmpty)
        }
        let a = try Data(contentsOf: folder.appendingPathComponent("a.csv"))
        #expect(a == (try Data(contentsOf: folder.appendingPathComponent("b.csv"))))
        let lines = String(decoding: a, as: UTF8.self).split(separator: "\n")
        #expect(lines.first == "t_ms,offset_pt")
        #expect(lines.count == 1 + 120_000_000_000 / 8_333_333)
        #expect(lines[1] == "0.000,0.00" && lines[2].hasPrefix("8.333,"))

        let other = try generate(["--behavior", "revisitor", "--seed", "43", "--duration", "2m", "--refresh-rate", "120"],
                                 out: folder.appendingPathComponent("c.csv"))
        #expect(other.status == 0)
        #expect(a != (try Data(contentsOf: folder.appendingPathComponent("c.csv"))))
    }

    @Test func defaultsToSixtyHertz() throws {
        let out = try BenchProcess.scratch().appendingPathComponent("reader.csv")
        let result = try generate(["--behavior", "reader", "--seed", "0", "--duration", "500ms"], out: out)
        #expect(result.status == 0)
        let lines = try String(contentsOf: out, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 1 + 29 && lines[1] == "0.000,0.00" && lines[2] == "16.667,0.00")
    }

    @Test func anUnknownBehaviourListsTheValidOnesAndWritesNothing() throws {
        let folder = try BenchProcess.scratch()
        let result = try generate(["--behavior", "doomscroller", "--seed", "1", "--duration", "5m"], out: folder.appendingPathComponent("x.csv"))
        #expect(result.status == 2 && result.stdout.isEmpty)
        #expect(result.stderr == "bench: --behavior: unknown behaviour \"doomscroller\"; expected one of reader, browser, skimmer, revisitor\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test(arguments: [
        (["--duration", "8x"], "bench: --duration: expected a duration like 30s, 5m or 8h, found \"8x\""),
        (["--duration=-5m"], "bench: --duration: expected a positive duration, found \"-5m\""),
        (["--duration", "0s"], "bench: --duration: expected a positive duration, found \"0s\""),
        (["--duration", "25h"], "bench: --duration: expected a duration up to 24h, found \"25h\""),
        (["--duration", "5m", "--refresh-rate", "0"], "bench: --refresh-rate: expected a refresh rate from 1 to 1000 Hz"),
        (["--duration", "5m", "--row-height", "0"], "bench: --row-height: expected a height of 1...10000 points, found 0.0"),
        (["--duration", "5m", "--viewport-height=-667"], "bench: --viewport-height: expected a height of 1...10000 points, found -667.0"),
    ])
    func refusesBadValuesInOneLineWithStatus2(arguments: [String], message: String) throws {
        let folder = try BenchProcess.scratch()
        let result = try generate(["--behavior", "browser", "--seed", "1"] + arguments, out: folder.appendingPathComponent("x.csv"))
        #expect(result.status == 2 && result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func refusesANegativeSeed() throws {
        let folder = try BenchProcess.scratch()
        let result = try generate(["--behavior", "browser", "--seed=-1", "--duration", "5m"], out: folder.appendingPathComponent("x.csv"))
        #expect(result.status == 2 && result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("bench: ") && result.stderr.contains("--seed"))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func helpDescribesTheBehavioursAndTheFormat() throws {
        let result = try BenchProcess.run(["trace", "generate", "--help"])
        #expect(result.status == 0)
        for word in ["t_ms,offset_pt", "reader:", "browser:", "skimmer:", "revisitor:", "--refresh-rate"] {
            #expect(result.stdout.contains(word), "\(word)")
        }
    }
}
