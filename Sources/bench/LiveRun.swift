import FeedBench
#if HTTP
import FeedLive
#endif
import Foundation

extension RunCommand {
    /// Runs the one configuration of `runs` against `server`, drawing its progress on stderr;
    /// in a bench built without the HTTP trait, refuses.
    static func runLive(_ runs: [RunConfiguration], server: String, store: String?) throws -> RunResult {
        #if HTTP
        guard runs.count == 1 else {
            throw InputError(source: "--live", "expected options that make one run (one policy or preset, memory limit, window, trace and seed), found \(runs.count) runs")
        }
        if store != nil { throw InputError(source: "--store", "a live run keeps its feed store in memory: give --live or --store, not both") }
        return try LiveSession.runDrawingProgress(runs[0], server: server).result
        #else
        throw InputError(source: "--live", Bench.withoutHTTP)
        #endif
    }
}

#if HTTP
extension LiveSession {
    /// Runs `configuration` in real time against `server`, drawing its progress line on stderr
    /// (redrawn in place on a terminal, a line a report otherwise). Returns the results row and
    /// the frames the run handled late.
    static func runDrawingProgress(_ configuration: RunConfiguration, server: String) throws -> (result: RunResult, framesLate: Int) {
        let terminal = isatty(2) == 1
        var framesLate = 0
        let result = try run(configuration, server: server) { progress in
            framesLate = progress.framesLate
            FileDescriptorOutput.write((terminal ? "\r\u{1B}[K" : "") + "live \(server): " + progress.line + (terminal ? "" : "\n"), to: 2)
        }
        if terminal { FileDescriptorOutput.write("\n", to: 2) }
        return (result, framesLate)
    }
}
#endif
