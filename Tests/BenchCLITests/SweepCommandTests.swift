import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `bench sweep`, `bench merge` and `bench tune` as a user runs them: config files and flags,
/// refusals in one line with exit status 2 and no file, Ctrl-C leaving a valid file, shards
/// merged, and the tune summary.
@Suite(.scratchFolder) struct SweepCommandTests {
    let config = """
    {"profiles": ["low-end"], "policies": ["lru", "fifo"], "windows": [0, 10],
     "behaviors": ["browser"], "seeds": [1, 2], "duration": "5s"}
    """

    func write(_ text: String, _ name: String, in folder: URL) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aConfigAndTheSameFlagsWriteTheSameFile() throws {
        let folder = try BenchProcess.scratch()
        let file = try write(config, "sweep.json", in: folder)
        let a = folder.appendingPathComponent("a.csv").path, b = folder.appendingPathComponent("b.csv").path
        let fromConfig = try BenchProcess.run(["sweep", "--config", file, "--out", a, "--jobs", "2"])
        #expect(fromConfig.status == 0, "\(fromConfig.stderr)")
        #expect(fromConfig.stderr.contains("wrote \(a): 8 runs"))
        let fromFlags = try BenchProcess.run(["sweep", "--profile", "low-end", "--policy", "lru", "--policy", "fifo", "--window", "0,10",
                                              "--behavior", "browser", "--seed", "1,2", "--duration", "5s", "--out", b, "--jobs", "1"])
        #expect(fromFlags.status == 0, "\(fromFlags.stderr)")
        #expect(try String(contentsOfFile: a, encoding: .utf8) == String(contentsOfFile: b, encoding: .utf8))
        // A flag replaces the config's axis.
        let narrowed = try BenchProcess.run(["sweep", "--config", file, "--policy", "lru", "--out", b])
        #expect(narrowed.stderr.contains("wrote \(b): 4 runs"))
    }

    /// `--networks` is the population's networks as the network axis, in its order: the same
    /// bytes as listing them, and `bench report` ranks them by the population's shares.
    @Test func aPopulationIsItsNetworksInItsOrder() throws {
        let folder = try BenchProcess.scratch()
        let a = folder.appendingPathComponent("a.csv").path, b = folder.appendingPathComponent("b.csv").path
        let common = ["sweep", "--profile", "low-end", "--policy", "lru", "--window", "0", "--behavior", "browser", "--duration", "5s"]
        let population = try BenchProcess.run(common + ["--networks", "phones", "--out", a])
        #expect(population.status == 0, "\(population.stderr)")
        let listed = try BenchProcess.run(common + ["--network", "wifi,verizon-lte,tmobile-lte,att-lte-driving,tmobile-umts-driving", "--out", b])
        #expect(listed.status == 0, "\(listed.stderr)")
        let text = try String(contentsOfFile: a, encoding: .utf8)
        #expect(text == (try String(contentsOfFile: b, encoding: .utf8)))
        #expect(text.split(separator: "\n").dropFirst().map { $0.split(separator: ",")[1] }
            == ["wifi", "verizon-lte", "tmobile-lte", "att-lte-driving", "tmobile-umts-driving"])
        let page = folder.appendingPathComponent("r.html").path
        let report = try BenchProcess.run(["report", a, "--out", page])
        #expect(report.status == 0, "\(report.stderr)")
        #expect(try String(contentsOfFile: page, encoding: .utf8).contains(" weighted stalls a seed (1 seed)"))
    }

    @Test(arguments: [
        ("{\"profiles\": [\"low-end\"], \"windows\": \"0\"}", "sweep.json:1: windows: expected a list"),
        ("{\"profiles\": [\"low-end\"],\n \"polices\": [\"lru\"]}", "sweep.json:2: polices: unknown key"),
        ("{\"profiles\": [\"low-end\"],\n \"seeds\": [1, \"x\"]}", "sweep.json:2: seeds: expected a seed"),
        ("{\"profiles\": [\n", "sweep.json:2: expected JSON or YAML, found a syntax error"),
    ])
    func malformedConfigsExitTwoWithoutAFile(text: String, expected: String) throws {
        let folder = try BenchProcess.scratch()
        let file = try write(text, "sweep.json", in: folder)
        let out = folder.appendingPathComponent("out.csv").path
        let result = try BenchProcess.run(["sweep", "--config", file, "--out", out])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("bench: \(file.dropLast("sweep.json".count))\(expected)"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func shardsOutOfRangeAreRefused() throws {
        let result = try BenchProcess.run(["sweep", "--profile", "low-end", "--shard", "3/2", "--out", "/tmp/never.csv"])
        #expect(result.status == 2)
        #expect(result.stderr == "bench: --shard: expected K/N with 1 ≤ K ≤ N (e.g. 2/4), found \"3/2\"\n")
    }

    @Test func shardsMergeAndOtherGridsAreRefused() throws {
        let folder = try BenchProcess.scratch()
        let file = try write(config, "sweep.json", in: folder)
        var shards: [String] = []
        for k in 1...2 {
            let out = folder.appendingPathComponent("shard-\(k).csv").path
            let result = try BenchProcess.run(["sweep", "--config", file, "--shard", "\(k)/2", "--out", out])
            #expect(result.status == 0, "\(result.stderr)")
            shards.append(out)
        }
        let whole = folder.appendingPathComponent("whole.csv").path, merged = folder.appendingPathComponent("merged.csv").path
        #expect(try BenchProcess.run(["sweep", "--config", file, "--out", whole]).status == 0)
        let merge = try BenchProcess.run(["merge", shards[1], shards[0], "--out", merged])
        #expect(merge.status == 0, "\(merge.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: merged)) == Data(contentsOf: URL(fileURLWithPath: whole)))

        let other = folder.appendingPathComponent("other.csv").path
        #expect(try BenchProcess.run(["sweep", "--config", file, "--seed", "3,4", "--shard", "2/2", "--out", other]).status == 0)
        let refused = folder.appendingPathComponent("refused.csv").path
        let mixed = try BenchProcess.run(["merge", shards[0], other, "--out", refused])
        #expect(mixed.status == 2)
        #expect(mixed.stderr.contains("\(other):2: sweep_grid: expected ") && mixed.stderr.contains("these files come from different sweeps"))
        #expect(!FileManager.default.fileExists(atPath: refused))
        let runFile = folder.appendingPathComponent("run.csv").path
        #expect(try BenchProcess.run(["run", "--profile", "low-end", "--network", "lte", "--memory-limit", "1x", "--seed", "1", "--window", "0", "--trace", "browser", "--duration", "5s", "--out", runFile]).status == 0)
        let notSweep = try BenchProcess.run(["merge", runFile, "--out", refused])
        #expect(notSweep.status == 2 && notSweep.stderr.contains("\(runFile):1: expected a sweep results file"))
    }

    /// A Slurm array task's `--shard auto` writes what `--shard K/N` writes; without an engine's
    /// variables, or with a count where K/N gives one, the sweep is refused and writes nothing.
    @Test func shardAutoTakesTheJobEnginesShard() throws {
        let folder = try BenchProcess.scratch()
        let file = try write(config, "sweep.json", in: folder)
        let explicit = folder.appendingPathComponent("explicit.csv").path, auto = folder.appendingPathComponent("auto.csv").path
        #expect(try BenchProcess.run(["sweep", "--config", file, "--shard", "2/2", "--out", explicit]).status == 0)
        let slurm = ["SLURM_ARRAY_TASK_ID": "8", "SLURM_ARRAY_TASK_MIN": "7", "SLURM_ARRAY_TASK_MAX": "8", "SLURM_ARRAY_TASK_COUNT": "2"]
        let result = try BenchProcess.run(["sweep", "--config", file, "--shard", "auto", "--out", auto], environment: slurm)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("(shard 2/2 of a "))
        #expect(try Data(contentsOf: URL(fileURLWithPath: auto)) == Data(contentsOf: URL(fileURLWithPath: explicit)))

        let refused = folder.appendingPathComponent("refused.csv").path
        let engines = ["JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_MAX", "SLURM_ARRAY_TASK_COUNT",
                       "CI_NODE_INDEX", "CI_NODE_TOTAL", "BUILDKITE_PARALLEL_JOB", "BUILDKITE_PARALLEL_JOB_COUNT", "CIRCLE_NODE_INDEX", "CIRCLE_NODE_TOTAL"]
        let none = try BenchProcess.run(["sweep", "--config", file, "--shard", "auto", "--out", refused],
                                        environment: Dictionary(uniqueKeysWithValues: engines.map { ($0, String?.none) }))
        #expect(none.status == 2)
        #expect(none.stderr.hasPrefix("bench: --shard auto: expected a job engine's task variables, found none of JOB_COMPLETION_INDEX, "))
        let counted = try BenchProcess.run(["sweep", "--config", file, "--shard", "1/2", "--shard-count", "2", "--out", refused])
        #expect(counted.status == 2)
        #expect(counted.stderr == "bench: --shard-count: expected only with --shard auto; --shard 1/2 gives the count\n")
        #expect(!FileManager.default.fileExists(atPath: refused))
    }

    /// A real Ctrl-C: the process exits 130 and the destination is a valid sweep file holding
    /// only finished runs, which --resume completes.
    @Test func ctrlCLeavesTheFinishedRunsAndResumeCompletesThem() throws {
        let folder = try BenchProcess.scratch()
        let out = folder.appendingPathComponent("sweep.csv").path
        // 7,200 one-minute sessions: about 13 s in this debug build (720 took 1.3 s once the
        // simulator's module was built whole-module), so the Ctrl-C after 2 s cannot come after
        // the end.
        let runs = 3 * 6 * 2 * 200
        let arguments = ["sweep", "--profile", "low-end", "--policy", "lru,fifo,lfu", "--window", "0,5,10,20,30,50",
                         "--behavior", "browser,skimmer", "--seed", (1...200).map(String.init).joined(separator: ","),
                         "--duration", "60s", "--out", out, "--jobs", "2"]
        let process = Process()
        process.executableURL = BenchProcess.executable
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        Thread.sleep(forTimeInterval: 2)
        kill(process.processIdentifier, SIGINT)
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130, "\(message)")
        #expect(message.contains("interrupted: wrote \(out) with "))
        let text = try String(contentsOfFile: out, encoding: .utf8)
        let lines = text.split(separator: "\n")
        #expect(lines.first?.hasSuffix(",sweep_run,sweep_grid") == true)
        #expect(lines.count < runs + 1)
        #expect(text.hasSuffix("\n"))
        // A valid results file: bench compare reads it.
        #expect(try BenchProcess.run(["compare", out, out]).status == 0)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".tmp") }
        #expect(leftovers.isEmpty)
    }

    /// Issue 64: the image width is one more dimension of tune's candidates, simulated or read
    /// back from a sweep; a width below the cell's pixels is never recommended, and the front's
    /// CSV names each candidate's width.
    @Test func tuneSearchesTheImageWidthAndNeverRecommendsABlurryOne() throws {
        let folder = try BenchProcess.scratch()
        let grid = ["--profile", "low-end", "--network", "lte", "--policy", "fifo", "--memory-limit", "100MB", "--window", "20",
                    "--image-width", "cell,full,300", "--duration", "10s"]
        let out = folder.appendingPathComponent("front.csv").path
        let tuned = try BenchProcess.run(["tune"] + grid + ["--seeds", "2", "--out", out])
        #expect(tuned.status == 0, "\(tuned.stderr)")
        #expect(tuned.stdout.contains("3 configurations, exhaustive search"), "\(tuned.stdout)")
        let recommended = try #require(tuned.stdout.split(separator: "\n").first { $0.hasPrefix("Recommended: ") })
        #expect(recommended.hasSuffix(", images 750 px (the cell)") || recommended.hasSuffix(", images at full size"), "\(recommended)")
        let front = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
        #expect(front.first?.hasSuffix(",image_width,recommended") == true)
        #expect(front.dropFirst().allSatisfy { !$0.contains(",300,") }, "a blurry width is not feasible, so not on the front")
        let chosen = try #require(front.first { $0.hasSuffix(",yes") })
        #expect(chosen.hasSuffix(",750,yes") || chosen.hasSuffix(",full,yes"))

        let sweep = folder.appendingPathComponent("sweep.csv").path
        #expect(try BenchProcess.run(["sweep"] + grid.filter { $0 != "--network" && $0 != "lte" } + ["--network", "lte", "--seed", "1,2", "--out", sweep]).status == 0)
        let read = try BenchProcess.run(["tune", "--results", sweep, "--out", folder.appendingPathComponent("read.csv").path])
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stdout.split(separator: "\n").first { $0.hasPrefix("Recommended: ") } == recommended)
    }

    @Test func tunePrintsTheFrontAndTheRecommendationAndWritesTheFrontAndReadsASweep() throws {
        let folder = try BenchProcess.scratch()
        let out = folder.appendingPathComponent("front.csv").path
        let result = try BenchProcess.run(["tune", "--profile", "low-end", "--policy", "lru,fifo", "--memory-limit", "100MB,200MB",
                                           "--window", "0,20", "--duration", "10s", "--out", out])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("8 configurations, exhaustive search, 80 runs"))
        #expect(result.stdout.contains("\nRecommended: "))
        #expect(result.stdout.contains("over 5 seeds"))
        // How far ns-3 holds the simulated network (low-end's own, lte), after the recommendation,
        // and how the check ran the model; then that ns-3's check replays none of the skimmer's
        // sessions the search also ran.
        #expect(result.stdout.hasSuffix("\n  network lte (HTTP/2): ns-3 holds reader downloads, not browser sessions (docs/network.md)\n"
            + "  held with Linux's idle restart, idle clock and timeout threshold off, which ns-3 lacks\n"
            + "  ns-3 replays no skimmer session: those runs are the model's alone (docs/network.md)\n"))
        #expect(result.stdout.split(separator: "\n").allSatisfy { $0.count <= 100 })
        let front = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
        #expect(front.first?.hasPrefix("profile,policy,memory_limit_bytes,prefetch_window,strategy,seeds,stalls_mean") == true)
        #expect(front.filter { $0.hasSuffix(",yes") }.count == 1)
        let bad = try BenchProcess.run(["tune", "--profile", "low-end", "--constraint", "peak_memory=>3", "--out", out])
        #expect(bad.status == 2 && bad.stderr.hasPrefix("bench: --constraint: expected FIGURE<=VALUE"))

        // The same grid swept, then tuned from the sweep's file: the same front, byte for byte.
        let sweep = folder.appendingPathComponent("sweep.csv").path, read = folder.appendingPathComponent("read.csv").path
        let swept = try BenchProcess.run(["sweep", "--profile", "low-end", "--policy", "lru,fifo", "--memory-limit", "100MB,200MB",
                                          "--window", "0,20", "--seed", "1,2,3,4,5", "--duration", "10s", "--out", sweep])
        #expect(swept.status == 0, "\(swept.stderr)")
        let fromFile = try BenchProcess.run(["tune", "--results", sweep, "--out", read])
        #expect(fromFile.status == 0, "\(fromFile.stderr)")
        #expect(fromFile.stdout.hasPrefix("low-end (iPhone SE (2nd gen)): 8 configurations, read from \(sweep), 80 runs\n"))
        // Read runs are not simulated here: no line about ns-3.
        #expect(!fromFile.stdout.contains("ns-3"))
        // The same front and recommendation: the simulated report less its first line and the
        // three lines about ns-3.
        #expect(fromFile.stdout.split(separator: "\n").dropFirst() == result.stdout.split(separator: "\n").dropFirst().dropLast(3))
        #expect(try String(contentsOfFile: read, encoding: .utf8) == String(contentsOfFile: out, encoding: .utf8))

        // Options that shape a search mean nothing with --results; a profile is needed without it.
        for (arguments, message) in [
            (["--results", sweep, "--window", "5"], "bench: --results: expected no --window with --results"),
            (["--results", sweep, "--duration", "1m"], "bench: --results: expected no --duration with --results"),
            (["--results", sweep, "--profile", "mid"], "bench: --profile: expected a profile the results hold (\"low-end\"), found \"mid\""),
            (["--policy", "lru"], "bench: --profile: expected a built-in profile or a profile JSON file to tune for"),
        ] {
            let refused = try BenchProcess.run(["tune"] + arguments + ["--out", read])
            #expect(refused.status == 2 && refused.stderr.hasPrefix(message), "\(refused.stderr)")
            #expect(refused.stderr.split(separator: "\n").count == 1)
        }
    }
}
