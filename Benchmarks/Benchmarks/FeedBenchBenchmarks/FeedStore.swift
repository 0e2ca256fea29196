import Benchmark
import FeedBench
import Foundation

/// The feed store's two hot operations on real SQLite, in memory and in a WAL file under the
/// temporary folder: 10,000 `markViewed` calls of one URL each (a session showing 10,000 images)
/// and 1,000 `insert`s of 10-image pages drawn by the mock API from a 5,000-image catalog (so
/// with duplicates and 300-row trimming). One fresh store per iteration; opening it and deleting
/// its file are outside the measurement.
func feedStoreBenchmarks() {
    var api = try! MockFeedAPI(configuration: FeedAPIConfiguration(latency: .fixed(0)), seed: 1)
    let pages: [[ImageDescriptor]] = (0..<1_000).map { call in
        guard case .page(let images) = api.requestPage(at: Int64(call)).outcome else { fatalError("no faults configured") }
        return images
    }
    let configuration = Benchmark.Configuration(metrics: [.wallClock, .mallocCountTotal], scalingFactor: .one,
                                                maxDuration: .seconds(10), maxIterations: 10)

    for onFile in [false, true] {
        let medium = onFile ? "file" : "memory"
        Benchmark("feed store 10K markViewed (\(medium))", configuration: configuration) { benchmark in
            try withStore(onFile: onFile) { store in
                try store.insert(pages[0], at: 0)
                benchmark.startMeasurement()
                for url in 0..<UInt64(10_000) { try store.markViewed([url], at: Int64(url)) }
                benchmark.stopMeasurement()
            }
        }
        Benchmark("feed store 1K page inserts (\(medium))", configuration: configuration) { benchmark in
            try withStore(onFile: onFile) { store in
                benchmark.startMeasurement()
                for (call, page) in pages.enumerated() { blackHole(try store.insert(page, at: Int64(call))) }
                benchmark.stopMeasurement()
            }
        }
    }
}

/// Runs `body` on a fresh store, in memory or in a new file that is deleted afterwards.
private func withStore(onFile: Bool, _ body: (FeedStore) throws -> Void) throws {
    guard onFile else { return try body(FeedStore(path: nil)) }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("feedbench-store-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try FeedStore(path: directory.appendingPathComponent("feed.sqlite").path)
    try body(store)
    try store.close()
}
