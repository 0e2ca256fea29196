import Benchmark
import CSV
import FeedBench
import Foundation

/// Reading a 1,000,000-request key trace (`time,obj_id,obj_size`) from disk: FeedBench's
/// byte-level `KeyTraceReader` against the CSV.swift library with the same integer conversion.
func keyTraceParserBenchmarks() {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("feedbench-benchmark-zipf-1m.csv").path
    if !FileManager.default.fileExists(atPath: path) {
        try! ZipfKeyTrace(objects: 100_000, requests: 1_000_000, alpha: 1.0, seed: 1).write(to: path)
    }

    Benchmark("parse KeyTraceReader 1M lines") { _ in
        var keys: UInt64 = 0
        try KeyTraceReader(path: path).forEachBatch { batch in
            for key in batch.keys { keys &+= key }
        }
        blackHole(keys)
    }

    Benchmark("parse CSV.swift 1M lines") { _ in
        var keys: UInt64 = 0
        let reader = try CSVReader(stream: InputStream(fileAtPath: path)!, hasHeaderRow: true)
        while let row = reader.next() {
            guard let time = Int64(row[0]), let key = UInt64(row[1]), let size = Int64(row[2]) else { fatalError() }
            keys &+= key &+ UInt64(time) &+ UInt64(size)
        }
        blackHole(keys)
    }
}
