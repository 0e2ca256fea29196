import Foundation
import TestSupport
import Testing

/// Issue 14's "Bad input": every option is checked before any simulation starts — every output
/// path included — and an impossible request (a session past 24 h, a launch index beyond
/// --launches, a size without a unit, a run that would show nothing) is refused in one line
/// `bench: <source>: expected …`, exit status 2, and no file written: the folder holds what
/// it held before.
@Suite(.scratchFolder) struct BadInputTests {
    /// A bad command line, and the stderr line it must get (after `bench: `). `<folder>` stands
    /// for the test's folder, which holds `s.yaml` (`config`, when given) and `t.csv` (a key
    /// trace), and is where outputs go.
    struct Case: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        var message: String
        var config: String?
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let quickRun = ["run", "--image-width", "full", "--profile", "low-end", "--policy", "lru", "--memory-limit", "1x", "--seed", "1", "--window", "0", "--trace", "browser", "--duration", "5s"]
    static let quickSweep = ["sweep", "--profile", "low-end", "--policy", "lru", "--window", "0", "--behavior", "browser", "--duration", "5s"]
    static let quickTune = ["tune", "--profile", "low-end", "--policy", "lru", "--window", "0,5", "--behavior", "browser", "--duration", "5s",
                            "--seeds", "2", "--memory-limit", "100MB,200MB"]

    static let impossibleRequests: [Case] = [
        // A session past 24 hours: it used to trap in ScrollTrace with a backtrace.
        Case(arguments: ["run", "--profile", "low-end", "--network", "lte", "--duration", "25h", "--out", "<folder>/r.csv"],
             message: "--duration: expected a duration up to 24h, found \"25h\""),
        Case(arguments: ["sweep", "--profile", "low-end", "--duration", "25h", "--out", "<folder>/r.csv"],
             message: "--duration: expected a duration up to 24h, found \"25h\""),
        Case(arguments: ["sweep", "--config", "<folder>/s.yaml", "--out", "<folder>/r.csv"],
             message: "<folder>/s.yaml:2: duration: expected a duration up to 24h, found \"25h\"", config: "profiles: [low-end]\nduration: 25h\n"),
        Case(arguments: ["tune", "--profile", "low-end", "--duration", "25h", "--out", "<folder>/r.csv"],
             message: "--duration: expected a duration up to 24h, found \"25h\""),
        Case(arguments: ["trace", "generate", "--behavior", "browser", "--seed", "1", "--duration", "25h", "--out", "<folder>/r.csv"],
             message: "--duration: expected a duration up to 24h, found \"25h\""),
        Case(arguments: quickRun + ["--duration", "0s", "--out", "<folder>/r.csv"], message: "--duration: expected a positive duration, found \"0s\""),
        // A launch that does not exist.
        Case(arguments: quickRun + ["--offline", "launch:5", "--out", "<folder>/r.csv"],
             message: "--offline: expected launch:N with N at most the 1 launch of a run (--launches), found \"launch:5\""),
        Case(arguments: quickSweep + ["--launches", "2", "--offline", "launch:3", "--out", "<folder>/r.csv"],
             message: "--offline: expected launch:N with N at most the 2 launches of a run (--launches), found \"launch:3\""),
        Case(arguments: ["sweep", "--config", "<folder>/s.yaml", "--offline", "launch:4", "--out", "<folder>/r.csv"],
             message: "--offline: expected launch:N with N at most the 3 launches of a run (--launches), found \"launch:4\"",
             config: "profiles: [low-end]\nlaunches: 3\n"),
        Case(arguments: quickTune + ["--offline", "launch:2", "--out", "<folder>/r.csv"],
             message: "--offline: expected launch:N with N at most the 1 launch of a run (--launches), found \"launch:2\""),
        // Launches so far apart that the run's clock would overflow (it used to trap).
        Case(arguments: quickRun + ["--launches", "1000", "--gap", "2000000h", "--out", "<folder>/r.csv"],
             message: "--gap: expected 1000 launches of up to 24h, --gap apart, to span at most 100 years, found a gap of 2000000h"),
        // Sessions too short to show an image: found only by running them; still no file.
        Case(arguments: quickRun + ["--duration", "1ms", "--out", "<folder>/r.csv"],
             message: "run: expected sessions that show images, found 0 displays in 5 runs; give a longer --duration or check --trace, --strategy and --offline"),
        Case(arguments: quickTune + ["--duration", "1ms", "--out", "<folder>/r.csv"],
             message: "tune: expected sessions that show images, found 0 displays in 8 runs; give a longer --duration or check --trace, --strategy and --offline"),
    ]

    static let unit = "expected a size with a unit, such as 200MB or 64KiB (B, KB, MB, GB, TB, KiB, MiB, GiB or TiB), found"

    static let sizesWithoutAUnit: [Case] = [
        Case(arguments: quickRun + ["--memory-limit", "200", "--out", "<folder>/r.csv"], message: "--memory-limit: \(unit) \"200\" without one"),
        Case(arguments: quickSweep + ["--memory-limit", "100MB,200", "--out", "<folder>/r.csv"], message: "--memory-limit: \(unit) \"200\" without one"),
        Case(arguments: quickSweep + ["--disk-limit", "150000000", "--out", "<folder>/r.csv"], message: "--disk-limit: \(unit) \"150000000\" without one"),
        Case(arguments: ["sweep", "--config", "<folder>/s.yaml", "--out", "<folder>/r.csv"],
             message: "<folder>/s.yaml:1: memory_limits: \(unit) \"200\" without one", config: "memory_limits: [100MB, 200]\n"),
        Case(arguments: ["tune", "--profile", "low-end", "--memory-limit", "50", "--out", "<folder>/r.csv"], message: "--memory-limit: \(unit) \"50\" without one"),
        Case(arguments: quickTune + ["--memory-budget", "800", "--out", "<folder>/r.csv"], message: "--memory-budget: \(unit) \"800\" without one"),
        Case(arguments: quickTune + ["--constraint", "peak_memory<=300", "--out", "<folder>/r.csv"], message: "--constraint: \(unit) \"300\" without one"),
    ]

    static let hitchRatio = "expected milliseconds per second, ≥ 0 with at most 3 decimals (e.g. 5 or 5ms/s), found"

    /// A hitch time ratio bound that is negative or not a number (issue 28's "Bad input").
    static let badHitchRatios: [Case] = [
        Case(arguments: quickRun + ["--max-hitch-ratio", "-5", "--out", "<folder>/r.csv"], message: "--max-hitch-ratio: \(hitchRatio) \"-5\""),
        Case(arguments: quickRun + ["--max-hitch-ratio", "five", "--out", "<folder>/r.csv"], message: "--max-hitch-ratio: \(hitchRatio) \"five\""),
        Case(arguments: quickTune + ["--max-hitch-ratio", "5.0001", "--out", "<folder>/r.csv"], message: "--max-hitch-ratio: \(hitchRatio) \"5.0001\""),
        Case(arguments: quickTune + ["--constraint", "hitch_ratio<=-1", "--out", "<folder>/r.csv"], message: "--constraint: \(hitchRatio) \"-1\""),
    ]

    /// Outputs that cannot be written, found before anything runs: nothing else is written
    /// either (the results file used to be left behind by a bad --per-launch).
    static let unwritableOutputs: [Case] = [
        Case(arguments: quickRun + ["--out", "<folder>/r.csv", "--per-launch", "/proc/x.csv"],
             message: "--per-launch: expected a path FeedBench can write, found \"/proc/x.csv\" (nothing can be created in \"/proc\": No such file or directory)"),
        Case(arguments: quickRun + ["--out", "<folder>/r.csv", "--timeline", "<folder>"], message: "--timeline: expected a file to write, found the folder \"<folder>\""),
        Case(arguments: quickRun + ["--out", "<folder>"], message: "--out: expected a file to write, found the folder \"<folder>\""),
        Case(arguments: quickRun + ["--out", "<folder>/r.csv", "--store", "<folder>/t.csv"], message: "--store: expected a folder to write, found the file \"<folder>/t.csv\""),
        Case(arguments: quickRun + ["--out", "<folder>/r.csv", "--per-launch", "<folder>/r.csv"],
             message: "--per-launch: expected a file of its own, found \"<folder>/r.csv\", which --out names too"),
        Case(arguments: quickSweep + ["--out", "<folder>/t.csv/r.csv"], message: "--out: expected a path in a folder, found \"<folder>/t.csv/r.csv\" under the file \"<folder>/t.csv\""),
        Case(arguments: quickTune + ["--out", "<folder>"], message: "--out: expected a file to write, found the folder \"<folder>\""),
        Case(arguments: ["report", "<folder>/t.csv", "--out", "<folder>"], message: "--out: expected a file to write, found the folder \"<folder>\""),
        Case(arguments: ["merge", "<folder>/t.csv", "--out", "<folder>"], message: "--out: expected a file to write, found the folder \"<folder>\""),
        Case(arguments: ["cachesim", "--trace", "<folder>/t.csv", "--capacity", "2", "--out", "<folder>"],
             message: "--out: expected a file to write, found the folder \"<folder>\""),
        Case(arguments: ["trace", "zipf", "--objects", "10", "--requests", "10", "--out", "<folder>"],
             message: "--out: expected a file to write, found the folder \"<folder>\""),
        Case(arguments: ["trace", "generate", "--behavior", "browser", "--seed", "1", "--duration", "5s", "--out", "/proc/x.csv"],
             message: "--out: expected a path FeedBench can write, found \"/proc/x.csv\" (nothing can be created in \"/proc\": No such file or directory)"),
    ]

    /// Issue 32's: what `Fuzz/cli` found (and the hand-found cases it was written for), refused
    /// where the value enters, with the range `--help` gives. Each used to trap (SIGILL, SIGSEGV),
    /// write a file before refusing, or refuse in two lines.
    static let fuzzFindings: [Case] = [
        Case(arguments: quickRun + ["--jobs", "9223372036854775807", "--out", "<folder>/r.csv"],
             message: "--jobs: expected 1...1024 jobs, found 9223372036854775807"),
        Case(arguments: quickSweep + ["--jobs", "9223372036854775807", "--out", "<folder>/r.csv"],
             message: "--jobs: expected 1...1024 jobs, found 9223372036854775807"),
        Case(arguments: quickTune + ["--jobs", "9223372036854775807", "--out", "<folder>/r.csv"],
             message: "--jobs: expected 1...1024 jobs, found 9223372036854775807"),
        Case(arguments: ["check", "low-end", "--results", "<folder>", "--jobs", "9223372036854775807"],
             message: "--jobs: expected 1...1024 jobs, found 9223372036854775807"),
        Case(arguments: ["cachesim", "--trace", "<folder>/t.csv", "--mrc", "--capacity", "9223372036854775807", "--out", "<folder>/r.csv"],
             message: "--capacity: expected a positive count or size up to 1000000000000000, found \"9223372036854775807\""),
        // An empty path, refused before any work as a folder is (the results file was written first).
        Case(arguments: quickRun + ["--timeline", "", "--out", "<folder>/r.csv"], message: "--timeline: expected a file to write, found an empty path"),
        Case(arguments: quickRun + ["--out", ""], message: "--out: expected a file to write, found an empty path"),
        Case(arguments: quickRun + ["--out", "<folder>/r.csv", "--store", ""], message: "--store: expected a folder to write, found an empty path"),
        // A device: the atomic rename would have replaced /dev/null with a regular file.
        Case(arguments: quickRun + ["--out", "/dev/null"], message: "--out: expected a file to write, found the device \"/dev/null\""),
        Case(arguments: ["trace", "zipf", "--objects", "10", "--requests", "10", "--out", "/dev/null"],
             message: "--out: expected a file to write, found the device \"/dev/null\""),
        // A path with a newline, said in one line.
        Case(arguments: quickRun + ["--workload", "<folder>/a\nb.json", "--out", "<folder>/r.csv"],
             message: "<folder>/a\\x0Ab.json: cannot read the workload file"),
        Case(arguments: ["trace", "zipf", "--objects", "9223372036854775807", "--requests", "10", "--out", "<folder>/r.csv"],
             message: "--objects: expected 1...100000000 objects, found 9223372036854775807"),
        Case(arguments: ["trace", "zipf", "--objects", "10", "--requests", "9223372036854775807", "--out", "<folder>/r.csv"],
             message: "--requests: expected 0...1000000000 requests, found 9223372036854775807"),
        Case(arguments: ["trace", "generate", "--behavior", "browser", "--seed", "1", "--duration", "5s", "--viewport-height", "1e20", "--out", "<folder>/r.csv"],
             message: "--viewport-height: expected a height of 1...10000 points, found 1e+20"),
    ]

    /// Issue 60's: a population of networks that is not one (`s.yaml` holds the file).
    static let populationRefusals: [Case] = [
        Case(arguments: quickRun + ["--networks", "<folder>/s.yaml", "--out", "<folder>/r.csv"],
             message: "<folder>/s.yaml:1: networks: expected at least one network, found an empty list", config: #"{"name": "x", "networks": []}"#),
        Case(arguments: quickRun + ["--networks", "<folder>/s.yaml", "--out", "<folder>/r.csv"],
             message: "<folder>/s.yaml:2: weight: expected a positive number (weights are normalized), found the value \"0\"",
             config: "{\"name\": \"x\", \"networks\": [\n{\"network\": \"wifi\", \"weight\": 0}]}"),
        Case(arguments: quickRun + ["--networks", "<folder>/s.yaml", "--out", "<folder>/r.csv"],
             message: "<folder>/s.yaml:3: network: expected each network once, found \"lte\" again (first on line 2)",
             config: "{\"name\": \"x\", \"networks\": [\n{\"network\": \"lte\", \"weight\": 1},\n{\"network\": \"lte\", \"weight\": 1}]}"),
        Case(arguments: quickRun + ["--networks", "commuters", "--out", "<folder>/r.csv"],
             message: "--networks: expected a population (phones, tablets) or a readable population file, found \"commuters\""),
        Case(arguments: quickRun + ["--networks", "phones", "--network", "lte", "--out", "<folder>/r.csv"],
             message: "--networks: expected --network or --networks, not both: one network or a population"),
        // bench tune over a population: its stalls weighted, the only objective that has a weight.
        Case(arguments: ["tune", "--profile", "low-end", "--networks", "phones", "--objective", "display_p95", "--out", "<folder>/r.csv"],
             message: "--networks: expected --objective stalls with a population (its stalls weighted by each network's share), found \"display_p95\""),
        Case(arguments: ["tune", "--profile", "low-end", "--networks", "phones", "--network", "lte", "--out", "<folder>/r.csv"],
             message: "--networks: expected --network or --networks, not both: one network or a population"),
        Case(arguments: ["tune", "--results", "<folder>/t.csv", "--networks", "phones", "--network", "lte", "--out", "<folder>/r.csv"],
             message: "--networks: expected --network or --networks, not both: one network or a population"),
        Case(arguments: ["sweep", "--profile", "low-end", "--networks", "phones", "--network", "lte", "--out", "<folder>/r.csv"],
             message: "--networks: expected --network or --networks, not both: a list of networks or a population's"),
    ]

    /// Network files and sizes that got a vague refusal or none (issue 62): a key given twice
    /// (the last was taken), NaN, a size past Int64, a line past 1 MiB.
    static let vagueRefusals: [Case] = [
        Case(arguments: quickRun + ["--network", "<folder>/s.yaml", "--out", "<folder>/r.csv"],
             message: "<folder>/s.yaml:3: loss: expected each field once, found it again (first on line 2)",
             config: "{\"name\": \"mine\",\n\"loss\": 0.01,\n\"loss\": 0.02}"),
        Case(arguments: quickRun + ["--network", "<folder>/s.yaml", "--out", "<folder>/r.csv"],
             message: "<folder>/s.yaml:1: loss: expected a JSON value (an object, list, string, number, true, false or null), found \"NaN\"",
             config: #"{"name": "mine", "loss": NaN}"#),
        Case(arguments: ["run", "--profile", "low-end", "--policy", "lru", "--memory-limit", "100000000TB", "--out", "<folder>/r.csv"],
             message: "--memory-limit: expected a size under 8 EiB (9.2e18 bytes), found \"100000000TB\""),
        // A line with no end: read whole before, 610 MB and 873 MB of memory for 200 MB.
        Case(arguments: quickRun + ["--network", "<folder>/s.yaml", "--out", "<folder>/r.csv"],
             message: "<folder>/s.yaml:1: expected lines of at most 1048576 bytes, found a longer one",
             config: String(repeating: " ", count: 2 << 20)),
        Case(arguments: quickSweep + ["--config", "<folder>/s.yaml", "--out", "<folder>/r.csv"],
             message: "<folder>/s.yaml:2: expected lines of at most 1048576 bytes, found a longer one",
             config: "profiles: [low-end]\n" + String(repeating: " ", count: 2 << 20)),
    ]

    @Test(arguments: impossibleRequests + sizesWithoutAUnit + badHitchRatios + unwritableOutputs + fuzzFindings + populationRefusals + vagueRefusals)
    func isRefusedInOneLineAndWritesNothing(_ input: Case) throws {
        let folder = try BenchProcess.scratch().path
        try "1,1,1\n2,2,1\n".write(toFile: folder + "/t.csv", atomically: true, encoding: .utf8)
        if let config = input.config { try config.write(toFile: folder + "/s.yaml", atomically: true, encoding: .utf8) }
        let before = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        let result = try BenchProcess.run(input.arguments.map { $0.replacingOccurrences(of: "<folder>", with: folder) })
        #expect(result.status == 2)
        #expect(result.stderr == "bench: \(input.message.replacingOccurrences(of: "<folder>", with: folder))\n")
        #expect(result.stdout.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == before, "no output, no temporary file")
    }
}
