import Foundation
import TestSupport
import Testing

/// What only a terminal sees: `bench sweep`'s and `bench tune`'s progress bars on stderr and
/// the coloured tables on stdout (never with NO_COLOR set) — drawn on a real pseudo-terminal,
/// absent through pipes (what CI sees), and the same results either way.
@Suite(.scratchFolder) struct TerminalOutputTests {
    /// This process's environment without NO_COLOR, plus `extra`.
    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = nil
        return environment.merging(extra) { $1 }
    }

    @Test func aSweepDrawsItsProgressBarOnATerminalOnly() throws {
        let folder = try BenchProcess.scratch()
        let onTerminal = folder.appendingPathComponent("terminal.csv").path, throughPipe = folder.appendingPathComponent("pipe.csv").path
        let grid = ["sweep", "--profile", "low-end", "--policy", "lru,fifo", "--window", "0,10", "--behavior", "browser",
                    "--seed", "1,2,3", "--duration", "10s", "--jobs", "2"]
        let terminal = try BenchProcess.runInTerminal(grid + ["--out", onTerminal], environment: environment())
        #expect(terminal.status == 0, "\(terminal.stdout)")
        // The last redraw shows every run done, then the bar is cleared before the summary.
        #expect(terminal.stdout.contains("\r\u{1B}[Ksweep  12/12 [########################] 100 %  "), "\(terminal.stdout)")
        #expect(terminal.stdout.contains(" runs/s  ETA 0 s\r\u{1B}[Kwrote \(onTerminal): 12 runs"))
        let piped = try BenchProcess.run(grid + ["--out", throughPipe])
        #expect(piped.status == 0)
        #expect(!piped.stderr.contains("\r") && !piped.stderr.contains("ETA") && !piped.stderr.contains("\u{1B}"))
        #expect(try String(contentsOfFile: onTerminal, encoding: .utf8) == String(contentsOfFile: throughPipe, encoding: .utf8))
    }

    /// `bench tune` used to be silent for seconds on a terminal.
    @Test func tuneDrawsItsProgressBarOnATerminalOnly() throws {
        let folder = try BenchProcess.scratch()
        let onTerminal = folder.appendingPathComponent("terminal.csv").path, throughPipe = folder.appendingPathComponent("pipe.csv").path
        let space = ["tune", "--profile", "low-end", "--policy", "lru,fifo", "--window", "0,10", "--memory-limit", "100MB,200MB",
                     "--trace", "browser", "--seeds", "2", "--duration", "5s", "--jobs", "2"]
        let terminal = try BenchProcess.runInTerminal(space + ["--out", onTerminal], environment: environment())
        #expect(terminal.status == 0, "\(terminal.stdout)")
        #expect(terminal.stdout.contains("\r\u{1B}[Ktune  16/16 [########################] 100 %  "), "\(terminal.stdout)")
        #expect(terminal.stdout.contains(" runs/s  ETA 0 s\r\u{1B}[K"))
        // Through a pipe, no bar: whole lines now and then (every 5 s; here every run).
        let piped = try BenchProcess.run(space + ["--out", throughPipe], environment: ["BENCH_PROGRESS_SECONDS": "0"])
        #expect(piped.status == 0)
        #expect(!piped.stderr.contains("\r") && !piped.stderr.contains("\u{1B}"))
        let progress = piped.stderr.split(separator: "\n").filter { $0.hasPrefix("tune  ") }
        #expect(progress.count == 16 && progress.last?.hasPrefix("tune  16/16 [########################] 100 %  ") == true, "\(piped.stderr)")
        #expect(try String(contentsOfFile: onTerminal, encoding: .utf8) == String(contentsOfFile: throughPipe, encoding: .utf8))
    }

    @Test func tablesAreColouredOnATerminalUnlessNoColorIsSet() throws {
        let folder = try BenchProcess.scratch()
        let out = folder.appendingPathComponent("run.csv").path
        let run = ["run", "--profile", "low-end", "--network", "lte", "--memory-limit", "1x", "--seed", "1", "--policy", "lru,fifo", "--window", "0,20", "--duration", "10s", "--out", out]
        let coloured = try BenchProcess.runInTerminal(run, environment: environment())
        #expect(coloured.status == 0, "\(coloured.stdout)")
        #expect(coloured.stdout.contains("\u{1B}[32m"), "the recommendation is green")
        let plain = try BenchProcess.runInTerminal(run, environment: environment(["NO_COLOR": "1"]))
        #expect(plain.status == 0 && plain.stdout.contains("Recommended: ") && !plain.stdout.contains("\u{1B}["))
        let piped = try BenchProcess.run(run)
        #expect(!piped.stdout.contains("\u{1B}") && piped.stdout.contains("Recommended: "))
        let compare = try BenchProcess.run(["compare", out, out])
        #expect(compare.status == 0 && !compare.stdout.contains("\u{1B}"))
    }
}
