import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Issue 32: `Fuzz/cli`, the command-line fuzz (docs/robustness.md, "Fuzzing"), and what it found that is
/// not a refusal (those are `BadInputTests.fuzzFindings`). The driver is tested against a
/// stand-in `bench` with a planted flaw, so it cannot pass by running nothing, and against the
/// real one's dump, so it covers every argument of every command.
@Suite(.scratchFolder) struct CLIFuzzTests {
    static let driver = BenchProcess.packageRoot.appendingPathComponent("Fuzz/cli").path

    /// Python 3 on the PATH (the driver's only need), or `nil`.
    static let python: String? = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        .split(separator: ":").map { "\($0)/python3" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    static let noPython: Comment = "python3 is not installed: the tests of Fuzz/cli are skipped"

    // MARK: What the fuzz found

    /// A one-character output path (`--out 0`, `--out ,`) trapped in Foundation's
    /// `NSString.deletingLastPathComponent`; it is a file in the working directory.
    @Test(arguments: [["run", "--profile", "low-end", "--network", "lte", "--policy", "lru", "--memory-limit", "1x", "--seed", "1", "--window", "0",
                       "--trace", "browser", "--duration", "5s"],
                      ["sweep", "--profile", "low-end", "--policy", "lru", "--window", "0", "--behavior", "browser", "--duration", "5s"]])
    func aOneCharacterOutputIsAFileInTheWorkingDirectory(_ command: [String]) throws {
        let folder = try BenchProcess.scratch()
        let result = try BenchProcess.run(command + ["--out", "0"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["0"])
    }

    /// `--per-launch`, `--timeline` and `--requests` in folders that do not exist yet: created,
    /// as --out's is (the run used to write --out, then fail on the next).
    @Test func everyOutputsMissingFolderIsCreated() throws {
        let folder = try BenchProcess.scratch().path
        let result = try BenchProcess.run(BadInputTests.quickRun + ["--out", folder + "/a/r.csv", "--per-launch", folder + "/b/c/p.csv",
                                                                   "--timeline", folder + "/d/t.csv", "--requests", folder + "/e/q.csv"])
        #expect(result.status == 0, "\(result.stderr)")
        for path in ["/a/r.csv", "/b/c/p.csv", "/d/t.csv", "/e/q.csv"] {
            #expect(FileManager.default.fileExists(atPath: folder + path), "\(path)")
        }
    }

    /// A pipe as an output is refused too (as a device is: `BadInputTests`), before anything
    /// runs and without opening it (which would wait for a reader).
    @Test func aPipeIsNoOutput() throws {
        let folder = try BenchProcess.scratch().path
        let pipe = folder + "/pipe"
        #expect(mkfifo(pipe, 0o600) == 0)
        let result = try BenchProcess.run(BadInputTests.quickRun + ["--out", pipe])
        #expect(result.status == 2 && result.stdout.isEmpty)
        #expect(result.stderr == "bench: --out: expected a file to write, found the pipe \"\(pipe)\"\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["pipe"])
    }

    // MARK: The driver

    /// Runs `Fuzz/cli` with `arguments`; its temporary files go in `folder`.
    static func fuzz(_ arguments: [String], in folder: URL) throws -> BenchProcess {
        try BenchProcess.run(URL(fileURLWithPath: python ?? "/usr/bin/python3"), [driver] + arguments, in: folder,
                             environment: ["TMPDIR": folder.path])
    }

    /// A stand-in for bench, in Python: `demo [INPUT…] [--count N] [--name S] [--out FILE]
    /// [--loud]`, which refuses what it does not take in one line (exit 2) and otherwise writes
    /// --out, except for the one flaw it is given.
    static func standIn(flaw: String, in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("stand-in").path
        try """
        #!/usr/bin/env python3
        import json, os, signal, sys, time
        FLAW = "\(flaw)"
        def option(name, value, abstract):
            entry = {"kind": "option", "names": [{"kind": "long", "name": name}], "preferredName": {"kind": "long", "name": name},
                     "valueName": value, "abstract": abstract, "isOptional": True, "isRepeating": False}
            return entry
        DUMP = {"command": {"commandName": "bench", "arguments": [], "subcommands": [{"commandName": "demo", "arguments": [
            {"kind": "positional", "valueName": "input", "abstract": "Inputs.", "isOptional": True, "isRepeating": True},
            option("count", "count", "How many, 0 to 100."), option("name", "name", "A name."),
            option("out", "file", "Where to write the result."),
            dict(option("loud", "loud", "Say more."), kind="flag"),
        ]}]}}
        def refuse(line):
            sys.stderr.write("bench: " + line + "\\n")
            sys.exit(2)
        arguments = sys.argv[1:]
        if arguments == ["--experimental-dump-help"]:
            print(json.dumps(DUMP))
            sys.exit(0)
        if arguments[:1] != ["demo"]:
            refuse("expected demo")
        given, rest = {}, arguments[1:]
        while rest:
            item = rest.pop(0)
            if item == "--":
                rest = []
            elif item == "--loud":
                given["loud"] = True
            elif item.startswith("--"):
                name, _, value = item[2:].partition("=")
                if name not in ("count", "name", "out"):
                    refuse(f"--{name}: unknown option")
                if not _:
                    if not rest:
                        refuse(f"--{name}: missing value")
                    value = rest.pop(0)
                given[name] = value
        count = given.get("count", "1")
        if FLAW == "trap" and count == "9223372036854775807":
            sys.stderr.write("Fatal error: planted\\n")
            sys.stderr.flush()
            os.kill(os.getpid(), signal.SIGILL)
        if FLAW == "hang" and count == "inf":
            time.sleep(3600)
        if FLAW == "file" and given.get("name") == "":
            open("out.csv", "w").write("half\\n")
        if FLAW == "lines" and given.get("name") == "nan":
            refuse("--name: nan\\nis no name")
        if not count.isdigit() or int(count) > 100:
            refuse("--count: expected 0...100, found " + repr(count))
        if given.get("name", "x").strip() in ("", "nan", "inf"):
            refuse("--name: expected a name")
        out = given.get("out", "out.csv")
        if not out or os.path.exists(out) and not os.path.isfile(out) or "\\n" in out or len(out) > 200:
            refuse("--out: expected a file to write")
        try:
            with open(out, "w") as file:
                file.write("ok\\n")
        except OSError as error:
            refuse(f"--out: {error.strerror}")
        """.write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return path
    }

    /// Each planted flaw is reported, naming the argument and value class that gave it, and
    /// the driver fails; the clean stand-in passes, every argument tried.
    @Test(.enabled(if: python != nil, noPython), arguments: [
        ("trap", "FINDING [demo: --count <int64-max>] killed by signal 4 (SIGILL); 'Fatal error' in its output"),
        ("file", "FINDING [demo: --name <empty>] a refusal that left out.csv"),
        ("lines", "FINDING [demo: --name <nan>] a refusal in 2 lines on stderr"),
        ("hang", "FINDING [demo: --count <inf>] still running after 2 s (killed)"),
    ])
    func theDriverReportsAPlantedFlaw(flaw: String, finding: String) throws {
        let folder = try BenchProcess.scratch()
        let result = try Self.fuzz([try Self.standIn(flaw: flaw, in: folder), "--invocations", "120", "--timeout", "2"], in: folder)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains(finding), "\(result.stdout)")
        #expect(result.stdout.contains("FAILED: "))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["stand-in"], "the driver removes its files")
    }

    @Test(.enabled(if: python != nil, noPython)) func theDriverPassesACleanStandInAndCountsItsInvocations() throws {
        let folder = try BenchProcess.scratch()
        let result = try Self.fuzz([try Self.standIn(flaw: "none", in: folder), "--invocations", "120", "--timeout", "2"], in: folder)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(!result.stdout.contains("FINDING"))
        // 4 arguments × 26 classes and a flag × 3, then the random mix up to 120.
        let row = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("demo ") })
        #expect(row.split(separator: " ").map(String.init)[1...2] == ["5", "120"], "\(row)")
        #expect(result.stdout.contains("120 invocations (107 of every class of every argument, 13 of the random mix)"), "\(result.stdout)")
    }

    /// Every argument of every command bench's dump lists is planned, with every value class.
    @Test(.enabled(if: python != nil, noPython)) func theDriverCoversEveryArgumentTheDumpLists() throws {
        let dump = try BenchProcess.run(["--experimental-dump-help"])
        #expect(dump.status == 0)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        // "command\targument" of every argument, and whether it is a flag.
        var listed: [(argument: String, isFlag: Bool)] = []
        func walk(_ command: [String: Any], _ path: [String]) {
            for argument in command["arguments"] as? [[String: Any]] ?? [] {
                let preferred = argument["preferredName"] as? [String: Any]
                let dashes = ["long": "--", "short": "-", "longWithSingleDash": "-"][preferred?["kind"] as? String ?? ""] ?? ""
                let label = preferred.map { dashes + ($0["name"] as? String ?? "") } ?? "<\(argument["valueName"] as? String ?? "")>"
                listed.append(("\(path.isEmpty ? "(bench)" : path.joined(separator: " "))\t\(label)", argument["kind"] as? String == "flag"))
            }
            for sub in command["subcommands"] as? [[String: Any]] ?? [] { walk(sub, path + [sub["commandName"] as? String ?? ""]) }
        }
        walk(try #require(root["command"] as? [String: Any]), [])
        #expect(listed.count > 100, "\(listed.count) arguments")

        let folder = try BenchProcess.scratch()
        let plan = try Self.fuzz([BenchProcess.executable.path, "--plan"], in: folder)
        #expect(plan.status == 0, "\(plan.stderr)")
        var planned: [(argument: String, classes: Int)] = []
        for line in plan.stdout.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            try #require(fields.count == 4, "\(line)")
            planned.append(("\(fields[0])\t\(fields[1])", fields[3].split(separator: ",").count))
        }
        #expect(planned.map(\.argument) == listed.map(\.argument))
        for (argument, isFlag) in listed {
            #expect(planned.first { $0.argument == argument }?.classes == (isFlag ? 3 : 26), "\(argument)")
        }
    }
}
