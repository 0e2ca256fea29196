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

        With --jobs N the caches are shared among N threads, each batch of the trace parsed once \
        for all; the output is the same whatever N is.

        Semantics follow libCacheSim's cachesim, so the numbers can be checked against it: in \
        object mode (the default) every request counts as size 1; with --bytes the capacity is \
        in bytes and objects larger than the cache are not admitted.

        Policies: \(PolicyName.allCases.map { "\($0.rawValue) (\($0.summary))" }.joined(separator: "; ")). \
        Any policy takes :max-age=N (lifetime in the trace's time unit) and :refresh=1 (a hit \
        restarts it), e.g. lru:max-age=3600.

        --mrc gives LRU's exact miss-ratio curve in objects in one pass (stack distances): a row \
        at every capacity where the curve steps down, or at the --capacity values given — the \
        same rows as --policy lru would print at those capacities.

        Examples:
          bench cachesim --trace cloudphysics.csv --policy lru,lfu,belady --capacity 489,4897
          bench cachesim --trace cloudphysics.csv --mrc --out mrc.csv

        Docs: docs/policies.md, "bench cachesim: replay a key trace".
        """
    )

    @Option(help: ArgumentHelp("The key trace (CSV time,obj_id,obj_size, or a bench serve request log).", valueName: "file"))
    var trace: String

    @Option(help: ArgumentHelp("Comma-separated policies, each optionally with :key=value parameters (default: lru).", valueName: "list"))
    var policy: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Comma-separated capacities: objects, or bytes with --bytes (units like 20MB, 64MiB accepted); each 1 to 10^15 (1000TB).", valueName: "list"))
    var capacity: String?

    /// The largest `--capacity`: 10^15 bytes (1000TB) or objects (the miss-ratio curve adds 1 to it).
    static let maximumCapacity: Int64 = 1_000_000_000_000_000

    @Flag(help: "LRU's exact miss-ratio curve in objects, in one pass: every step, or the --capacity values.")
    var mrc = false

    @Flag(help: "Capacities are in bytes and requests have their own sizes (default: objects, every request size 1).")
    var bytes = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Lifetime for the ttl policy, in the trace's time unit (seconds for libCacheSim traces).", valueName: "seconds"))
    var ttl: Int64?

    @Option(help: ArgumentHelp("Write the CSV here (atomically) instead of to standard output.", valueName: "file"))
    var out: String?

    @OptionGroup var jobs: JobsOption

    func run() throws {
        let jobs = try self.jobs.checked()
        let capacities = try capacity.map { try Quantities.byteCounts($0, source: "--capacity", maximum: Self.maximumCapacity) }
        if let out { try OutputPath.check([.file(out, option: "--out")]) }
        let results: [CacheSimResult]
        if mrc {
            for (given, option) in [(policy != nil, "--policy"), (bytes, "--bytes"), (ttl != nil, "--ttl")] where given {
                throw InputError(source: option, "expected no \(option) with --mrc (the curve is LRU's, in objects)")
            }
            var curve = MissRatioCurve()
            _ = try KeyTraceReader(path: trace).forEachBatch { curve.add($0) }
            results = curve.results(at: capacities ?? curve.steps)
        } else {
            guard let capacities else { throw InputError(source: "--capacity", "expected capacities to replay (or --mrc for LRU's whole curve)") }
            let policies = try PolicySpec.parseList(policy ?? "lru", source: "--policy")
            if let ttl, ttl < 0 { throw InputError(source: "--ttl", "expected a non-negative lifetime, found \(ttl)") }
            let simulation = CacheSimulation(policies: policies, capacities: capacities,
                                             unit: bytes ? .bytes : .objects, defaultMaxAge: ttl)
            results = try simulation.run(tracePath: trace, jobs: jobs)
        }
        let csv = ([CacheSimResult.csvHeader] + results.map(\.csvRow)).joined(separator: "\n") + "\n"
        try CommandOutput.emit(csv, to: out)
    }
}
