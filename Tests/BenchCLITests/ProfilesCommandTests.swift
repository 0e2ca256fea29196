import Foundation
import TestSupport
import Testing

/// `bench profiles` as a user runs it: the tables, a built-in profile as a JSON template that
/// `bench run --profile FILE` takes, a file printed back as it is, and a bad name refused.
@Suite(.scratchFolder) struct ProfilesCommandTests {
    @Test func listsTheProfilesAndPrintsOneAsJSONThatRunsTake() throws {
        let tables = try BenchProcess.run(["profiles"])
        #expect(tables.status == 0 && tables.stdout.hasPrefix("Device profiles") && tables.stdout.contains("very-bad"))

        let folder = try BenchProcess.scratch()
        let template = try BenchProcess.run(["profiles", "mid"])
        #expect(template.status == 0 && template.stdout.contains("\"model\": \"iPhone 13\""))
        let file = folder.appendingPathComponent("copy.json").path
        try template.stdout.replacingOccurrences(of: "\"name\": \"mid\"", with: "\"name\": \"copy\"")
            .write(toFile: file, atomically: true, encoding: .utf8)
        let run = try BenchProcess.run(["run", "--profile", file, "--memory-limit", "1x", "--seed", "1", "--policy", "lru", "--window", "0", "--trace", "browser",
                                        "--duration", "5s", "--out", folder.appendingPathComponent("copy.csv").path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try String(contentsOfFile: folder.appendingPathComponent("copy.csv").path, encoding: .utf8).contains("\ncopy,lte,2,lru,"))

        let example = BenchProcess.packageRoot.appendingPathComponent("examples/my-phone.json").path
        let printed = try BenchProcess.run(["profiles", example])
        let original = try String(contentsOfFile: example, encoding: .utf8)
        #expect(printed.status == 0 && printed.stdout == original)

        let unknown = try BenchProcess.run(["profiles", "pixel"])
        #expect(unknown.status == 2 && unknown.stdout.isEmpty)
        #expect(unknown.stderr == "bench: --profile: unknown profile \"pixel\"; expected one of low-end, mid, high-end, tablet or a .json file\n")
    }

    /// A preset printed as a network file reads back to the same JSON, runs take it (the file's
    /// name in the network column, its buffer changing the run), and a bad field is refused in
    /// one line naming the file and the field, with nothing written.
    @Test func aNetworkPrintsAsAFileThatRunsTakeAndABadFieldIsRefused() throws {
        let folder = try BenchProcess.scratch()
        let lte = try BenchProcess.run(["profiles", "--network", "lte"])
        #expect(lte.status == 0 && lte.stdout.contains("\"uplinkBitsPerSecond\": 10000000,\n") && lte.stdout.contains("\"bufferPackets\": 50,\n"))
        let file = folder.appendingPathComponent("deep-lte.json").path
        try lte.stdout.replacingOccurrences(of: "\"name\": \"lte\"", with: "\"name\": \"deep-lte\"")
            .replacingOccurrences(of: "\"bufferPackets\": 50", with: "\"bufferPackets\": 1000")
            .write(toFile: file, atomically: true, encoding: .utf8)
        let again = try BenchProcess.run(["profiles", "--network", file])
        let written = try String(contentsOfFile: file, encoding: .utf8)
        #expect(again.status == 0 && again.stdout == written)
        let one = ["run", "--profile", "low-end", "--network", "lte", "--memory-limit", "1x", "--seed", "1", "--policy", "lru", "--window", "20", "--trace", "browser",
                   "--duration", "20s"]
        let deep = try BenchProcess.run(one + ["--network", file, "--out", folder.appendingPathComponent("deep.csv").path])
        let shallow = try BenchProcess.run(one + ["--network", "lte", "--out", folder.appendingPathComponent("lte.csv").path])
        #expect(deep.status == 0 && shallow.status == 0, "\(deep.stderr)\(shallow.stderr)")
        let deepRow = try String(contentsOfFile: folder.appendingPathComponent("deep.csv").path, encoding: .utf8)
        let lteRow = try String(contentsOfFile: folder.appendingPathComponent("lte.csv").path, encoding: .utf8)
        #expect(deepRow.contains("\nlow-end,deep-lte,2,lru,") && lteRow.contains("\nlow-end,lte,2,lru,"))
        #expect(deepRow.split(separator: "\n")[1].dropFirst(16) != lteRow.split(separator: "\n")[1].dropFirst(11), "the buffer changes the run")

        for (edit, field) in [(("\"loss\": 0", "\"loss\": 2"), "loss"), (("\"bufferPackets\": 1000", "\"bufferPackets\": 0"), "bufferPackets"),
                              (("\"http\": \"2\"", "\"http\": \"3\""), "http"), (("\"tls\": true", "\"tls\": 1"), "tls"),
                              (("\"cubicPausesWhenIdle\": true", "\"cubicPausesWhenIdle\": \"no\""), "cubicPausesWhenIdle"),
                              (("\"recoveryTimeoutKeepsThreshold\": true", "\"recoveryTimeoutKeepsThreshold\": 0"), "recoveryTimeoutKeepsThreshold"),
                              (("\"maxConcurrentStreams\": 100", "\"maxConcurrentStreams\": 0"), "maxConcurrentStreams"),
                              (("\"streamWindowBytes\": 2097152", "\"streamWindowBytes\": 2147483648"), "streamWindowBytes"),
                              (("\"connectionWindowBytes\": 10485760", "\"connectionWindowBytes\": 65534"), "connectionWindowBytes"),
                              (("\"jitterMs\": 0", "\"jitter\": 0"), "jitter")] {
            let bad = folder.appendingPathComponent("bad.json").path
            try (try String(contentsOfFile: file, encoding: .utf8)).replacingOccurrences(of: edit.0, with: edit.1)
                .write(toFile: bad, atomically: true, encoding: .utf8)
            let out = folder.appendingPathComponent("bad.csv").path
            let refused = try BenchProcess.run(one + ["--network", bad, "--out", out])
            #expect(refused.status == 2 && refused.stderr.hasPrefix("bench: \(bad): network.\(field): "), "\(refused.stderr)")
            #expect(refused.stderr.split(separator: "\n").count == 1 && !FileManager.default.fileExists(atPath: out))
        }
        let missing = try BenchProcess.run(["profiles", "--network", "5g"])
        #expect(missing.status == 2 && missing.stderr.hasPrefix("bench: --network: expected a network preset (wifi, dsl, lte, 3g, edge, very-bad, verizon-lte, tmobile-lte, att-lte-driving, tmobile-umts-driving)"))
    }

    @Test func presetsListWhatEachDoesAndTheLibraryVersionItFollows() throws {
        let result = try BenchProcess.run(["presets"])
        #expect(result.status == 0 && result.stderr.isEmpty)
        for line in ["nuke — Nuke 13.2", "kingfisher — Kingfisher 8.11", "sdwebimage — SDWebImage 5.21", "default — seed 001"] {
            #expect(result.stdout.contains("\n\(line)\n") || result.stdout.hasPrefix("\(line)\n"), "\(line)")
        }
        #expect(result.stdout.contains("not modelled"))
        #expect(result.stdout.split(separator: "\n").allSatisfy { $0.count <= 100 }, "fits 100 columns")
    }
}
