import ArgumentParser
import FeedBench

struct TraceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trace",
        abstract: "Generate traces.",
        subcommands: [ZipfCommand.self]
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
        """
    )

    @Option(help: "Distinct objects.") var objects: Int = 100_000
    @Option(help: "Requests to write.") var requests: Int = 1_000_000
    @Option(help: "Zipf exponent (0 is uniform).") var alpha: Double = 1.0
    @Option(help: "Seed of the generator.") var seed: UInt64 = 1
    @Option(name: .customLong("min-size"), help: "Smallest object size in bytes.") var minSize: Int64 = 40_000
    @Option(name: .customLong("max-size"), help: "Largest object size in bytes.") var maxSize: Int64 = 600_000
    @Option(help: ArgumentHelp("Destination file.", valueName: "file")) var out: String

    func run() throws {
        guard objects > 0 else { throw InputError(source: "--objects", "expected a positive count, found \(objects)") }
        guard requests >= 0 else { throw InputError(source: "--requests", "expected a non-negative count, found \(requests)") }
        guard alpha >= 0, alpha.isFinite else { throw InputError(source: "--alpha", "expected a finite exponent ≥ 0, found \(alpha)") }
        guard minSize > 0, maxSize >= minSize else {
            throw InputError(source: "--min-size", "expected 0 < --min-size ≤ --max-size, found \(minSize) and \(maxSize)")
        }
        try ZipfKeyTrace(objects: objects, requests: requests, alpha: alpha, seed: seed, sizes: minSize...maxSize).write(to: out)
    }
}
