/// SplitMix64 (Steele, Lea and Flood): the seeder. Turns any 64-bit seed, including 0, into
/// well-mixed state words. Pinned by known-answer tests against the reference C code.
public struct SplitMix64: Sendable {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits. O(1).
    public mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z &>> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z &>> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z &>> 31)
    }
}

/// xoshiro256** (Blackman and Vigna): the one generator of a run. Every random draw in
/// FeedBench comes from one of these, seeded by the run's seed through `SplitMix64`, so a run is
/// reproducible bit for bit on every platform and Swift version (the standard library's
/// generators and `random(in:)` algorithms promise neither).
public struct SeededGenerator: Sendable {
    var s0, s1, s2, s3: UInt64

    /// Seeds the four state words from `seed` through SplitMix64, as the authors recommend.
    public init(seed: UInt64) {
        var seeder = SplitMix64(seed: seed)
        s0 = seeder.next()
        s1 = seeder.next()
        s2 = seeder.next()
        s3 = seeder.next()
    }

    /// A generator for an independent stream derived from this seed and a label (e.g. the run's
    /// seed and "network"), so adding draws to one component never shifts another's.
    public init(seed: UInt64, stream: UInt64) {
        var seeder = SplitMix64(seed: seed ^ (stream &* 0xd6e8_feb8_6659_fd93))
        self.init(seed: seeder.next())
    }

    /// The next 64 random bits. O(1).
    public mutating func next() -> UInt64 {
        let result = ((s1 &* 5) << 7 | (s1 &* 5) >> 57) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = (s3 << 45) | (s3 >> 19)
        return result
    }

    /// A uniform double in [0, 1) with 53 random bits. O(1).
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// A uniform integer in `0..<bound` without modulo bias (Lemire's method). O(1) expected.
    public mutating func next(below bound: UInt64) -> UInt64 {
        precondition(bound > 0, "SeededGenerator.next(below:): bound must be positive")
        var product = next().multipliedFullWidth(by: bound)
        if product.low < bound {
            let threshold = (0 &- bound) % bound
            while product.low < threshold { product = next().multipliedFullWidth(by: bound) }
        }
        return product.high
    }

    /// A uniform integer in `range`. O(1) expected.
    public mutating func next(in range: ClosedRange<Int64>) -> Int64 {
        let width = UInt64(bitPattern: range.upperBound &- range.lowerBound) &+ 1
        if width == 0 { return Int64(bitPattern: next()) }
        return range.lowerBound &+ Int64(bitPattern: next(below: width))
    }

    /// `true` with probability `p`. O(1).
    public mutating func chance(_ p: Double) -> Bool { nextUnit() < p }
}
