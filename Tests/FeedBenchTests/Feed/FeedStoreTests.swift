import Foundation
import GRDB
import GRDBSQLite
import TestSupport
import Testing
@testable import FeedBench

@Suite(.scratchFolder) struct FeedStoreTests {
    static let hour: Int64 = 3_600 * 1_000_000_000

    func image(_ url: UInt64) -> ImageDescriptor {
        ImageDescriptor(url: url, pixelWidth: 1080, pixelHeight: 1350, encodedBytes: 200_000 + Int64(url % 1_000))
    }

    func images(_ urls: some Sequence<UInt64>) -> [ImageDescriptor] { urls.map(image) }

    @Test func aURLIsStoredOnce() throws {
        let store = try FeedStore(path: nil)
        #expect(try store.insert(images(1...10), at: 0) == images(1...10))
        #expect(try store.insert(images(1...10), at: 1).isEmpty)
        #expect(try store.insert(images([5, 11, 11, 12, 1]), at: 2) == images([11, 12]))
        #expect(try store.rowCount() == 12)
        #expect(try store.unviewedCount() == 12)
    }

    /// Stores on different threads share no SQLite lock: once a store has opened, SQLite keeps no
    /// process-wide memory statistics (whose mutex every SQLite allocation would take).
    @Test func storesLeaveSQLitesMemoryStatisticsOff() throws {
        let store = try FeedStore(path: nil)
        try store.insert(images(1...100), at: 0)
        #expect(FeedStore.processSettings)
        #expect(sqlite3_memory_used() == 0)
    }

    @Test func trimmingKeepsTheNewestRows() throws {
        let store = try FeedStore(path: nil)
        for page in 0..<40 {
            let first = UInt64(page * 10)
            try store.insert(images(first..<first + 10), at: Int64(page) * Self.hour)
            #expect(try store.rowCount() == min((page + 1) * 10, 300))
        }
        let kept = try store.unviewed(limit: 1_000)
        #expect(kept == images(100..<400))
        #expect(try store.newestCreatedAt() == 39 * Self.hour)
    }

    @Test func rowsCreatedTogetherAreTrimmedInInsertionOrder() throws {
        let store = try FeedStore(path: nil, maxRows: 15)
        try store.insert(images(1...10), at: 7)
        try store.insert(images(11...20), at: 7)
        #expect(try store.unviewed(limit: 100) == images(6...20))
    }

    @Test func trimmingIsOldestFirstViewedOrNot() throws {
        let store = try FeedStore(path: nil, maxRows: 10)
        try store.insert(images(1...5), at: 0)
        try store.insert(images(6...10), at: 1)
        try store.markViewed([6, 7, 8, 9, 10], at: 2)
        try store.insert(images(11...15), at: 3)
        // Rows 1–5 are the oldest, so they go although unviewed; viewed 6–10 stay.
        #expect(try store.rowCount() == 10)
        #expect(try store.unviewed(limit: 100) == images(11...15))
    }

    @Test func aViewedURLNeverComesBackEvenAfterItsRowIsTrimmed() throws {
        let store = try FeedStore(path: nil)
        try store.insert(images(1...10), at: 0)
        try store.markViewed([3], at: 1)
        #expect(try store.insert(images([3]), at: 2).isEmpty)
        for page in 1...31 {
            let first = UInt64(page * 100)
            try store.insert(images(first..<first + 10), at: Int64(page) * Self.hour)
        }
        #expect(try store.rowCount() == 300)
        #expect(try !store.unviewed(limit: 1_000).contains { $0.url <= 10 })
        #expect(try store.wasViewed(3))
        #expect(try !store.wasViewed(4))
        #expect(try store.insert(images([3, 4]), at: 40 * Self.hour) == images([4]))
    }

    @Test func aURLViewedBeforeItIsStoredIsNeverStored() throws {
        let store = try FeedStore(path: nil)
        try store.markViewed([42], at: 0)
        #expect(try store.wasViewed(42))
        #expect(try store.insert(images([41, 42, 43]), at: 1) == images([41, 43]))
    }

    @Test func unviewedIsOldestFirstAndSkipsViewed() throws {
        let store = try FeedStore(path: nil)
        try store.insert(images([30, 10, 20]), at: 5)
        try store.insert(images([5, 1]), at: 2)
        try store.insert(images([99]), at: 9)
        #expect(try store.unviewed(limit: 10).map(\.url) == [5, 1, 30, 10, 20, 99])
        try store.markViewed([1, 10], at: 10)
        #expect(try store.unviewed(limit: 10).map(\.url) == [5, 30, 20, 99])
        #expect(try store.unviewed(limit: 2).map(\.url) == [5, 30])
        #expect(try store.unviewed(limit: 0).isEmpty)
        #expect(try store.unviewedCount() == 4)
        #expect(try store.rowCount() == 6)
    }

    @Test func markViewedIsIdempotent() throws {
        let store = try FeedStore(path: nil)
        try store.insert(images(1...5), at: 0)
        try store.markViewed([2, 2, 3], at: 1)
        try store.markViewed([2, 3], at: 2)
        try store.markViewed([], at: 3)
        #expect(try store.unviewedCount() == 3)
        #expect(try store.rowCount() == 5)
        #expect(try store.wasViewed(2) && store.wasViewed(3))
    }

    @Test func newestCreatedAtFollowsInsertsAndTrims() throws {
        let store = try FeedStore(path: nil, maxRows: 5)
        #expect(try store.newestCreatedAt() == nil)
        try store.insert(images(1...3), at: 100)
        try store.insert(images(4...5), at: 50)
        #expect(try store.newestCreatedAt() == 100)
        try store.insert(images(1...3), at: 200)
        #expect(try store.newestCreatedAt() == 100)
    }

    @Test func largeURLsRoundTrip() throws {
        let store = try FeedStore(path: nil)
        let urls: [UInt64] = [.max, 1 << 63, 0]
        #expect(try store.insert(images(urls), at: 0) == images(urls))
        #expect(try store.unviewed(limit: 5) == images(urls))
        try store.markViewed([.max], at: 1)
        #expect(try store.wasViewed(.max) && !store.wasViewed(1 << 63))
    }

    /// A run's in-memory store, handed back, comes to the next run as if new: no rows, no
    /// viewed URLs, no sessions, rows numbered from 1 again (so `seq` order, and every result,
    /// is the same on a reused store as on a new one).
    @Test func aRecycledStoreComesBackEmpty() throws {
        let maxRows = 7_919 // no other test's: the store handed back is this test's own
        let store = try FeedStore.inMemory(maxRows: maxRows)
        try store.insert(images(1...5), at: 0)
        try store.markViewed([1], at: 1)
        try store.recordSession(number: 0, endedAt: 2)
        FeedStore.recycle(store)
        let again = try FeedStore.inMemory(maxRows: maxRows)
        #expect(again === store)
        #expect(try again.rowCount() == 0 && again.viewedURLs().isEmpty && again.lastSession() == nil)
        #expect(try again.insert(images(1...3), at: 3) == images(1...3))
        #expect(try again.database.read { try Int64.fetchAll($0, sql: "SELECT seq FROM image ORDER BY seq") } == [1, 2, 3])
        #expect(try FeedStore.inMemory(maxRows: maxRows) !== store, "a store in use is not handed out twice")
    }

    @Test func aFileStoreKeepsItsRowsAcrossLaunches() throws {
        let path = try SharedFiles.scratchDirectory().appendingPathComponent("feed.sqlite").path
        let first = try FeedStore(path: path)
        try first.insert(images(1...20), at: 10)
        try first.markViewed([1, 2, 3], at: 11)
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        try first.close()
        #expect(throws: (any Error).self) { try first.rowCount() }

        let second = try FeedStore(path: path)
        #expect(try second.rowCount() == 20)
        #expect(try second.unviewed(limit: 100) == images(4...20))
        #expect(try second.wasViewed(2))
        #expect(try second.newestCreatedAt() == 10)
        #expect(try second.insert(images([1, 21]), at: 12) == images([21]))
    }

    @Test func unusablePathsThrowInsteadOfCrashing() throws {
        let directory = try SharedFiles.scratchDirectory()
        let garbage = directory.appendingPathComponent("garbage.sqlite").path
        try Data(repeating: 0x5a, count: 4_096).write(to: URL(fileURLWithPath: garbage))
        #expect(throws: InputError.self) { try FeedStore(path: garbage) }
        #expect(throws: InputError.self) { try FeedStore(path: directory.appendingPathComponent("missing/feed.sqlite").path) }
        #expect(throws: InputError.self) { try FeedStore(path: directory.path) }
    }
}
