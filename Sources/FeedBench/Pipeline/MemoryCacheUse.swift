/// What a run's memory cache did that its limit or its entries' lifetime decided: whether the
/// limit ever changed what the cache held, whether an entry ever expired, and how long the run
/// lasted. `RunSharing` reads it to tell which other policies and limits would have run the
/// same, and so need not run.
public struct MemoryCacheUse: Sendable, Equatable {
    /// Whether the limit acted: an entry was evicted (to make room, or by a trim) or refused for
    /// its size. When it never did, the cache held every image it was given, as one without a
    /// limit would.
    public var limitActed: Bool
    /// Whether an entry's maximum age passed while it was held.
    public var expired: Bool
    /// The run's length in virtual time, first event to last, in nanoseconds: no entry was held
    /// longer.
    public var span: Int64

    public init(limitActed: Bool, expired: Bool, span: Int64 = 0) {
        self.limitActed = limitActed
        self.expired = expired
        self.span = span
    }
}
