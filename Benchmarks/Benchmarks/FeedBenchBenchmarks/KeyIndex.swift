import Benchmark
import FeedBench

/// `KeyIndex` against `Dictionary<UInt64, Int32>` on the access pattern of a cache: 1,000,000
/// Zipf lookups with a miss → insert + remove of a random resident key, over 10,000 resident
/// keys. The hand-written index must earn its place here.
func keyIndexBenchmarks() {
    let trace = ZipfKeyTrace(objects: 100_000, requests: 1_000_000, alpha: 1.0, seed: 1).generate()
    let resident = 10_000

    Benchmark("index KeyIndex 1M lookups+churn") { _ in
        var index = KeyIndex(expectedCount: resident)
        var ring = [UInt64](repeating: .max, count: resident)
        var cursor = 0
        for key in trace.keys where index.slot(for: key) == nil {
            if ring[cursor] != .max { index.remove(ring[cursor]) }
            index.insert(key, slot: Int32(cursor))
            ring[cursor] = key
            cursor = (cursor + 1) % resident
        }
        blackHole(index.count)
    }

    Benchmark("index Dictionary 1M lookups+churn") { _ in
        var index = [UInt64: Int32](minimumCapacity: resident)
        var ring = [UInt64](repeating: .max, count: resident)
        var cursor = 0
        for key in trace.keys where index[key] == nil {
            if ring[cursor] != .max { index.removeValue(forKey: ring[cursor]) }
            index[key] = Int32(cursor)
            ring[cursor] = key
            cursor = (cursor + 1) % resident
        }
        blackHole(index.count)
    }
}
