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
        #expect(try String(contentsOfFile: folder.appendingPathComponent("copy.csv").path, encoding: .utf8).contains("\ncopy,lte,lru,"))

        let example = BenchProcess.packageRoot.appendingPathComponent("examples/my-phone.json").path
        let printed = try BenchProcess.run(["profiles", example])
        let original = try String(contentsOfFile: example, encoding: .utf8)
        #expect(printed.status == 0 && printed.stdout == original)

        let unknown = try BenchProcess.run(["profiles", "pixel"])
        #expect(unknown.status == 2 && unknown.stdout.isEmpty)
        #expect(unknown.stderr == "bench: --profile: unknown profile \"pixel\"; expected one of low-end, mid, high-end, tablet or a .json file\n")
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
