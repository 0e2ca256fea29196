import ArgumentParser
import FeedBench
import Foundation

/// The options every run of `bench run`, `bench sweep` and `bench tune` shares: how long each
/// session is, how many launches, and how the app behaves.
struct SessionOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "App launches per run; the feed store and disk cache persist between them.")
    var launches: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Simulated time between launches (e.g. 8h; default 8h).", valueName: "duration"))
    var gap: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Length of each launch's scroll session for built-in behaviours (e.g. 2m, 30s; up to 24h; default 2m).", valueName: "duration"))
    var duration: String?

    @Option(parsing: .unconditionalSingleValue, help: ArgumentHelp("A time the network is down, from each launch's start (0s-30s), or a whole launch (launch:2, at most --launches). Repeatable.", valueName: "span"))
    var offline: [String] = []

    @Flag(help: "Remove an image from the memory cache once its cell has scrolled off (seed 000's release-after-view).")
    var releaseViewed = false

    @Option(help: ArgumentHelp("A workload JSON from bench calibrate: its network, API models and image sizes replace the built-in ones (not with --network).", valueName: "file"))
    var workload: String?

    @Option(help: ArgumentHelp("The HTTP version every run's network speaks: 1.1 (6 connections a host, one response each) or 2 (one connection a host, its responses multiplexed as streams, visible cells' before prefetches); default: the network's (2 in every preset).", valueName: "version"))
    var http: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Seed 000's prefetch buffer: images preloaded between the feed store/API and the display list (the seed uses 30; 0 is off).", valueName: "count"))
    var buffer: Int = 0

    /// The options given and their values as written (those left at their defaults are not);
    /// a flag's value is empty.
    var changes: [(option: String, value: String)] {
        [("--launches", launches.map(String.init)), ("--gap", gap), ("--duration", duration),
         ("--offline", offline.isEmpty ? nil : offline.joined(separator: ",")),
         ("--release-viewed", releaseViewed ? "" : nil), ("--http", http), ("--buffer", buffer == 0 ? nil : String(buffer)),
         ("--workload", workload.map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent })]
            .compactMap { option, value in value.map { (option, $0) } }
    }

    /// The options given, by name.
    var given: [String] { changes.map(\.option) }

    /// Applies the options given over `session` (a config file's settings, or the defaults).
    func apply(to session: inout SweepGrid.Session) throws {
        if let launches {
            guard (1...1_000).contains(launches) else { throw InputError(source: "--launches", "expected 1...1000 launches, found \(launches)") }
            session.launches = launches
        }
        guard (0...1_000).contains(buffer) else { throw InputError(source: "--buffer", "expected 0...1000 images, found \(buffer)") }
        if let gap { session.gap = try Quantities.duration(gap, source: "--gap") }
        if let duration { session.duration = try Quantities.sessionDuration(duration, source: "--duration") }
        for span in offline { try session.offline.add(span, source: "--offline") }
        session.releaseViewed = releaseViewed
        session.bufferLimit = buffer
        if let workload { session.workload = try Workload.read(path: workload) }
        if let http { session.http = try Self.httpVersion(http) }
    }

    /// `--http`'s value, checked: one of `HTTPVersion`'s.
    static func httpVersion(_ http: String) throws -> HTTPVersion {
        guard let version = HTTPVersion(rawValue: http) else {
            throw InputError(source: "--http", "expected 1.1 or 2, found \(InputError.quote(http))\(http.hasPrefix("3") ? " (HTTP/3 is not modelled)" : "")")
        }
        return version
    }
}

/// `--jobs`: runs simulated in parallel, one thread each.
struct JobsOption: ParsableArguments {
    @Option(parsing: .unconditional, help: "Runs simulated in parallel, 1 to 1024 (default: the number of cores). The output is the same whatever it is.")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    /// How many `--jobs` may ask for: one thread each (and a window of results 4 × jobs long).
    static let range = 1...1_024

    func checked() throws -> Int {
        guard Self.range.contains(jobs) else {
            throw InputError(source: "--jobs", "expected \(Self.range.lowerBound)...\(Self.range.upperBound) jobs, found \(jobs)")
        }
        return jobs
    }
}
