/// Least frequently used: evicts the entry with the lowest request count, and among equal counts
/// the least recently accessed one (libCacheSim's LFU).
///
/// A new entry has count 1 and each hit adds 1; counts live only while the entry is cached and
/// never age. The structure is the O(1) LFU of Shah, Mitra and Matani: a list of frequency
/// buckets in increasing order, each a recency list of the entries with that count. Every
/// operation is O(1) (expected, for the key lookup).
public struct LFUPolicy: SlotPolicy {
    public let limits: CacheLimits
    public let expiry: Expiry?
    /// Each entry's bucket.
    public var table: SlotTable<Int32>
    public var occupancy = CacheOccupancy()

    /// One frequency bucket: its count, its entries (most recent at the head) and its
    /// neighbours in the bucket list.
    struct Bucket {
        var frequency: Int64
        var entries: SlotList
        var lower: Int32
        var higher: Int32
    }

    var buckets: [Bucket] = []
    var freeBuckets: [Int32] = []
    /// The bucket with the lowest count (`-1` when empty).
    var lowest: Int32 = -1

    public init(limits: CacheLimits, expiry: Expiry? = nil) {
        self.limits = limits
        self.expiry = expiry
        table = SlotTable(expectedCount: min(limits.maxCount ?? 1024, 1 << 20))
    }

    public func payload(for request: CacheRequest) -> Int32 { -1 }

    public mutating func didHit(_ slot: Int32, _ request: CacheRequest) {
        let from = table[payload: slot]
        let higher = buckets[Int(from)].higher
        let target: Int32
        if higher >= 0, buckets[Int(higher)].frequency == buckets[Int(from)].frequency + 1 {
            target = higher
        } else {
            target = makeBucket(frequency: buckets[Int(from)].frequency + 1, after: from)
        }
        leave(slot, bucket: from)
        enter(slot, bucket: target)
    }

    public mutating func didInsert(_ slot: Int32, _ request: CacheRequest) {
        let target = (lowest >= 0 && buckets[Int(lowest)].frequency == 1) ? lowest : makeBucket(frequency: 1, after: -1)
        enter(slot, bucket: target)
    }

    public mutating func selectVictim() -> Int32 { buckets[Int(lowest)].entries.tail }

    public mutating func willRemove(_ slot: Int32) { leave(slot, bucket: table[payload: slot]) }

    public mutating func resetOrder() {
        buckets.removeAll(keepingCapacity: true)
        freeBuckets.removeAll(keepingCapacity: true)
        lowest = -1
    }

    /// The count of a resident key (for tests and reports). O(1) expected.
    public func frequency(of key: UInt64) -> Int64? {
        table.slot(of: key).map { buckets[Int(table[payload: $0])].frequency }
    }

    mutating func enter(_ slot: Int32, bucket: Int32) {
        buckets[Int(bucket)].entries.pushFront(slot, weight: 1, in: &table)
        table[payload: slot] = bucket
    }

    /// Takes `slot` out of `bucket`, dropping the bucket when it empties.
    mutating func leave(_ slot: Int32, bucket: Int32) {
        buckets[Int(bucket)].entries.remove(slot, weight: 1, in: &table)
        guard buckets[Int(bucket)].entries.isEmpty else { return }
        let (lower, higher) = (buckets[Int(bucket)].lower, buckets[Int(bucket)].higher)
        if lower >= 0 { buckets[Int(lower)].higher = higher } else { lowest = higher }
        if higher >= 0 { buckets[Int(higher)].lower = lower }
        freeBuckets.append(bucket)
    }

    /// Creates an empty bucket just above `lower` (`-1`: at the bottom).
    mutating func makeBucket(frequency: Int64, after lower: Int32) -> Int32 {
        let higher = lower >= 0 ? buckets[Int(lower)].higher : lowest
        let bucket = Bucket(frequency: frequency, entries: SlotList(), lower: lower, higher: higher)
        let index: Int32
        if let reused = freeBuckets.popLast() {
            index = reused
            buckets[Int(index)] = bucket
        } else {
            index = Int32(buckets.count)
            buckets.append(bucket)
        }
        if lower >= 0 { buckets[Int(lower)].higher = index } else { lowest = index }
        if higher >= 0 { buckets[Int(higher)].lower = index }
        return index
    }
}
