import Foundation
import TestSupport
import Testing

/// `bench compare` end to end on results files written by `bench run`: exit status 0 within
/// tolerance, 1 on a regression (the row named), 2 on unusable input (one stderr line with
/// file:line), and the three output forms.
@Suite(.scratchFolder) struct CompareCommandTests {
    /// A fresh small results file (8 rows: 4 policies × windows 0 and 20, browser, 15 s), its
    /// text, and a scratch folder for edited copies.
    func generate() throws -> (path: String, text: String, folder: URL) {
        let folder = try BenchProcess.scratch()
        let path = folder.appendingPathComponent("base.csv").path
        let run = try BenchProcess.run(["run", "--profile", "low-end", "--memory-limit", "1x", "--seed", "1", "--window", "0,20", "--trace", "browser",
                                        "--duration", "15s", "--out", path])
        #expect(run.status == 0, "\(run.stderr)")
        return (path, try String(contentsOfFile: path, encoding: .utf8), folder)
    }

    /// Writes `text` with `edits` (1-based line, column, new value) applied, and returns its path.
    func write(_ text: String, editing edits: [(Int, String, String)] = [], to folder: URL, name: String = "new.csv") throws -> String {
        let header = text.prefix { $0 != "\n" }.split(separator: ",").map(String.init)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (line, column, value) in edits {
            var cells = lines[line - 1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            cells[header.firstIndex(of: column)!] = value
            lines[line - 1] = cells.joined(separator: ",")
        }
        let path = folder.appendingPathComponent(name).path
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Expects a one-line refusal with exit status 2 and nothing on stdout.
    func expectRefusal(_ result: BenchProcess, startingWith message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == 2, sourceLocation: sourceLocation)
        #expect(result.stderr.hasPrefix("bench: \(message)"), "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stdout.isEmpty, sourceLocation: sourceLocation)
    }

    @Test func identicalFilesExitZeroWithNoChange() throws {
        let (path, text, folder) = try generate()
        let copy = try write(text, to: folder)
        let result = try BenchProcess.run(["compare", path, copy])
        #expect(result.status == 0 && result.stderr.isEmpty)
        #expect(result.stdout.hasSuffix("8 rows compared: 0 worse, 0 better, 0 within tolerance, 8 unchanged\nno change: 8 rows, 24 metrics each\n"))
    }

    @Test func aHitRateWorseBeyondToleranceExitsOneNamingTheRow() throws {
        let (path, text, folder) = try generate()
        let new = try write(text, editing: [(3, "hit_rate", "0.700000")], to: folder)
        let result = try BenchProcess.run(["compare", path, new])
        #expect(result.status == 1)
        #expect(result.stdout.contains("\nworse: policy=lru prefetch_window=20\n  hit_rate  0.800000 → 0.700000  -0.100000  -12.5 %  worse  (±0.005000)\n"), "\(result.stdout)")
        #expect(result.stdout.hasSuffix("\nregression: 1 row worse beyond tolerance\n"))
        #expect(result.stdout.split(separator: "\n").allSatisfy { $0.count <= 100 })
        // A looser tolerance lets it through.
        #expect(try BenchProcess.run(["compare", path, new, "--tolerance", "hit_rate=0.11"]).status == 0)
    }

    @Test func onlyImprovementsExitZero() throws {
        let (path, text, folder) = try generate()
        let new = try write(text, editing: [(3, "hit_rate", "0.850000"), (3, "stalls", "2"), (5, "bytes_downloaded", "1000")], to: folder)
        let result = try BenchProcess.run(["compare", path, new])
        #expect(result.status == 0)
        #expect(result.stdout.contains("8 rows compared: 0 worse, 2 better, 0 within tolerance, 6 unchanged\nno regression beyond tolerance\n"))
    }

    @Test func changesWithinToleranceExitZero() throws {
        let (path, text, folder) = try generate()
        let new = try write(text, editing: [(3, "hit_rate", "0.803000")], to: folder)
        let result = try BenchProcess.run(["compare", path, new])
        #expect(result.status == 0)
        #expect(result.stdout.contains("\nwithin tolerance: policy=lru prefetch_window=20\n"))
    }

    @Test func rowsOnOneSideAreReported() throws {
        let (path, text, folder) = try generate()
        var lines = text.split(separator: "\n").map(String.init)
        lines.remove(at: 2)  // lru, window 20
        lines.append(lines[1].replacingOccurrences(of: "low-end,lte,2,lru,471859200,157286400,0,", with: "low-end,lte,2,lru,471859200,157286400,5,"))
        let new = try write(lines.joined(separator: "\n") + "\n", to: folder)
        let result = try BenchProcess.run(["compare", path, new])
        #expect(result.status == 0)
        #expect(result.stdout.contains("\nonly in base: policy=lru prefetch_window=20 (line 3)\nonly in new: policy=lru prefetch_window=5 (line 9)\n"), "\(result.stdout)")
        #expect(result.stdout.contains("7 rows compared: 0 worse, 0 better, 0 within tolerance, 7 unchanged; 1 only in base; 1 only in new"))
    }

    @Test func anotherSchemaIsRefused() throws {
        let (path, text, folder) = try generate()
        let new = try write(text.replacingOccurrences(of: ",stalls,", with: ",stall_count,"), to: folder)
        expectRefusal(try BenchProcess.run(["compare", path, new]),
                      startingWith: "\(new):1: expected the results columns as bench run writes them; column 22 should be \"stalls\", found \"stall_count\"")
    }

    @Test func aRepeatedIdentityIsRefusedWithFileAndLine() throws {
        let (path, text, folder) = try generate()
        let new = try write(text + text.split(separator: "\n")[4] + "\n", to: folder)
        expectRefusal(try BenchProcess.run(["compare", path, new]), startingWith: "\(new):10: expected one row per identity (")
    }

    @Test func aNonNumericCellIsRefusedWithFileLineAndColumn() throws {
        let (path, text, folder) = try generate()
        let new = try write(text, editing: [(6, "stall_ms_p95", "fast")], to: folder)
        expectRefusal(try BenchProcess.run(["compare", new, path]),
                      startingWith: "\(new):6: stall_ms_p95: expected a non-negative number of milliseconds with at most 3 decimals, found \"fast\"")
    }

    @Test func aMissingFileIsRefused() throws {
        let (path, _, _) = try generate()
        expectRefusal(try BenchProcess.run(["compare", path, "/nonexistent/new.csv"]),
                      startingWith: "/nonexistent/new.csv: cannot open: No such file or directory")
    }

    @Test(arguments: [
        (["--tolerance", "hitrate=0.1"], "--tolerance: unknown metric \"hitrate\"; expected one of displays, memory_hits, "),
        (["--tolerance", "hit_rate=lots"], "--tolerance: hit_rate: expected a non-negative number with at most 6 decimals"),
        (["--tolerance", "stalls"], "--tolerance: expected METRIC=VALUE or METRIC=PERCENT%"),
        (["--metrics", "hit_rate,speed"], "--metrics: unknown metric \"speed\"; expected one of displays, "),
        (["--format", "html"], "--format: expected one of table, csv, markdown, found \"html\""),
        (["--by", "policy"], "--by: expected --base VALUE with it"),
    ])
    func badOptionsAreRefusedWithTheValidChoices(options: [String], message: String) throws {
        let (path, _, _) = try generate()
        expectRefusal(try BenchProcess.run(["compare", path, path] + options), startingWith: message)
    }

    @Test func policiesInsideTheLowEndResultsAgainstLRU() throws {
        let result = try BenchProcess.run(["compare", BenchProcess.fixtures.appendingPathComponent("low-end-48.csv").path,
                                           "--by", "policy", "--base", "lru"])
        #expect(result.status == 1, "LFU's memory hit rate collapses under the skimmer")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0].hasPrefix("base: policy=lru in ") && lines[0].hasSuffix("Fixtures/low-end-48.csv"))
        #expect(lines[1].hasPrefix("new:  each other policy in ") && lines[1].hasSuffix("Fixtures/low-end-48.csv"))
        #expect(lines.filter { $0.hasSuffix(":") && $0.hasPrefix("policy=") } == ["policy=lfu:", "policy=fifo:", "policy=ttl:max-age=300:"])
        #expect(lines.contains("worse: prefetch_window=5 trace=skimmer"))
        #expect(lines.filter { $0.hasPrefix("12 rows compared: ") }.count == 3)
        #expect(lines.allSatisfy { $0.count <= 100 })
    }

    @Test func markdownIsReadyForAPullRequestComment() throws {
        let (path, text, folder) = try generate()
        let new = try write(text, editing: [(3, "hit_rate", "0.700000"), (5, "stalls", "2")], to: folder)
        let result = try BenchProcess.run(["compare", path, new, "--format", "markdown"])
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "### FeedBench results: regression: 1 row worse beyond tolerance")
        #expect(lines[1] == "" && lines[2] == "Base `\(path)`, new `\(new)`, 24 metrics compared.")
        let table = lines.drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }
        #expect(Array(table) == [
            "| | row | metric | base | new | delta | change | tolerance |",
            "|:--|:--|:--|--:|--:|--:|--:|:--|",
            "| **worse** | policy=lru prefetch_window=20 | hit_rate | 0.800000 | 0.700000 | -0.100000 | -12.5 % | ±0.005000 |",
            "| better | policy=lfu prefetch_window=20 | stalls | 3 | 2 | -1 | -33.3 % | ±5 % |",
        ])
        #expect(lines.contains("**Summary:** 8 rows compared: 1 worse, 1 better, 0 within tolerance, 6 unchanged"))
    }

    @Test func csvListsEveryComparedMetric() throws {
        let (path, text, folder) = try generate()
        let new = try write(text, editing: [(3, "hit_rate", "0.700000")], to: folder)
        let result = try BenchProcess.run(["compare", path, new, "--format", "csv", "--metrics", "hit_rate,stalls"])
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines[0] == "profile,network,http,policy,memory_limit_bytes,disk_limit_bytes,prefetch_window,trace,seed,launches,scenario,group,metric,base,new,delta,change_percent,tolerance,verdict")
        #expect(lines.count == 1 + 8 * 2)
        #expect(lines.contains("low-end,lte,2,lru,471859200,157286400,20,browser,1,1,cacheFirst,,hit_rate,0.800000,0.700000,-0.100000,-12.5,0.005000,worse"))
    }

    /// A comparison that pairs no row compares nothing, and a CI gate on it must not pass (it
    /// used to exit 0 with "0 rows compared").
    @Test func filesWithNoIdentityInCommonAreRefused() throws {
        let (path, text, folder) = try generate()
        let mid = folder.appendingPathComponent("mid.csv").path
        let run = try BenchProcess.run(["run", "--profile", "mid", "--memory-limit", "1x", "--seed", "1", "--window", "0", "--trace", "browser", "--duration", "5s", "--out", mid])
        #expect(run.status == 0, "\(run.stderr)")
        expectRefusal(try BenchProcess.run(["compare", path, mid]),
                      startingWith: "\(path): expected rows with an identity also in \(mid), found no identity in common (8 rows here, 4 there)\n")
        // Inside one file: an lfu row that matches no lru row in the other identity columns.
        let lines = text.split(separator: "\n")
        let unpaired = try write([lines[0], lines[1], lines[4]].joined(separator: "\n") + "\n", to: folder, name: "unpaired.csv")
        #expect(lines[1].contains(",lru,") && lines[4].contains(",lfu,"))
        expectRefusal(try BenchProcess.run(["compare", unpaired, "--by", "policy", "--base", "lru"]),
                      startingWith: "\(unpaired): expected rows with another policy equal to a policy=lru row in every other identity column, found none\n")
    }
}
