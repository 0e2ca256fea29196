/// A hash map from 64-bit object keys to 32-bit slot numbers, the lookup structure under every
/// eviction policy.
///
/// Open addressing with linear probing over one contiguous array, a cheap integer mixer instead
/// of `Hasher`, a load factor kept at or below 1/2, and backward-shift deletion (no tombstones,
/// so probe lengths never degrade with churn). `Benchmarks/` measures it against
/// `Dictionary<UInt64, Int32>` on the cachesim access pattern.
///
/// Storage grows by doubling and never shrinks, so a cache in steady state allocates nothing.
public struct KeyIndex {
    struct Bucket {
        var key: UInt64
        /// The slot, or `-1` for an empty bucket.
        var slot: Int32
    }

    var buckets: [Bucket]
    var mask: Int
    /// The number of keys stored.
    public private(set) var count: Int

    /// Creates an index sized for `expectedCount` keys without growing.
    public init(expectedCount: Int = 16) {
        var size = 16
        while size < expectedCount * 2 { size <<= 1 }
        buckets = Array(repeating: Bucket(key: 0, slot: -1), count: size)
        mask = size - 1
        count = 0
    }

    @inline(__always)
    static func home(of key: UInt64, mask: Int) -> Int {
        // The finaliser of MurmurHash3: sequential and strided ids spread evenly.
        var x = key
        x ^= x &>> 33
        x &*= 0xff51_afd7_ed55_8ccd
        x ^= x &>> 33
        return Int(truncatingIfNeeded: x) & mask
    }

    /// The slot stored for `key`, or `nil`. O(1) expected.
    public func slot(for key: UInt64) -> Int32? {
        buckets.withUnsafeBufferPointer { table in
            var i = KeyIndex.home(of: key, mask: mask)
            while true {
                let bucket = table[i]
                if bucket.slot < 0 { return nil }
                if bucket.key == key { return bucket.slot }
                i = (i &+ 1) & mask
            }
        }
    }

    /// Stores `slot` for `key`, which must not be present. O(1) amortised.
    public mutating func insert(_ key: UInt64, slot: Int32) {
        precondition(slot >= 0, "KeyIndex stores non-negative slots")
        if (count + 1) * 2 > buckets.count { grow() }
        let mask = self.mask
        buckets.withUnsafeMutableBufferPointer { table in
            var i = KeyIndex.home(of: key, mask: mask)
            while table[i].slot >= 0 {
                assert(table[i].key != key, "KeyIndex.insert: key already present")
                i = (i &+ 1) & mask
            }
            table[i] = Bucket(key: key, slot: slot)
        }
        count += 1
    }

    /// Removes `key`; returns its slot, or `nil` when it was absent. O(1) expected.
    @discardableResult
    public mutating func remove(_ key: UInt64) -> Int32? {
        let mask = self.mask
        let removed: Int32? = buckets.withUnsafeMutableBufferPointer { table in
            var i = KeyIndex.home(of: key, mask: mask)
            while true {
                if table[i].slot < 0 { return nil }
                if table[i].key == key { break }
                i = (i &+ 1) & mask
            }
            let slot = table[i].slot
            // Backward-shift deletion: pull later members of the probe run into the hole.
            var hole = i
            var j = (i &+ 1) & mask
            while table[j].slot >= 0 {
                let home = KeyIndex.home(of: table[j].key, mask: mask)
                // Move j into the hole unless its home lies cyclically in (hole, j].
                let distanceToJ = (j &- home) & mask
                let distanceToHole = (hole &- home) & mask
                if distanceToHole < distanceToJ {
                    table[hole] = table[j]
                    hole = j
                }
                j = (j &+ 1) & mask
            }
            table[hole].slot = -1
            return slot
        }
        if removed != nil { count -= 1 }
        return removed
    }

    /// Replaces the slot stored for a present `key`. O(1) expected.
    public mutating func update(_ key: UInt64, slot: Int32) {
        let mask = self.mask
        buckets.withUnsafeMutableBufferPointer { table in
            var i = KeyIndex.home(of: key, mask: mask)
            while table[i].key != key || table[i].slot < 0 { i = (i &+ 1) & mask }
            table[i].slot = slot
        }
    }

    /// Forgets every key, keeping the storage. O(capacity).
    public mutating func removeAll() {
        for i in buckets.indices { buckets[i].slot = -1 }
        count = 0
    }

    mutating func grow() {
        let old = buckets
        buckets = Array(repeating: Bucket(key: 0, slot: -1), count: old.count * 2)
        mask = buckets.count - 1
        count = 0
        for bucket in old where bucket.slot >= 0 { insert(bucket.key, slot: bucket.slot) }
    }
}
