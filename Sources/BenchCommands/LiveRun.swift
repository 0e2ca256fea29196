import FeedBench
import Foundation

extension RunCommand {
    /// Runs the one configuration of `runs` against `server` (trusting the PEM certificate in
    /// the file `certificate` as its root, if given), drawing its progress on stderr, through the
    /// HTTP part (`HTTPPart`); refused in one line when the part is missing.
    static func runLive(_ runs: [RunConfiguration], server: String, store: String?, certificate: String? = nil) throws -> RunResult {
        guard runs.count == 1 else {
            throw InputError(source: "--live", "expected options that make one run (one policy or preset, memory limit, window, trace and seed), found \(runs.count) runs")
        }
        if store != nil { throw InputError(source: "--store", "a live run keeps its feed store in memory: give --live or --store, not both") }
        let part = try HTTPPart.required(by: "--live")
        let pem = try certificate.map { path -> String in
            guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
                throw InputError(source: "--live-ca", "cannot read \(path)")
            }
            guard text.contains("-----BEGIN CERTIFICATE-----") else {
                throw InputError(source: path, "expected a PEM certificate (-----BEGIN CERTIFICATE-----)")
            }
            return text
        }
        return try part.runLive(runs[0], server, pem).result
    }
}
