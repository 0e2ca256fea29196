import ArgumentParser
import FeedBench

struct CacheSimCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cachesim",
        abstract: "Replay a key trace against eviction policies and print miss ratios.",
        discussion: """
        The trace is CSV `time,obj_id,obj_size` (libCacheSim's column layout; header optional; \
        requests of size 0 are dropped), or a `bench serve --log` request log: its image requests \
        answered 200, 206 or 304, in order of arrival, keyed by image id and sized by the whole \
        image, times in milliseconds. Every policy is replayed at every capacity in one pass; \
        output is one CSV row per pair:

          policy,capacity,capacity_unit,requests,misses,miss_ratio,requested_bytes,missed_bytes,byte_miss_ratio

        Semantics follow libCacheSim's cachesim, so the numbers can be checked against it: in \
        object mode (the default) every request counts as size 1; with --bytes the capacity is \
        in bytes and objects larger than the cache are not admitted.

        Policies: \(PolicyName.allCases.map { "\($0.rawValue) (\($0.summary))" }.joined(separator: "; ")). \
        Any policy takes :max-age=N (lifetime in the trace's time unit) and :refresh=1 (a hit \
        restarts it), e.g. lru:max-age=3600.

        Example:
          bench cachesim --trace cloudphysics.csv --policy lru,lfu,belady --capacity 489,4897
        """
    )

    @Option(help: ArgumentHelp("The key trace (CSV time,obj_id,obj_size, or a bench serve request log).", valueName: "file"))
    var trace: String

    @Option(help: ArgumentHelp("Comma-separated policies, each optionally with :key=value parameters.", valueName: "list"))
    var policy: String = "lru"

    @Option(parsing: .unconditional, help: ArgumentHelp("Comma-separated capacities: objects, or bytes with --bytes (units like 20MB, 64MiB accepted).", valueName: "list"))
    var capacity: String

    @Flag(help: "Capacities are in bytes and requests have their own sizes (default: objects, every request size 1).")
    var bytes = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Lifetime for the ttl policy, in the trace's time unit (seconds for libCacheSim traces).", valueName: "seconds"))
    var ttl: Int64?

    @Option(help: ArgumentHelp("Write the CSV here (atomically) instead of to standard output.", valueName: "file"))
    var out: String?

    func run() throws {
        let policies = try PolicySpec.parseList(policy, source: "--policy")
        let capacities = try Quantities.byteCounts(capacity, source: "--capacity")
        if let ttl, ttl < 0 { throw InputError(source: "--ttl", "expected a non-negative lifetime, found \(ttl)") }
        if let out { try OutputPath.check([.file(out, option: "--out")]) }
        let simulation = CacheSimulation(policies: policies, capacities: capacities,
                                         unit: bytes ? .bytes : .objects, defaultMaxAge: ttl)
        let results = try simulation.run(tracePath: trace)
        let csv = ([CacheSimResult.csvHeader] + results.map(\.csvRow)).joined(separator: "\n") + "\n"
        try CommandOutput.emit(csv, to: out)
    }
}
