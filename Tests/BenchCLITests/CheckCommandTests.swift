import Foundation
import TestSupport
import Testing

/// `bench check` end to end: the committed results still match the model exactly, a doctored
/// copy fails naming the row and metric, and unusable input is refused. One profile each
/// (about a minute and a half in a debug build); CI checks all four.
@Suite(.scratchFolder) struct CheckCommandTests {
    @Test func theCommittedLowEndResultsMatchTheModel() throws {
        let result = try BenchProcess.run(["check", "low-end", "--results", BenchProcess.results.path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasPrefix("low-end: 3420 rows match \(BenchProcess.results.path)/low-end.csv exactly ("))
        #expect(result.stdout.contains("\nchecked 1 profile in "))
    }

    /// (That a `--tolerance` lets such a change through is `bench compare`'s, tested there: a
    /// second check would simulate the whole matrix again.)
    @Test func aDoctoredCopyFailsNamingTheRowAndMetric() throws {
        let folder = try BenchProcess.scratch()
        let text = try String(contentsOf: BenchProcess.results.appendingPathComponent("low-end.csv"), encoding: .utf8)
        var lines = text.split(separator: "\n").map(String.init)
        // lru at 1/32 of the profile's cache, window 5, skimmer, seed 1, on Wi-Fi, at the cell's width.
        let line = try #require(lines.firstIndex { $0.hasPrefix("low-end,wifi,2,lru,14745600,157286400,5,skimmer,1,") })
        var cells = lines[line].split(separator: ",").map(String.init)
        #expect(cells[2] == "2" && cells[3] == "lru" && cells[4] == "14745600" && cells[6] == "5" && cells[7] == "skimmer" && cells[8] == "1")
        let evictions = lines[0].split(separator: ",").firstIndex(of: "evictions")!
        cells[evictions] = String(Int(cells[evictions])! + 1)  // informational, still a model change
        lines[line] = cells.joined(separator: ",")
        try (lines.joined(separator: "\n") + "\n").write(to: folder.appendingPathComponent("low-end.csv"), atomically: true, encoding: .utf8)

        let result = try BenchProcess.run(["check", "low-end", "--results", folder.path])
        #expect(result.status == 1)
        #expect(result.stdout.hasPrefix("low-end: differs from \(folder.path)/low-end.csv\n"))
        #expect(result.stdout.contains("\nchanged: network=wifi policy=lru memory_limit_bytes=14745600 prefetch_window=5 trace=skimmer seed=1 scenario=cacheFirst;width=750\n  evictions  \(cells[evictions]) → \(Int(cells[evictions])! - 1)  -1  "), "\(result.stdout)")
        #expect(result.stdout.contains("\ndiffers: 1 row beyond tolerance, 0 rows on one side only\n"))
        #expect(result.stdout.contains("for p in low-end mid high-end tablet; do swift run -c release bench --profile $p; done"))
        // The fresh results are kept for a look.
        let kept = result.stdout.split(separator: "\n").first { $0.contains("the fresh results are in ") }
        let scratch = kept.map { String($0.split(separator: " ").last!.dropLast()) }
        #expect(scratch.map { FileManager.default.fileExists(atPath: $0 + "/low-end.csv") } == true)
        if let scratch { try FileManager.default.removeItem(atPath: scratch) }
    }

    /// Every profile's results are read before the first one runs: a folder holding only
    /// low-end's is refused at once, with nothing on stdout, not after low-end has been simulated.
    @Test func aMissingBaselineIsRefusedBeforeAnyProfileRuns() throws {
        let folder = try BenchProcess.scratch()
        try FileManager.default.copyItem(at: BenchProcess.results.appendingPathComponent("low-end.csv"),
                                         to: folder.appendingPathComponent("low-end.csv"))
        let result = try BenchProcess.run(["check", "low-end", "mid", "--results", folder.path])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty, "\(result.stdout)")
        #expect(result.stderr == "bench: \(folder.path)/mid.csv: cannot open: No such file or directory\n", "\(result.stderr)")
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
