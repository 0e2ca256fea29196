import Dispatch

/// One row of `bench cachesim`'s output: a policy at a capacity over a whole key trace.
public struct CacheSimResult: Sendable, Equatable {
    public var policy: String
    public var capacity: Int64
    /// `objects` (every request counts as size 1) or `bytes`.
    public var capacityUnit: CapacityUnit
    public var requests: Int
    public var misses: Int
    public var requestedBytes: Int64
    public var missedBytes: Int64

    public static let csvHeader = "policy,capacity,capacity_unit,requests,misses,miss_ratio,requested_bytes,missed_bytes,byte_miss_ratio"

    /// The CSV row: ratios with 6 decimals, rounded half up, computed exactly from the counts.
    public var csvRow: String {
        [policy, String(capacity), capacityUnit.rawValue, String(requests), String(misses),
         FixedPoint.ratio(Int64(misses), Int64(requests), decimals: 6),
         String(requestedBytes), String(missedBytes),
         FixedPoint.ratio(missedBytes, requestedBytes, decimals: 6)].joined(separator: ",")
    }
}

/// Whether a capacity counts objects or bytes.
public enum CapacityUnit: String, Sendable, CaseIterable {
    case objects, bytes
}

/// Trace-driven, cache-only replay of a key trace against policies × capacities: `bench
/// cachesim`, and the check of every policy against libCacheSim's numbers.
///
/// Semantics are libCacheSim's (`shared/traces/README.md`): size-0 requests are dropped; in
/// object mode every request has size 1; a miss is admitted unless larger than the cache.
/// The trace is streamed once for all configurations, in batches; only when a policy needs the
/// future (Belady) is the whole trace held in memory.
public struct CacheSimulation {
    public var policies: [PolicySpec]
    public var capacities: [Int64]
    public var unit: CapacityUnit
    /// The lifetime `ttl` uses when its spec gives none, in the trace's time unit.
    public var defaultMaxAge: Int64?

    public init(policies: [PolicySpec], capacities: [Int64], unit: CapacityUnit, defaultMaxAge: Int64? = nil) {
        self.policies = policies
        self.capacities = capacities
        self.unit = unit
        self.defaultMaxAge = defaultMaxAge
    }

    /// Replays the trace at `path`; one result per policy × capacity, in that order. With
    /// `jobs` > 1 the caches are shared among that many threads, each batch parsed once for
    /// all; the results are the same whatever `jobs` is.
    public func run(tracePath path: String, jobs: Int = 1) throws -> [CacheSimResult] {
        var replay = try TraceReplay(self)
        let reader = KeyTraceReader(path: path)
        let summary: KeyTraceSummary
        if policies.contains(where: { $0.name.needsFuture }) {
            let (trace, loaded) = try reader.load()
            replay.replay(trace, nextAccess: trace.nextAccessPositions(), jobs: jobs)
            summary = loaded
        } else {
            summary = try reader.forEachBatch { replay.replay($0, nextAccess: nil, jobs: jobs) }
        }
        return replay.results(summary: summary)
    }

    /// Replays an in-memory trace (tests and benchmarks).
    public func run(trace: KeyTraceBatch, jobs: Int = 1) throws -> [CacheSimResult] {
        var replay = try TraceReplay(self)
        let next = policies.contains(where: { $0.name.needsFuture }) ? trace.nextAccessPositions() : nil
        replay.replay(trace, nextAccess: next, jobs: jobs)
        var summary = KeyTraceSummary()
        summary.requests = trace.count
        summary.requestedBytes = trace.sizes.reduce(0, +)
        return replay.results(summary: summary)
    }
}

/// The caches of a `CacheSimulation` being fed a trace batch by batch: what `run` drives, and
/// what the benchmarks drive directly to measure steady-state replay.
public struct TraceReplay {
    var replayers: [any TraceReplaying] = []

    /// Builds one cache per policy × capacity of `simulation`.
    public init(_ simulation: CacheSimulation) throws {
        for spec in simulation.policies {
            for capacity in simulation.capacities {
                precondition(capacity > 0, "CacheSimulation: capacities must be positive")
                let limits: CacheLimits = simulation.unit == .objects ? .objects(Int(capacity)) : .bytes(capacity)
                let maker = ReplayerMaker(label: spec.description, capacity: capacity, unit: simulation.unit)
                replayers.append(try spec.build(limits: limits, defaultMaxAge: simulation.defaultMaxAge, source: "--policy", maker))
            }
        }
    }

    /// Feeds the next requests of the trace to every cache. `nextAccess`, aligned with `batch`,
    /// is required when a policy needs the future. O(batch × caches); allocates nothing once
    /// the caches are full.
    public mutating func replay(_ batch: KeyTraceBatch, nextAccess: [Int64]?, jobs: Int = 1) {
        let workers = min(max(jobs, 1), replayers.count)
        guard workers > 1 else {
            for i in replayers.indices { replayers[i].replay(batch, nextAccess: nextAccess) }
            return
        }
        // Each worker owns the caches i ≡ w (mod workers): no cache is touched by two threads,
        // and the batch is only read.
        replayers.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let caches = buffer
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                for i in stride(from: worker, to: caches.count, by: workers) { caches[i].replay(batch, nextAccess: nextAccess) }
            }
        }
    }

    /// Misses so far of each cache, in policy × capacity order.
    public var misses: [Int] { replayers.map(\.misses) }

    /// One result per cache; `summary` describes the whole trace replayed.
    public func results(summary: KeyTraceSummary) -> [CacheSimResult] {
        replayers.map { $0.result(summary: summary) }
    }
}

/// A policy being replayed, behind one existential call per batch.
protocol TraceReplaying {
    mutating func replay(_ batch: KeyTraceBatch, nextAccess: [Int64]?)
    var misses: Int { get }
    func result(summary: KeyTraceSummary) -> CacheSimResult
}

struct ReplayerMaker: PolicyVisitor {
    let label: String
    let capacity: Int64
    let unit: CapacityUnit

    func visit<Policy: EvictionPolicy>(_ policy: Policy) -> any TraceReplaying {
        Replayer(policy: policy, label: label, capacity: capacity, unit: unit)
    }
}

/// The replay loop, specialised per policy type.
struct Replayer<Policy: EvictionPolicy>: TraceReplaying {
    var policy: Policy
    let label: String
    let capacity: Int64
    let unit: CapacityUnit
    var misses = 0
    var missedBytes: Int64 = 0

    mutating func replay(_ batch: KeyTraceBatch, nextAccess: [Int64]?) {
        let counted = policy.replay(batch, nextAccess: nextAccess, countsObjects: unit == .objects)
        misses += counted.misses
        missedBytes += counted.missedBytes
    }

    func result(summary: KeyTraceSummary) -> CacheSimResult {
        CacheSimResult(policy: label, capacity: capacity, capacityUnit: unit, requests: summary.requests,
                       misses: misses, requestedBytes: summary.requestedBytes, missedBytes: missedBytes)
    }
}
