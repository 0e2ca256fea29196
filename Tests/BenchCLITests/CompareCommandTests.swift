import Foundation
import TestSupport
import Testing

/// `bench compare` end to end on results files written by `bench run`: configurations compared
/// on their means over the seeds, exit status 0 unless a gated check got worse beyond its
/// tolerance and the seeds' noise, 1 then (the configuration named), 2 on unusable input (one
/// stderr line with file:line), and the four output forms.
@Suite(.scratchFolder) struct CompareCommandTests {
    /// A fresh small results file (12 rows: lru and fifo × windows 0 and 20 × seeds 1, 2, 3,
    /// browser, 15 s: 4 configurations), its text, and a scratch folder for edited copies.
    func generate() throws -> (path: String, text: String, folder: URL) {
        let folder = try BenchProcess.scratch()
        let path = folder.appendingPathComponent("base.csv").path
        let run = try BenchProcess.run(["run", "--image-width", "full", "--profile", "low-end", "--network", "lte", "--memory-limit", "1x", "--seed", "1,2,3", "--window", "0,20", "--trace", "browser",
                                        "--policy", "lru,fifo", "--duration", "15s", "--search", "full", "--out", path])
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

    /// `column` of every row matching `policy` and `window` changed by `change`.
    func editing(_ text: String, policy: String, window: String, column: String, _ change: (Int64) -> Int64) -> String {
        let header = text.prefix { $0 != "\n" }.split(separator: ",").map(String.init)
        let (index, policyColumn, windowColumn) = (header.firstIndex(of: column)!, header.firstIndex(of: "policy")!, header.firstIndex(of: "prefetch_window")!)
        return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { number, line in
            var cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard number > 0, cells.count > index, cells[policyColumn] == policy, cells[windowColumn] == window else { return String(line) }
            cells[index] = String(change(Int64(cells[index])!))
            return cells.joined(separator: ",")
        }.joined(separator: "\n")
    }

    @Test func identicalFilesPassWithNothingChanged() throws {
        let (path, text, folder) = try generate()
        let copy = try write(text, to: folder)
        let result = try BenchProcess.run(["compare", path, copy])
        #expect(result.status == 0 && result.stderr.isEmpty)
        #expect(result.stdout.contains("\nmeans over seeds 1, 2, 3; a change counts beyond its tolerance and the seeds' noise\n"))
        #expect(result.stdout.contains("\n4 configurations compared on the gated checks:\n"))
        #expect(result.stdout.contains("\nworse (0):\nbetter on a gated check (0):\nchanged only on ungated metrics (0):\n"))
        #expect(result.stdout.hasSuffix("\ngate: pass — no gated check, nor the answer, got worse beyond tolerance and noise\n"))
        #expect(result.stdout.split(separator: "\n").allSatisfy { $0.count <= 100 }, "\(result.stdout)")
    }

    /// A configuration's stalls doubled on every seed: worse beyond the tolerance and the seeds'
    /// noise, exit 1 naming it; a tolerance that allows it lets it through.
    @Test func aGatedMetricWorseExitsOneNamingTheConfiguration() throws {
        let (path, text, folder) = try generate()
        let new = try write(editing(text, policy: "lru", window: "20", column: "stalls") { $0 * 2 + 10 }, to: folder)
        let result = try BenchProcess.run(["compare", path, new])
        #expect(result.status == 1, "\(result.stdout)")
        #expect(result.stdout.contains("\nworse (1):\n  policy=lru prefetch_window=20 (line "), "\(result.stdout)")
        #expect(result.stdout.contains(", worse (±5 %)\n") && result.stdout.contains("\n    stalls "))
        #expect(result.stdout.hasSuffix("\ngate: FAIL — 1 configuration worse on a gated check\n"))
        #expect(result.stdout.split(separator: "\n").allSatisfy { $0.count <= 100 })
        #expect(try BenchProcess.run(["compare", path, new, "--tolerance", "stalls=1000%"]).status == 0)
    }

    /// A metric outside the gate is reported, marked so, and fails only when `--gate` names it.
    @Test func anUngatedMetricIsReportedAndFailsOnlyWhenGated() throws {
        let (path, text, folder) = try generate()
        let new = try write(editing(text, policy: "fifo", window: "0", column: "bytes_downloaded") { $0 * 2 }, to: folder)
        let reported = try BenchProcess.run(["compare", path, new])
        #expect(reported.status == 0 && reported.stdout.contains("\n    not gated: bytes_downloaded +100.0 % worse\n"), "\(reported.stdout)")
        #expect(reported.stdout.contains("\nbetter on a gated check (0):\nchanged only on ungated metrics (1):\n  policy=fifo prefetch_window=0 (line "))
        let gated = try BenchProcess.run(["compare", path, new, "--gate", "bytes_downloaded"])
        #expect(gated.status == 1 && gated.stdout.contains("\ngated: bytes_downloaded\n"))
    }

    @Test func configurationsOnOneSideAreReported() throws {
        let (path, text, folder) = try generate()
        let lines = text.split(separator: "\n").map(String.init)
        let new = try write(lines.filter { !($0.contains(",lru,") && $0.contains(",20,browser,")) }.joined(separator: "\n") + "\n", to: folder)
        let result = try BenchProcess.run(["compare", path, new])
        #expect(result.status == 0)
        #expect(result.stdout.contains("\nonly in base (1): policy=lru prefetch_window=20 (line "), "\(result.stdout)")
        #expect(result.stdout.contains("\n3 configurations compared on the gated checks:\n"))
    }

    /// A configuration with fewer seeds on one side (a screened search ran the first only) is
    /// compared on the seeds both ran, and the head says how many were; seeds with none in
    /// common are refused.
    @Test func fewerSeedsCompareOnTheSeedsBothRanAndOtherSeedsAreRefused() throws {
        let (path, text, folder) = try generate()
        let lines = text.split(separator: "\n").map(String.init)
        let fewer = try write(lines.filter { !($0.contains(",lru,") && $0.contains(",browser,3,")) }.joined(separator: "\n") + "\n", to: folder)
        let compared = try BenchProcess.run(["compare", path, fewer])
        #expect(compared.status == 0, "\(compared.stderr)")
        #expect(compared.stdout.contains("\n2 configurations ran fewer seeds on one side (screened out): compared on the seeds both ran\n"),
                "\(compared.stdout)")
        #expect(compared.stdout.contains("\n4 configurations compared on the gated checks:\n"))
        let renamed = lines.map { $0.replacingOccurrences(of: ",browser,1,", with: ",browser,7,").replacingOccurrences(of: ",browser,2,", with: ",browser,8,")
            .replacingOccurrences(of: ",browser,3,", with: ",browser,9,") }
        let other = try write(renamed.joined(separator: "\n") + "\n", to: folder, name: "other.csv")
        expectRefusal(try BenchProcess.run(["compare", path, other]),
                      startingWith: "\(other):2: expected a seed of \(path):2 (1, 2, 3) for the same configuration, found 7, 8, 9")
    }

    /// A file whose last row was cut off while it was written (here mid-number, so every row
    /// still has its fields) is refused, as `bench merge` refuses it.
    @Test func aFileCutOffMidRowIsRefused() throws {
        let (path, text, folder) = try generate()
        var cut = text
        cut.removeLast(3)
        let new = try write(cut, to: folder)
        expectRefusal(try BenchProcess.run(["compare", path, new]),
                      startingWith: "\(new):13: expected a line end after the last row, found the file ending mid-row: it was cut off while it was written")
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
        expectRefusal(try BenchProcess.run(["compare", path, new]), startingWith: "\(new):14: expected one row per identity (")
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
        (["--format", "html"], "--format: expected one of table, csv, markdown, github, found \"html\""),
        (["--gate", "stalls,speed"], "--gate: expected metrics with a direction or memory_limit, found \"speed\""),
        (["--gate", "displays"], "--gate: expected metrics with a direction or memory_limit, found \"displays\""),
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
        let new = try write(editing(text, policy: "lru", window: "20", column: "stalls") { $0 * 2 + 10 }, to: folder)
        let result = try BenchProcess.run(["compare", path, new, "--format", "markdown"])
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "### bench compare: `\(path)` → `\(new)`")
        #expect(lines.contains("**The answer**") && lines.contains("| profile | before | after | stalls | display wait p95 | verdict |"))
        #expect(lines.contains("**4 configurations compared on the gated checks**") && lines.contains("**Worse (1)**"))
        #expect(lines.contains { $0.hasPrefix("| `policy=lru prefetch_window=20` | stalls | ") && $0.hasSuffix(" | worse |") }, "\(result.stdout)")
        #expect(lines.contains("**gate: FAIL — 1 configuration worse on a gated check**"))
        #expect(result.stdout.count <= 60_000)
    }

    @Test func csvListsEveryConfigurationsMetrics() throws {
        let (path, text, folder) = try generate()
        let new = try write(editing(text, policy: "lru", window: "20", column: "stalls") { $0 * 2 + 10 }, to: folder)
        let result = try BenchProcess.run(["compare", path, new, "--format", "csv", "--metrics", "hit_rate,stalls"])
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines[0] == "profile,network,http,policy,memory_limit_bytes,disk_limit_bytes,prefetch_window,trace,launches,scenario,metric,gated,base_mean,base_min,base_max,new_mean,new_min,new_max,change_percent,tolerance,noise_margin,verdict")
        // The two metrics asked for, then the gated ones not among them.
        #expect(lines.count == 1 + 4 * 6)
        #expect(lines.filter { $0.hasPrefix("low-end,lte,2,lru,471859200,157286400,20,browser,1,cacheFirst,") }.map { $0.split(separator: ",")[10] }
            == ["hit_rate", "stalls", "display_latency_ms_p95", "memory_warnings", "jetsam_kills", "hitch_time_ratio_ms_per_s"])
        #expect(lines.contains { $0.hasPrefix("low-end,lte,2,lru,471859200,157286400,20,browser,1,cacheFirst,stalls,yes,") && $0.hasSuffix(",5%,") == false && $0.hasSuffix(",worse") })
    }

    /// `--format github`: GitHub's annotations — a notice of each profile's answer, an error for
    /// each configuration worse — then the table; the Markdown goes to `$GITHUB_STEP_SUMMARY`.
    @Test func githubGetsAnnotationsAndTheStepSummary() throws {
        let (path, text, folder) = try generate()
        let new = try write(editing(text, policy: "lru", window: "20", column: "stalls") { $0 * 2 + 10 }, to: folder)
        let summary = folder.appendingPathComponent("summary.md").path
        let result = try BenchProcess.run(["compare", path, new, "--format", "github"], environment: ["GITHUB_STEP_SUMMARY": summary])
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix("::notice title=bench compare%3A the answer for low-end::low-end: "), "\(lines[0])")
        #expect(lines[1].hasPrefix("::error title=bench compare%3A worse::policy=lru prefetch_window=20: stalls "), "\(lines[1])")
        #expect(lines[2] == "base: \(path)")
        #expect(try String(contentsOfFile: summary, encoding: .utf8).hasPrefix("### bench compare: `\(path)` → `\(new)`"))
    }

    /// The main job on lte (fifo and lru) over HTTP/1.1 against HTTP/2: the answer better (far
    /// fewer stalls, another configuration), yet 6 browsing configurations stall more on every
    /// seed (+6 to +14 stalls each), so the default gate fails naming them, `--gate-answer` passes, a
    /// stalls tolerance wider than their largest change (+55.6 %) lets them through, and gating
    /// on bytes downloaded, which rise, fails; its Markdown fits a pull-request comment and says
    /// what it left out.
    @Test func theMainJobOverHTTP11HasABetterAnswerAndSomeConfigurationsWorse() throws {
        let folder = try BenchProcess.scratch()
        // The main job's matrix on lte for fifo and lru, every seed, over HTTP/2 and HTTP/1.1.
        let matrix = ["--profile", "low-end", "--network", "lte", "--policy", "fifo,lru", "--search", "full", "--image-width", "full"]
        let results = folder.appendingPathComponent("low-end-http2.csv").path
        let http11 = folder.appendingPathComponent("low-end-http11.csv").path
        for (out, http) in [(results, "2"), (http11, "1.1")] {
            let run = try BenchProcess.run(matrix + ["--http", http, "--out", out])
            #expect(run.status == 0, "\(run.stderr)")
        }
        let plain = try BenchProcess.run(["compare", results, http11])
        #expect(plain.status == 1, "\(plain.stdout)")
        #expect(plain.stdout.contains("\nchanged in every row: http 2 → 1.1\n"))
        #expect(plain.stdout.contains("\nThe answer:\n  low-end: fifo 14.1 MiB, window 5 → fifo 28.1 MiB, window 10 (another configuration; better)\n"),
                "\(plain.stdout)")
        #expect(plain.stdout.contains("\n144 configurations compared on the gated checks:\n"))
        #expect(plain.stdout.contains("\nworse (6):\n  policy=fifo memory_limit_bytes=58982400 prefetch_window=30 trace=browser (line 98)\n"))
        #expect(plain.stdout.hasSuffix("\ngate: FAIL — 6 configurations worse on a gated check\n"))
        #expect(plain.stdout.split(separator: "\n").allSatisfy { $0.count <= 100 })
        #expect(try BenchProcess.run(["compare", results, http11, "--gate-answer"]).status == 0)
        #expect(try BenchProcess.run(["compare", results, http11, "--gate", "display_latency_ms_p95,memory_limit"]).status == 0)
        #expect(try BenchProcess.run(["compare", results, http11, "--gate", "bytes_downloaded", "--gate-answer"]).status == 0)
        #expect(try BenchProcess.run(["compare", results, http11, "--gate", "display_latency_ms_p95,bytes_downloaded"]).status == 1)
        #expect(try BenchProcess.run(["compare", results, http11, "--tolerance", "stalls=60%"]).status == 0)
        #expect(try BenchProcess.run(["compare", results, http11, "--tolerance", "stalls=50%"]).status == 1)
        let markdown = try BenchProcess.run(["compare", results, http11, "--format", "markdown"])
        #expect(markdown.status == 1 && markdown.stdout.count <= 60_000, "\(markdown.stdout.count) characters")
        #expect(markdown.stdout.hasSuffix(" configurations left out to stay under 60000 characters: `bench compare \(results) \(http11) --format csv` lists every one._\n"))
    }

    /// A sweep's mean, min and max rows summarise its seeds' rows: the gate leaves them out and
    /// compares the seeds, so a sweep and `bench run` of the same grid are the same runs.
    @Test func aSweepsAggregateRowsAreLeftOutAndItsSeedsCompared() throws {
        let folder = try BenchProcess.scratch()
        let (swept, ran) = (folder.appendingPathComponent("sweep.csv").path, folder.appendingPathComponent("run.csv").path)
        let grid = ["--profile", "low-end", "--network", "lte", "--policy", "lru,fifo", "--window", "0", "--duration", "5s", "--seed", "1,2", "--memory-limit", "1x",
                    "--image-width", "full"]
        #expect(try BenchProcess.run(["sweep"] + grid + ["--behavior", "browser", "--out", swept]).status == 0)
        #expect(try BenchProcess.run(["run"] + grid + ["--trace", "browser", "--out", ran]).status == 0)
        #expect(try String(contentsOfFile: swept, encoding: .utf8).contains(",browser,mean,1,"))
        let result = try BenchProcess.run(["compare", swept, ran])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("\nmeans over seeds 1, 2; ") && result.stdout.contains("\n2 configurations compared on the gated checks:\n"))
        #expect(result.stdout.contains("\nworse (0):\nbetter on a gated check (0):\nchanged only on ungated metrics (0):\n"))
    }

    /// A comparison that pairs no row compares nothing, and a CI gate on it must not pass (it
    /// used to exit 0 with "0 rows compared").
    @Test func filesWithNoIdentityInCommonAreRefused() throws {
        let (path, text, folder) = try generate()
        let mid = folder.appendingPathComponent("mid.csv").path
        let run = try BenchProcess.run(["run", "--image-width", "full", "--profile", "mid", "--network", "lte", "--memory-limit", "1x", "--seed", "1", "--window", "0", "--trace", "browser", "--policy", "lru", "--duration", "5s", "--out", mid])
        #expect(run.status == 0, "\(run.stderr)")
        expectRefusal(try BenchProcess.run(["compare", path, mid]),
                      startingWith: "\(path): expected configurations also in \(mid), found none in common (4 here, 1 there)\n")
        // Inside one file: a fifo row that matches no lru row in the other identity columns.
        let lines = text.split(separator: "\n")
        let unpaired = try write([lines[0], lines[1], lines[10]].joined(separator: "\n") + "\n", to: folder, name: "unpaired.csv")
        #expect(lines[1].contains(",lru,") && lines[10].contains(",fifo,") && lines[10].contains(",20,browser,"))
        expectRefusal(try BenchProcess.run(["compare", unpaired, "--by", "policy", "--base", "lru"]),
                      startingWith: "\(unpaired): expected rows with another policy equal to a policy=lru row in every other identity column, found none\n")
    }
}
