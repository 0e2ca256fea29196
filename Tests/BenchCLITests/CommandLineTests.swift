import Foundation
import TestSupport
import Testing

/// The command line itself: `--version`, a "did you mean" for a misspelt option, values that
/// start with a minus, and `--trace` taking the same values in run, sweep and tune.
@Suite(.scratchFolder) struct CommandLineTests {
    @Test func versionPrintsTheLibrarysVersion() throws {
        for arguments in [["--version"], ["run", "--version"], ["tune", "--version"]] {
            let result = try BenchProcess.run(arguments)
            #expect(result.status == 0 && result.stderr.isEmpty)
            #expect(result.stdout.wholeMatch(of: /bench \d+\.\d+\.\d+\n/) != nil, "\(result.stdout)")
        }
    }

    @Test(arguments: [
        (["--profil", "low-end"], "--profil: expected an option of bench run, found an unknown one; did you mean --profile?"),
        (["run", "--profile", "low-end", "--network", "lte", "--polcy", "lru"], "--polcy: expected an option of bench run, found an unknown one; did you mean --policy?"),
        (["sweep", "--behaviour", "browser"], "--behaviour: expected an option of bench sweep, found an unknown one; did you mean --behavior?"),
        (["tune", "--profile", "low-end", "--memory-limits=100MB"],
         "--memory-limits: expected an option of bench tune, found an unknown one; did you mean --memory-limit?"),
        (["trace", "generate", "--behavior", "browser", "--seed", "1", "--duration", "5s", "--out", "x.csv", "--refresh", "120"],
         "--refresh: expected an option of bench trace generate, found an unknown one; did you mean --refresh-rate?"),
        (["compare", "a.csv", "b.csv", "--zzzzzzzz"], "--zzzzzzzz: expected an option of bench compare, found an unknown one (see bench compare --help)"),
    ])
    func aMisspeltOptionGetsTheNearestKnownOne(arguments: [String], message: String) throws {
        let result = try BenchProcess.run(arguments)
        #expect(result.status == 2 && result.stdout.isEmpty)
        #expect(result.stderr == "bench: \(message)\n")
    }

    /// A value starting with a minus is the option's value, refused by the option's own rule
    /// (it used to be taken for an option: "Missing value for '--window <list>'").
    @Test(arguments: [
        (["run", "--profile", "low-end", "--network", "lte", "--window", "-5"], "--window: unknown window \"-5\"; expected one of N, N+M, Xscreens"),
        (["sweep", "--profile", "low-end", "--window", "-5"], "--window: unknown window \"-5\"; expected one of N, N+M, Xscreens"),
        (["tune", "--profile", "low-end", "--window", "-5"], "--window: unknown window \"-5\"; expected one of N, N+M, Xscreens"),
        (["run", "--profile", "low-end", "--network", "lte", "--launches", "-1"], "--launches: expected 1...1000 launches, found -1"),
        (["run", "--profile", "low-end", "--network", "lte", "--jobs", "-2"], "--jobs: expected 1...1024 jobs, found -2"),
        (["trace", "zipf", "--objects", "-5", "--out", "z.csv"], "--objects: expected 1...100000000 objects, found -5"),
    ])
    func aNegativeValueIsTheOptionsValue(arguments: [String], message: String) throws {
        let folder = try BenchProcess.scratch()
        let result = try BenchProcess.run(arguments + (arguments.contains("--out") ? [] : ["--out", folder.appendingPathComponent("r.csv").path]),
                                          in: folder)
        #expect(result.status == 2 && result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("bench: \(message)"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    /// `bench sweep --trace skimmer` is `--behavior skimmer`, as `bench run --trace skimmer` is.
    @Test func sweepAndTuneTakeBehavioursWithTrace() throws {
        let folder = try BenchProcess.scratch()
        let grid = ["sweep", "--profile", "low-end", "--policy", "lru", "--window", "0", "--duration", "5s"]
        let traced = try BenchProcess.run(grid + ["--trace", "skimmer", "--out", folder.appendingPathComponent("t.csv").path])
        let behaved = try BenchProcess.run(grid + ["--behavior", "skimmer", "--out", folder.appendingPathComponent("b.csv").path])
        #expect(traced.status == 0 && behaved.status == 0, "\(traced.stderr)")
        let rows = try String(contentsOfFile: folder.appendingPathComponent("t.csv").path, encoding: .utf8)
        #expect(rows == (try String(contentsOfFile: folder.appendingPathComponent("b.csv").path, encoding: .utf8)))
        #expect(rows.contains(",0,skimmer,1,1,"))
        let tuned = try BenchProcess.run(["tune", "--profile", "low-end", "--policy", "lru", "--window", "0,5", "--memory-limit", "100MB,200MB",
                                          "--trace", "skimmer", "--seeds", "2", "--duration", "5s", "--out", folder.appendingPathComponent("f.csv").path])
        #expect(tuned.status == 0, "\(tuned.stderr)")
        #expect(try BenchProcess.run(["sweep", "--trace", "walker", "--out", folder.appendingPathComponent("w.csv").path]).stderr
                == "bench: --trace: unknown behaviour \"walker\"; expected one of reader, browser, skimmer, revisitor or a .csv file\n")
    }
}
