
/// The scroll traces behaviours generated lately, shared by the runs that replay them.
///
/// A generated trace depends only on its behaviour, seed, duration and the device's refresh
/// rate and geometry, never on the cache policy, size or prefetch window, so the runs of a
/// matrix that differ only in those (the main job: 144 a trace) replay one trace instead of
/// generating it again (3 % of a run). Traces are values; sharing one cannot change a result.
enum GeneratedTraceCache {
    /// What a generated trace is a function of.
    struct Key: Hashable {
        var behavior: ScrollBehavior
        var seed: UInt64
        var duration: Int64
        var refreshRate: Int
        var rowHeight: Double
        var viewportHeight: Double
    }

    /// Enough for every trace of a large sweep's runs in flight at once; when full, it starts
    /// over (a sweep's runs come grouped by trace, so old entries are rarely wanted again).
    static let capacity = 64
    static let traces = Locked<[Key: ScrollTrace]>([:])

    /// The trace for `key`: the shared one if it was generated lately, otherwise `generate()`'s,
    /// kept for the next run. O(1) plus the generation on a miss (outside the lock).
    static func trace(_ key: Key, generate: () -> ScrollTrace) -> ScrollTrace {
        if let trace = traces.withLock({ $0[key] }) { return trace }
        let trace = generate()
        traces.withLock { traces in
            if traces.count >= capacity { traces.removeAll(keepingCapacity: true) }
            traces[key] = trace
        }
        return trace
    }
}
