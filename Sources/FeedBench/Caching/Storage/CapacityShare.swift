extension CacheLimits {
    /// `fraction` of the capacity in the capacity unit, rounded down: the size of one queue of a
    /// multi-queue policy (S3-FIFO's small FIFO, 2Q's Ain). O(1).
    ///
    /// The product is taken in `Double` and truncated, as libCacheSim sizes its sub-caches, so
    /// queue sizes match it exactly; an unbounded cache (or a fraction above 1 of a huge one)
    /// saturates at `Int64.max`.
    public func capacityShare(_ fraction: Double) -> Int64 {
        precondition(fraction >= 0, "capacityShare: fraction must not be negative")
        let product = Double(capacity) * fraction
        return product >= Double(Int64.max) ? .max : Int64(product)
    }
}
