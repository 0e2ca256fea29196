import FeedBench
import Foundation

extension RunCommand {
    /// Runs the one configuration of `runs` against `server` (trusting the PEM certificate in
    /// the file `certificate` as its root, if given), drawing its progress on stderr, through the
    /// HTTP part (`HTTPPart`); refused in one line when the part is missing. Unless `--http`
    /// asked for a version (`httpAsked`), an `http://` server is spoken to over HTTP/1.1: HTTP/2
    /// is negotiated in the TLS handshake, so a client without TLS speaks HTTP/1.1.
    static func runLive(_ runs: [RunConfiguration], server: String, store: String?, certificate: String? = nil,
                        httpAsked: Bool = false) throws -> RunResult {
        guard runs.count == 1 else {
            throw InputError(source: "--live", "expected options that make one run (one policy or preset, memory limit, window, image width, trace and seed), found \(runs.count) runs")
        }
        if store != nil { throw InputError(source: "--store", "a live run keeps its feed store in memory: give --live or --store, not both") }
        let part = try HTTPPart.required(by: "--live")
        let pem = try certificate.map { path -> String in
            guard let data = try ReadableFile.contents(at: path), let text = String(data: data, encoding: .utf8) else {
                throw InputError(source: "--live-ca", "cannot read \(path)")
            }
            guard text.contains("-----BEGIN CERTIFICATE-----") else {
                throw InputError(source: path, "expected a PEM certificate (-----BEGIN CERTIFICATE-----)")
            }
            return text
        }
        var run = runs[0]
        if !httpAsked && server.lowercased().hasPrefix("http://") { run.network.http = .http11 }
        return try part.runLive(run, server, pem, false).result
    }
}
