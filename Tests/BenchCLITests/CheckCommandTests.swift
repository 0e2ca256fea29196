import Foundation
import TestScratch
import Testing

/// `bench check` end to end: the committed results still match the model exactly, a doctored
/// copy fails naming the row and metric, and unusable input is refused. One profile each
/// (about 5 s in a debug build); CI checks all four.
@Suite(.scratchFolder) struct CheckCommandTests {
    @Test func theCommittedLowEndResultsMatchTheModel() throws {
        let result = try BenchProcess.run(["check", "low-end", "--results", BenchProcess.results.path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasPrefix("low-end: 48 rows match \(BenchProcess.results.path)/low-end.csv exactly ("))
        #expect(result.stdout.contains("\nchecked 1 profile in "))
    }

    @Test func aDoctoredCopyFailsNamingTheRowAndMetric() throws {
        let folder = try BenchProcess.scratch()
        let text = try String(contentsOf: BenchProcess.results.appendingPathComponent("low-end.csv"), encoding: .utf8)
        var lines = text.split(separator: "\n").map(String.init)
        var cells = lines[4].split(separator: ",").map(String.init)  // lru, window 5, skimmer
        #expect(cells[2] == "lru" && cells[5] == "5" && cells[6] == "skimmer")
        cells[31] = String(Int(cells[31])! + 1)  // evictions: informational, still a model change
        lines[4] = cells.joined(separator: ",")
        try (lines.joined(separator: "\n") + "\n").write(to: folder.appendingPathComponent("low-end.csv"), atomically: true, encoding: .utf8)

        let result = try BenchProcess.run(["check", "low-end", "--results", folder.path])
        #expect(result.status == 1)
        #expect(result.stdout.hasPrefix("low-end: differs from \(folder.path)/low-end.csv\n"))
        #expect(result.stdout.contains("\nchanged: policy=lru prefetch_window=5 trace=skimmer\n  evictions  \(cells[31]) → \(Int(cells[31])! - 1)  -1  "), "\(result.stdout)")
        #expect(result.stdout.contains("\ndiffers: 1 row beyond tolerance, 0 rows on one side only\n"))
        #expect(result.stdout.contains("for p in low-end mid high-end tablet; do swift run -c release bench --profile $p; done"))
        // The fresh results are kept for a look.
        let kept = result.stdout.split(separator: "\n").first { $0.contains("the fresh results are in ") }
        let scratch = kept.map { String($0.split(separator: " ").last!.dropLast()) }
        #expect(scratch.map { FileManager.default.fileExists(atPath: $0 + "/low-end.csv") } == true)
        if let scratch { try FileManager.default.removeItem(atPath: scratch) }
        // A tolerance for that metric lets it through.
        let tolerant = try BenchProcess.run(["check", "low-end", "--results", folder.path, "--tolerance", "evictions=1"])
        #expect(tolerant.status == 0 && tolerant.stdout.hasPrefix("low-end: 48 rows match \(folder.path)/low-end.csv within tolerance ("))
    }

    @Test(arguments: [
        (["check", "pixel"], "--profile: unknown profile \"pixel\""),
        (["check", "mid", "--results", "/nonexistent"], "/nonexistent/mid.csv: cannot open: No such file or directory"),
        (["check", "--tolerance", "speed=5%"], "--tolerance: unknown metric \"speed\""),
    ])
    func unusableInputIsRefused(arguments: [String], message: String) throws {
        let result = try BenchProcess.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("bench: \(message)"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }
}
