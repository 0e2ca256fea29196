import Foundation

/// An approximate request counter over 64-bit keys: a counting Bloom filter, the frequency
/// sketch under W-TinyLFU's admission decisions.
///
/// Each key maps to `hashCount` of the `width` counters. `add` increments all of them (plain
/// counting, not conservative update: libCacheSim's sketch does the same) and `estimate` returns
/// their minimum, so an estimate never undercounts the adds since the last `halve()`; it
/// overcounts only when every one of the key's counters is shared with other keys. `halve()`
/// divides every counter by two (rounding down), the aging that keeps the sketch tracking
/// recent popularity.
///
/// Sizing follows the Bloom-filter formulas for `expectedEntries` keys and a false-positive
/// rate `errorRate`: `-ln(errorRate) / ln(2)²` counters per entry and `ceil(ln 2 × that)` hash
/// functions (14.4 counters and 10 hashes for 0.001). The array is capped at `maxWidth`
/// counters: W-TinyLFU sizes its sketch by the cache's capacity unit, which in byte mode is
/// one "entry" per byte, billions of counters for a few hundred thousand objects.
///
/// Hashing is deterministic: two 64-bit hashes of the key come from fixed multiply–xorshift
/// mixers keyed by `seed`, and counter `i` is `(h1 + i·h2)` reduced into the width by a
/// multiply-high (double hashing). No random or process state is involved, so runs repeat
/// exactly.
///
/// `add` and `estimate` are O(`hashCount`); `halve` and `reset` are O(`width`). Nothing is
/// allocated after `init`.
public struct FrequencySketch: Sendable {
    /// The number of counters.
    public let width: Int
    /// The number of counters each key maps to.
    public let hashCount: Int
    /// The seed the key hashes are keyed by.
    public let seed: UInt64
    var counters: [UInt32]

    /// The counter array's default upper bound: 2²² counters (16 MiB), enough for the error
    /// bound at 0.001 up to about 290,000 keys.
    public static let defaultMaxWidth = 1 << 22

    /// Creates an all-zero sketch sized for `expectedEntries` keys at `errorRate`.
    public init(expectedEntries: Int64, errorRate: Double = 0.001, maxWidth: Int = defaultMaxWidth, seed: UInt64 = 0) {
        precondition(errorRate > 0 && errorRate < 1, "FrequencySketch: errorRate must be in (0, 1)")
        precondition(maxWidth > 0, "FrequencySketch: maxWidth must be positive")
        let ln2 = M_LN2
        let countersPerEntry = -log(errorRate) / (ln2 * ln2)
        let hashes = Int((ln2 * countersPerEntry).rounded(.up))
        let wanted = (countersPerEntry * Double(max(expectedEntries, 1))).rounded(.up)
        var width = wanted >= Double(maxWidth) ? maxWidth : Int(wanted)
        // Never fewer counters than hash functions.
        if width < hashes { width = 2 * hashes }
        self.width = width
        self.hashCount = hashes
        self.seed = seed
        counters = Array(repeating: 0, count: width)
    }

    /// Counts one occurrence of `key`. O(`hashCount`). Counters saturate at `UInt32.max`.
    public mutating func add(_ key: UInt64) {
        let (h1, h2) = hashes(of: key)
        let width = UInt64(self.width)
        counters.withUnsafeMutableBufferPointer { c in
            var h = h1
            for _ in 0..<hashCount {
                let i = Int(truncatingIfNeeded: width.multipliedFullWidth(by: h).high)
                if c[i] != .max { c[i] &+= 1 }
                h &+= h2
            }
        }
    }

    /// The estimated count of `key`: the minimum of its counters. O(`hashCount`).
    public func estimate(_ key: UInt64) -> UInt32 {
        let (h1, h2) = hashes(of: key)
        let width = UInt64(self.width)
        return counters.withUnsafeBufferPointer { c in
            var h = h1
            var least = UInt32.max
            for _ in 0..<hashCount {
                least = min(least, c[Int(truncatingIfNeeded: width.multipliedFullWidth(by: h).high)])
                h &+= h2
            }
            return least
        }
    }

    /// Halves every counter (rounding down). O(`width`).
    public mutating func halve() {
        counters.withUnsafeMutableBufferPointer { c in
            for i in c.indices { c[i] &>>= 1 }
        }
    }

    /// Sets every counter to zero. O(`width`).
    public mutating func reset() {
        counters.withUnsafeMutableBufferPointer { c in
            for i in c.indices { c[i] = 0 }
        }
    }

    /// The two hashes of double hashing: independent mixes of the key, the second made odd so
    /// that successive probes never stand still.
    @inline(__always)
    func hashes(of key: UInt64) -> (UInt64, UInt64) {
        let h1 = FrequencySketch.mix(key ^ seed ^ 0x9e37_79b9_7f4a_7c15)
        let h2 = FrequencySketch.mix(key &+ (seed ^ 0xc2b2_ae3d_27d4_eb4f) &* 0x1656_67b1_9e37_79f9) | 1
        return (h1, h2)
    }

    /// A 64-bit finaliser (two rounds of xorshift-multiply): every input bit affects every
    /// output bit.
    @inline(__always)
    static func mix(_ value: UInt64) -> UInt64 {
        var x = value
        x = (x ^ (x &>> 30)) &* 0xbf58_476d_1ce4_e5b9
        x = (x ^ (x &>> 27)) &* 0x94d0_49bb_1331_11eb
        return x ^ (x &>> 31)
    }
}

