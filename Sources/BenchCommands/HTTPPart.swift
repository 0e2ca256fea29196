import FeedBench

/// What the commands that need an HTTP server or client (`bench serve`, `bench agree`,
/// `bench run --live`) borrow from FeedBench's HTTP part. That part — SwiftNIO, Hummingbird,
/// AsyncHTTPClient, most of a clean build — lives in its own executable, `bench-http`, which
/// installs it and runs the same commands; `bench` hands those commands over to a `bench-http`
/// beside it (as git and cargo hand over their external subcommands), so `swift run bench`
/// never builds the HTTP libraries.
package struct HTTPPart: Sendable {
    /// What `bench serve` was asked for.
    package struct ServeRequest: Sendable {
        package var host: String
        package var port: Int
        package var seed: UInt64
        package var conditions: ServeConditions
        package var logPath: String?
        /// TLS (with HTTP/2), if asked for.
        package var tls: TLS?
        /// Whether answers cross the network model or are written as fast as TCP takes them.
        package var pace: ServePace
    }

    /// How `bench serve` gets its TLS certificate.
    package enum TLS: Sendable, Equatable {
        /// Made at start, for the address it listens on; its certificate written (PEM,
        /// atomically) to the path given, before the server listens.
        case generated(writingTo: String?)
        /// Read from PEM files.
        case files(certificate: String, key: String)
    }

    /// Serves the feed API until stopped (Ctrl-C, SIGTERM), printing the URL it listens on.
    package var serve: @Sendable (ServeRequest) throws -> Void
    /// Runs one configuration in real time against the server at a URL, trusting a PEM
    /// certificate as its root if given, against `bench serve`'s network model or through a
    /// real or emulated link (`LiveSession.run`'s `throughLink`): the results row and the
    /// frames it handled late.
    package var runLive: @Sendable (RunConfiguration, _ server: String, _ certificatePEM: String?, _ throughLink: Bool) throws
        -> (result: RunResult, framesLate: Int)
    /// Runs one configuration in real time against a server started for it in this process
    /// (its network, API model and seed), then stops the server.
    package var runAgainstOwnServer: @Sendable (RunConfiguration) throws -> (result: RunResult, framesLate: Int)

    package init(serve: @escaping @Sendable (ServeRequest) throws -> Void,
                 runLive: @escaping @Sendable (RunConfiguration, String, String?, Bool) throws -> (result: RunResult, framesLate: Int),
                 runAgainstOwnServer: @escaping @Sendable (RunConfiguration) throws -> (result: RunResult, framesLate: Int)) {
        self.serve = serve
        self.runLive = runLive
        self.runAgainstOwnServer = runAgainstOwnServer
    }

    /// The part, once `bench-http` has installed it; set once, before the command line is read.
    package nonisolated(unsafe) static var installed: HTTPPart?
    /// Why the part is missing, when it is: `bench` without a `bench-http` beside it, or a
    /// `bench-http` built without the HTTP trait.
    package nonisolated(unsafe) static var missing = "needs bench-http, FeedBench's HTTP part, which is built on its own so that bench builds in minutes: swift build --product bench-http (-c release for a release bench), then run this again"

    /// The installed part, or a refusal naming `source` (the command or option that needed it).
    static func required(by source: String) throws -> HTTPPart {
        guard let installed else { throw InputError(source: source, missing) }
        return installed
    }

    /// The commands a command line runs that need the part: `serve`, `agree`, and `run` (or
    /// the default command) with `--live`. What `bench` hands over to `bench-http`.
    package static func isNeeded(by arguments: [String]) -> Bool {
        guard let first = arguments.first else { return false }
        if first == "serve" || first == "agree" { return true }
        let runs = first == "run" || first.hasPrefix("-")
        return runs && arguments.contains { $0 == "--live" || $0.hasPrefix("--live=") }
    }
}
