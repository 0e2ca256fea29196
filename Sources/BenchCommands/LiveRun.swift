import FeedBench

extension RunCommand {
    /// Runs the one configuration of `runs` against `server`, drawing its progress on stderr,
    /// through the HTTP part (`HTTPPart`); refused in one line when the part is missing.
    static func runLive(_ runs: [RunConfiguration], server: String, store: String?) throws -> RunResult {
        guard runs.count == 1 else {
            throw InputError(source: "--live", "expected options that make one run (one policy or preset, memory limit, window, trace and seed), found \(runs.count) runs")
        }
        if store != nil { throw InputError(source: "--store", "a live run keeps its feed store in memory: give --live or --store, not both") }
        return try HTTPPart.required(by: "--live").runLive(runs[0], server).result
    }
}
