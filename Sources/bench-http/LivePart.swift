#if HTTP
import BenchCommands
import Dispatch
import FeedBench
import FeedLive
import FeedServe
import Foundation

extension HTTPPart {
    /// The part over FeedServe's server and FeedLive's client.
    static let live = HTTPPart(
        serve: { request in
            let tls: ServeTLS?
            switch request.tls {
            case nil: tls = nil
            case let .generated(path):
                let made = try ServeTLS.generated(host: request.host)
                if let path { try AtomicFile.write(made.certificatePEM, to: path) }
                tls = made
            case let .files(certificate, key): tls = try ServeTLS.loading(certificate: certificate, key: key)
            }
            let settings = ServeSettings(host: request.host, port: request.port, seed: request.seed, conditions: request.conditions,
                                         logPath: request.logPath, tls: tls, pace: request.pace)
            try BlockingTask.run {
                try await FeedServer(settings: settings).run { url in
                    let certificate = tls.map { "bench serve: TLS certificate SHA-256 fingerprint \($0.fingerprint) (HTTP/2 and HTTP/1.1 by ALPN)\n" }
                    FileDescriptorOutput.write((certificate ?? "") + "bench serve: listening on \(url)\n", to: 1)
                }
            }
        },
        runLive: { configuration, server, certificatePEM, throughLink in
            try LiveSession.runDrawingProgress(configuration, server: server, trusting: certificatePEM, throughLink: throughLink)
        },
        runAgainstOwnServer: { configuration in
            // Over HTTP/2, TLS with a certificate made for the run, which the client trusts.
            let tls = configuration.network.multiplexes ? try ServeTLS.generated(host: "127.0.0.1") : nil
            let settings = ServeSettings(host: "127.0.0.1", port: 0, seed: configuration.seed, catalog: configuration.api.catalog,
                                         conditions: ServeConditions(network: configuration.network, api: configuration.api), tls: tls)
            let server = try InProcessServer(settings)
            defer { server.stop() }
            return try LiveSession.runDrawingProgress(configuration, server: server.url, trusting: tls?.certificatePEM)
        })
}

/// Runs an asynchronous operation on Swift's concurrency pool while the calling thread waits,
/// rethrowing what it threw (a server error that is not an input error is reported as `serve`'s).
enum BlockingTask {
    static func run(_ operation: @escaping @Sendable () async throws -> Void) throws {
        let outcome = Locked<Error?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Task {
            do { try await operation() } catch { outcome.withLock { $0 = error } }
            finished.signal()
        }
        finished.wait()
        if let error = outcome.withLock({ $0 }) {
            if let input = error as? InputError { throw input }
            throw InputError(source: "serve", "\(error)")
        }
    }
}

extension LiveSession {
    /// Runs `configuration` in real time against `server` (trusting the PEM certificate
    /// `certificatePEM` as its root, if given), drawing its progress line on stderr (redrawn in
    /// place on a terminal, a line a report otherwise). Returns the results row and the frames
    /// the run handled late.
    static func runDrawingProgress(_ configuration: RunConfiguration, server: String,
                                   trusting certificatePEM: String? = nil, throughLink: Bool = false) throws -> (result: RunResult, framesLate: Int) {
        let terminal = isatty(2) == 1
        var framesLate = 0
        let result = try run(configuration, server: server, trusting: certificatePEM, throughLink: throughLink) { progress in
            framesLate = progress.framesLate
            FileDescriptorOutput.write((terminal ? "\r\u{1B}[K" : "") + "live \(server): " + progress.line + (terminal ? "" : "\n"), to: 2)
        }
        if terminal { FileDescriptorOutput.write("\n", to: 2) }
        return (result, framesLate)
    }
}
#endif
