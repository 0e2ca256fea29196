/// A synthetic key trace: requests for objects whose popularity follows Zipf's law, each object
/// with a fixed size drawn once. The workload of the policy benchmarks and of `bench trace zipf`.
public struct ZipfKeyTrace: Sendable {
    public var objects: Int
    public var requests: Int
    public var alpha: Double
    public var seed: UInt64
    /// Object sizes are uniform in this range, in bytes.
    public var sizes: ClosedRange<Int64>

    public init(objects: Int, requests: Int, alpha: Double = 1.0, seed: UInt64 = 1,
                sizes: ClosedRange<Int64> = 40_000...600_000) {
        precondition(objects > 0 && requests >= 0 && sizes.lowerBound > 0, "ZipfKeyTrace: out of range")
        self.objects = objects
        self.requests = requests
        self.alpha = alpha
        self.seed = seed
        self.sizes = sizes
    }

    /// The size of object `key`: a pure function of the seed and the key.
    public func size(of key: UInt64) -> Int64 {
        var generator = SeededGenerator(seed: seed, stream: key)
        return generator.next(in: sizes)
    }

    /// Generates the requests in order (request `i` at time `i`), handing them out in batches.
    public func forEachBatch(batchSize: Int = 1 << 16, _ body: (KeyTraceBatch) throws -> Void) rethrows {
        let zipf = ZipfDistribution(count: objects, alpha: alpha)
        var generator = SeededGenerator(seed: seed)
        let sizeTable = (0..<objects).map { size(of: UInt64($0 + 1)) }
        var batch = KeyTraceBatch(reservingCapacity: min(batchSize, requests))
        for i in 0..<requests {
            let rank = zipf.sample(using: &generator)
            batch.append(time: Int64(i), key: UInt64(rank + 1), size: sizeTable[rank])
            if batch.count == batchSize {
                try body(batch)
                batch.removeAll()
            }
        }
        if batch.count > 0 { try body(batch) }
    }

    /// All requests in memory.
    public func generate() -> KeyTraceBatch {
        var all = KeyTraceBatch(reservingCapacity: requests)
        forEachBatch { batch in
            all.times.append(contentsOf: batch.times)
            all.keys.append(contentsOf: batch.keys)
            all.sizes.append(contentsOf: batch.sizes)
        }
        return all
    }

    /// Writes the trace as key-trace CSV (with header) to `path`, atomically.
    public func write(to path: String) throws {
        let file = try AtomicFile(path: path)
        try file.write(KeyTraceReader.columns.joined(separator: ",") + "\n")
        var line = [UInt8]()
        try forEachBatch { batch in
            line.removeAll(keepingCapacity: true)
            for i in 0..<batch.count {
                line.append(contentsOf: String(batch.times[i]).utf8)
                line.append(UInt8(ascii: ","))
                line.append(contentsOf: String(batch.keys[i]).utf8)
                line.append(UInt8(ascii: ","))
                line.append(contentsOf: String(batch.sizes[i]).utf8)
                line.append(UInt8(ascii: "\n"))
            }
            try file.write(bytes: line)
        }
        try file.commit()
    }
}
