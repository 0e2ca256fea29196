import ArgumentParser
import FeedBench

struct TraceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trace",
        abstract: "Generate traces.",
        subcommands: [ZipfCommand.self, GenerateCommand.self]
    )
}

struct ZipfCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "zipf",
        abstract: "Write a seeded Zipf key trace (CSV time,obj_id,obj_size) for bench cachesim.",
        discussion: """
        Object ranks follow Zipf's law with exponent --alpha; object r has id r+1 and one size \
        drawn uniformly between --min-size and --max-size. Request i has time i. The same \
        arguments always write the same bytes.

        Example (the policy benchmark's workload):
          bench trace zipf --objects 100000 --requests 1000000 --alpha 1.0 --seed 1 --out zipf.csv

        Docs: docs/model.md, "Bring your own device and scroll trace".
        """
    )

    @Option(parsing: .unconditional, help: "Distinct objects, 1 to 100,000,000 (24 bytes of memory each).") var objects: Int = 100_000
    @Option(parsing: .unconditional, help: "Requests to write, 0 to 1,000,000,000.") var requests: Int = 1_000_000
    @Option(parsing: .unconditional, help: "Zipf exponent (0 is uniform).") var alpha: Double = 1.0
    @Option(parsing: .unconditional, help: "Seed of the generator.") var seed: UInt64 = 1
    @Option(name: .customLong("min-size"), parsing: .unconditional, help: "Smallest object size in bytes.") var minSize: Int64 = 40_000
    @Option(name: .customLong("max-size"), parsing: .unconditional, help: "Largest object size in bytes.") var maxSize: Int64 = 600_000
    @Option(help: ArgumentHelp("Destination file.", valueName: "file")) var out: String

    func run() throws {
        guard (1...100_000_000).contains(objects) else { throw InputError(source: "--objects", "expected 1...100000000 objects, found \(objects)") }
        guard (0...1_000_000_000).contains(requests) else {
            throw InputError(source: "--requests", "expected 0...1000000000 requests, found \(requests)")
        }
        guard alpha >= 0, alpha.isFinite else { throw InputError(source: "--alpha", "expected a finite exponent ≥ 0, found \(alpha)") }
        guard minSize > 0, maxSize >= minSize else {
            throw InputError(source: "--min-size", "expected 0 < --min-size ≤ --max-size, found \(minSize) and \(maxSize)")
        }
        try OutputPath.check([.file(out, option: "--out")])
        try ZipfKeyTrace(objects: objects, requests: requests, alpha: alpha, seed: seed, sizes: minSize...maxSize).write(to: out)
    }
}

struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write a seeded synthetic scroll trace (CSV t_ms,offset_pt) for the simulator.",
        discussion: """
        A scroll trace is the content offset of the feed, in points from its top, on every frame \
        of a display refreshing --refresh-rate times a second: t_ms is the frame's time in \
        milliseconds (3 decimals), offset_pt the offset (2 decimals). The trace starts at the top \
        and holds duration ÷ frame interval whole frames. The same arguments always write the \
        same bytes.

        Behaviours (velocities scale with --viewport-height; --row-height is the unit of \
        reader drags and revisitor look-backs):
        \(ScrollBehavior.allCases.map { "  \($0.rawValue): \($0.summary)" }.joined(separator: "\n"))

        Durations take a unit: 500ms, 30s, 5m, 8h (a bare number is seconds), up to 24h.

        Example (five minutes of an iPhone SE user flicking through full-width photos):
          bench trace generate --behavior browser --seed 1 --duration 5m --out browser.csv

        Docs: docs/policies.md, "bench cachesim: replay a key trace".
        """
    )

    @Option(help: ArgumentHelp("How the simulated person scrolls: \(ScrollBehavior.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "name"))
    var behavior: String

    @Option(parsing: .unconditional, help: "Seed of the generator (0 to 2^64−1).")
    var seed: UInt64

    @Option(parsing: .unconditional, help: ArgumentHelp("Length of the session, e.g. 30s, 5m, 8h; up to 24h.", valueName: "duration"))
    var duration: String

    @Option(name: .customLong("refresh-rate"), parsing: .unconditional, help: ArgumentHelp("Display refresh rate in Hz (60 for most iPhones, 120 for ProMotion).", valueName: "hz"))
    var refreshRate: Int = 60

    @Option(name: .customLong("row-height"), parsing: .unconditional, help: ArgumentHelp("Height of one feed row in points, 1 to 10000 (375: a full-width square cell on a 375-point-wide screen).", valueName: "points"))
    var rowHeight: Double = 375

    @Option(name: .customLong("viewport-height"), parsing: .unconditional, help: ArgumentHelp("Height of the visible feed in points, 1 to 10000 (667: iPhone SE).", valueName: "points"))
    var viewportHeight: Double = 667

    /// The heights `--row-height` and `--viewport-height` take, in points: past them, scroll
    /// velocities (which scale with the viewport) overflow the trace's offsets.
    static let heights: ClosedRange<Double> = 1...10_000

    @Option(help: ArgumentHelp("Destination file, written atomically.", valueName: "file"))
    var out: String

    func run() throws {
        guard let model = ScrollBehavior(rawValue: behavior) else {
            throw InputError(source: "--behavior", "unknown behaviour \(InputError.quote(behavior)); expected one of \(ScrollBehavior.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let nanoseconds = try Quantities.sessionDuration(duration, source: "--duration")
        guard (1...1000).contains(refreshRate) else {
            throw InputError(source: "--refresh-rate", "expected a refresh rate from 1 to 1000 Hz, found \(refreshRate)")
        }
        guard Self.heights.contains(rowHeight) else {
            throw InputError(source: "--row-height", "expected a height of 1...10000 points, found \(rowHeight)")
        }
        guard Self.heights.contains(viewportHeight) else {
            throw InputError(source: "--viewport-height", "expected a height of 1...10000 points, found \(viewportHeight)")
        }
        try OutputPath.check([.file(out, option: "--out")])
        let trace = model.trace(seed: seed, duration: nanoseconds, refreshRate: refreshRate,
                                rowHeight: rowHeight, viewportHeight: viewportHeight)
        try trace.write(to: out)
    }
}
