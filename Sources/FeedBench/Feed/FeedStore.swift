import GRDB
import SQLiteProcessSettings

/// The app's feed database (docs/model.md, "The feed store": the SwiftData stand-in): a real SQLite database, in a
/// file or in memory, through GRDB.
///
/// Schema:
/// - `image` — one row per stored descriptor: `seq` (the rowid: insertion sequence, for a stable
///   order among rows created at the same time), `url` (unique), `created_at`, `is_viewed`,
///   `pixel_width`, `pixel_height`, `encoded_bytes`; indexed by `created_at` (trimming, newest
///   row, the unviewed queue). With at most 300 rows, the unviewed queue (read once a launch)
///   walks the age index rather than keep a partial index of its own, which every insert and
///   every view would update (it was a tenth of a run's store time; files written before keep it,
///   unused).
/// - `viewed_url` — every URL ever viewed, with when it was first viewed. It outlives the
///   `image` row, which the 300-row sliding window eventually deletes, so an image shown once is
///   never stored, hence never offered, again.
/// - `session` — one row per finished run on a file-backed store (`bench run --store`): its
///   number (0, 1, …) and the virtual time it ended, so the next run continues the app's
///   clock and history instead of starting over.
///
/// A file-backed store uses WAL journaling with `synchronous = NORMAL` (the usual iOS set-up)
/// and keeps its rows across launches. URLs are stored as their 64-bit pattern. Every statement
/// is prepared once per connection and cached. Costs below: n rows in `image` (at most
/// `maxRows` after each insert), u of them unviewed, v URLs in `viewed_url`.
///
/// SQLite's errors are thrown (GRDB's `DatabaseError`; `InputError` when opening fails), never
/// trapped. Calls from several threads are serialized by the connection's queue.
public final class FeedStore: Sendable {
    let database: DatabaseQueue
    /// Whether the store is a file: only then does a write need a transaction (atomic on disk,
    /// one WAL commit). In memory there is nothing to survive a crash, and BEGIN/COMMIT were a
    /// third of a run's store time.
    let isFile: Bool
    /// The most rows kept: `insert` trims the oldest beyond this.
    public let maxRows: Int

    static let schema = """
        CREATE TABLE IF NOT EXISTS image (
            seq INTEGER PRIMARY KEY,
            url INTEGER NOT NULL UNIQUE,
            created_at INTEGER NOT NULL,
            is_viewed BOOLEAN NOT NULL DEFAULT 0,
            pixel_width INTEGER NOT NULL,
            pixel_height INTEGER NOT NULL,
            encoded_bytes INTEGER NOT NULL
        );
        CREATE INDEX IF NOT EXISTS image_by_age ON image (created_at);
        CREATE TABLE IF NOT EXISTS viewed_url (
            url INTEGER PRIMARY KEY,
            viewed_at INTEGER NOT NULL
        );
        CREATE TABLE IF NOT EXISTS session (
            number INTEGER PRIMARY KEY,
            ended_at INTEGER NOT NULL
        );
        """

    /// SQLite's process-wide settings, applied once before the first store opens: memory
    /// statistics off, so that stores on different threads share no lock
    /// (`SQLiteProcessSettings.h`). Whether they took effect (not if something in the process
    /// opened SQLite earlier) changes the speed of parallel runs, never a result.
    static let processSettings: Bool = sqlite_process_settings_disable_memory_statistics() == 0

    /// Opens (creating if needed) the store at `path`, or an empty in-memory store when `path` is
    /// `nil` or `":memory:"`. Throws an `InputError` naming the path when SQLite cannot open it
    /// or it is not a database.
    public init(path: String?, maxRows: Int = FeedRules().maxRows) throws {
        precondition(maxRows > 0, "FeedStore: maxRows must be positive")
        _ = FeedStore.processSettings
        self.maxRows = maxRows
        do {
            isFile = path != nil && path != ":memory:"
            if let path, isFile {
                var configuration = Configuration()
                configuration.journalMode = .wal
                database = try DatabaseQueue(path: path, configuration: configuration)
            } else {
                // No rollback journal in memory: nothing survives the process anyway, and every
                // statement here either completes or throws on a broken store (conflicts are
                // DO NOTHING), so journaling each page a write touches only cost time.
                var configuration = Configuration()
                configuration.prepareDatabase { try $0.execute(sql: "PRAGMA journal_mode = OFF") }
                database = try DatabaseQueue(configuration: configuration)
            }
            try database.write { try $0.execute(sql: FeedStore.schema) }
        } catch let error as DatabaseError {
            throw InputError(source: path ?? ":memory:", "cannot open the feed store: \(error.message ?? "\(error.resultCode)")")
        }
    }

    /// In-memory stores of finished runs, kept for the next (at most `idleLimit`).
    static let idle = Locked<[FeedStore]>([])
    static let idleLimit = 16

    /// An empty in-memory store keeping `maxRows`: one a finished run handed back
    /// (`recycle(_:)`) when there is one, emptied first, so that a run cannot tell it from a new
    /// one (its rows are numbered from 1 again), otherwise a new one. Opening a store, creating
    /// its schema and preparing its statements was a tenth of a short run. O(1) plus the emptying.
    public static func inMemory(maxRows: Int) throws -> FeedStore {
        let reused = idle.withLock { stores in
            stores.firstIndex { $0.maxRows == maxRows }.map { stores.remove(at: $0) }
        }
        guard let store = reused else { return try FeedStore(path: nil, maxRows: maxRows) }
        try store.write { db in
            for table in ["image", "viewed_url", "session"] {
                try db.cachedStatement(sql: "DELETE FROM \(table)").execute()
            }
        }
        return store
    }

    /// Hands back the in-memory store of a finished run for `inMemory(maxRows:)` to reuse; the
    /// caller must not use it again. A file store is left alone. O(1).
    public static func recycle(_ store: FeedStore) {
        guard !store.isFile else { return }
        idle.withLock { stores in
            if stores.count < idleLimit { stores.append(store) }
        }
    }

    /// Runs `body` as one write: in a transaction on a file, statement by statement in memory.
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        isFile ? try database.write(body) : try database.writeWithoutTransaction(body)
    }

    /// Closes the connection; any later call throws. A file-backed store can then be reopened.
    public func close() throws {
        try database.close()
    }

    /// Stores the new images of `page`, all created at `now`, and returns them in page order.
    /// An image is skipped when its URL is already stored, was ever viewed, or came earlier in
    /// the page. Then deletes the oldest rows (by `created_at`, then `seq`) beyond `maxRows`,
    /// viewed or not — the seed's plain sliding window: unviewed rows that old are stale, and are
    /// only lost if the store holds more than `maxRows` unviewed ones.
    ///
    /// Cost: per image, one `viewed_url` probe O(log v) and one insert O(log n) (table and two
    /// indexes); reading the stored ones back, O(log n + stored); the trim counts the rows over
    /// the index's pages and, past `maxRows`, walks the age index to the k-th oldest and deletes
    /// the k oldest, O(k log n).
    @discardableResult
    public func insert(_ page: [ImageDescriptor], at now: Int64) throws -> [ImageDescriptor] {
        guard !page.isEmpty else { return [] }
        return try write { db in
            // One statement for the page: its URLs come in as a flat JSON array, in page order,
            // their sizes as another (three numbers an image), and get `seq`s above every stored
            // row's in that order, as one insert each would. (Flat arrays: reading an element of a
            // nested one parses it again, which made the statement 3× slower.)
            let newest = try StatementCall(db, "SELECT max(seq) FROM image").int64s().first ?? 0
            let insert = try StatementCall(db, """
                INSERT INTO image (url, created_at, pixel_width, pixel_height, encoded_bytes)
                SELECT value, ?3, ?2 ->> (key * 3), ?2 ->> (key * 3 + 1), ?2 ->> (key * 3 + 2) FROM json_each(?1)
                WHERE NOT EXISTS (SELECT 1 FROM viewed_url WHERE url = value)
                ON CONFLICT (url) DO NOTHING
                """)
            insert.bind(1, FeedStore.jsonArray(page.lazy.map { Int64(bitPattern: $0.url) }))
            insert.bind(2, FeedStore.jsonArray(page.lazy.flatMap { [Int64($0.pixelWidth), Int64($0.pixelHeight), $0.encodedBytes] }))
            insert.bind(3, now)
            try insert.run()
            guard db.changesCount > 0 else { return [] }
            let readBack = try StatementCall(db, "SELECT url FROM image WHERE seq > ? ORDER BY seq")
            readBack.bind(1, newest)
            let stored = try readBack.int64s()
            // They are the page's first occurrences of the URLs it stored, in page order.
            var next = 0
            let added = page.filter { image in
                guard next < stored.count, stored[next] == Int64(bitPattern: image.url) else { return false }
                next += 1
                return true
            }
            // The sliding window: the k rows beyond maxRows go, the oldest k.
            let count = try StatementCall(db, "SELECT count(*) FROM image").int64s().first ?? 0
            guard count > Int64(maxRows) else { return added }
            let cut: (createdAt: Int64, seq: Int64)? = try {
                let oldest = try StatementCall(db, "SELECT created_at, seq FROM image ORDER BY created_at, seq LIMIT 1 OFFSET ?")
                oldest.bind(1, count - Int64(maxRows) - 1)
                return try oldest.step() ? (oldest.int64(0), oldest.int64(1)) : nil
            }()
            if let cut {
                let delete = try StatementCall(db, "DELETE FROM image WHERE created_at < ?1 OR (created_at = ?1 AND seq <= ?2)")
                delete.bind(1, cut.createdAt)
                delete.bind(2, cut.seq)
                try delete.run()
            }
            return added
        }
    }

    /// Up to `limit` unviewed images, oldest first (`created_at`, then insertion order).
    /// Cost: O(n) at worst, walking the age index past viewed rows.
    public func unviewed(limit: Int) throws -> [ImageDescriptor] {
        try database.inDatabase { db in
            let statement = try db.cachedStatement(sql: """
                SELECT url, pixel_width, pixel_height, encoded_bytes FROM image
                WHERE is_viewed = 0 ORDER BY created_at, seq LIMIT ?
                """)
            let rows = try Row.fetchCursor(statement, arguments: [limit])
            var images = [ImageDescriptor]()
            while let row = try rows.next() {
                images.append(ImageDescriptor(url: UInt64(bitPattern: try row.decode(Int64.self, atIndex: 0)),
                                              pixelWidth: try row.decode(Int.self, atIndex: 1),
                                              pixelHeight: try row.decode(Int.self, atIndex: 2),
                                              encodedBytes: try row.decode(Int64.self, atIndex: 3)))
            }
            return images
        }
    }

    /// The number of unviewed images stored. Cost: O(n).
    public func unviewedCount() throws -> Int {
        try count(sql: "SELECT count(*) FROM image WHERE is_viewed = 0")
    }

    /// The number of rows in `image`, viewed or not. Cost: O(n).
    public func rowCount() throws -> Int {
        try count(sql: "SELECT count(*) FROM image")
    }

    func count(sql: String) throws -> Int {
        try database.inDatabase { db in
            try Int.fetchOne(db.cachedStatement(sql: sql)) ?? 0
        }
    }

    /// An image the user saw, and when.
    public struct View: Sendable, Equatable {
        public var url: UInt64
        public var time: Int64

        public init(url: UInt64, time: Int64) {
            self.url = url
            self.time = time
        }
    }

    /// Marks `urls` viewed at `now`, in one transaction (see `markViewed(_:)`).
    public func markViewed(_ urls: [UInt64], at now: Int64) throws {
        try markViewed(urls.map { View(url: $0, time: now) })
    }

    /// Marks each view's URL viewed at its time, in one transaction: sets `is_viewed` on their
    /// rows (if stored) and remembers them in `viewed_url` (stored or not). Idempotent: a URL
    /// keeps the time it was first viewed. Cost: two statements; per URL, O(log n) for the
    /// update plus O(log v) for the remembrance.
    public func markViewed(_ views: [View]) throws {
        guard !views.isEmpty else { return }
        try write { db in
            // Two statements for any number of views, which come in as flat JSON arrays of URLs
            // and of times, in the order they happened (the first view of a URL is remembered).
            let urls = FeedStore.jsonArray(views.lazy.map { Int64(bitPattern: $0.url) })
            let update = try StatementCall(db, "UPDATE image SET is_viewed = 1 FROM json_each(?1) WHERE image.url = json_each.value AND image.is_viewed = 0")
            update.bind(1, urls)
            try update.run()
            let remember = try StatementCall(db, """
                INSERT INTO viewed_url (url, viewed_at) SELECT value, ?2 ->> key FROM json_each(?1) WHERE true
                ON CONFLICT (url) DO NOTHING
                """)
            remember.bind(1, urls)
            remember.bind(2, FeedStore.jsonArray(views.lazy.map(\.time)))
            try remember.run()
        }
    }

    /// `numbers` as a JSON array (`[1,-2,3]`), the form the batch statements take them in.
    /// O(n).
    static func jsonArray(_ numbers: some Sequence<Int64>) -> String {
        var text = "["
        for (index, number) in numbers.enumerated() {
            if index > 0 { text += "," }
            text += String(number)
        }
        return text + "]"
    }

    /// Whether `url` was ever marked viewed, even if its row is gone. Cost: O(log v).
    public func wasViewed(_ url: UInt64) throws -> Bool {
        try database.inDatabase { db in
            let statement = try db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM viewed_url WHERE url = ?)")
            return try Bool.fetchOne(statement, arguments: [Int64(bitPattern: url)]) ?? false
        }
    }

    /// Every URL ever marked viewed, in ascending order of their 64-bit patterns. Cost: O(v).
    public func viewedURLs() throws -> [UInt64] {
        try database.inDatabase { db in
            try Int64.fetchAll(db.cachedStatement(sql: "SELECT url FROM viewed_url ORDER BY url")).map { UInt64(bitPattern: $0) }
        }
    }

    /// The last finished session: its number and the virtual time it ended; `nil` before the
    /// first. Cost: O(log s).
    public func lastSession() throws -> (number: Int, endedAt: Int64)? {
        try database.inDatabase { db in
            guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT number, ended_at FROM session ORDER BY number DESC LIMIT 1")) else {
                return nil
            }
            return (try row.decode(Int.self, atIndex: 0), try row.decode(Int64.self, atIndex: 1))
        }
    }

    /// Records that session `number` ended at `endedAt`. Cost: O(log s).
    public func recordSession(number: Int, endedAt: Int64) throws {
        try write { db in
            try db.cachedStatement(sql: "INSERT INTO session (number, ended_at) VALUES (?, ?)").execute(arguments: [number, endedAt])
        }
    }

    /// The `created_at` of the newest row, or `nil` when the store is empty. Cost: O(log n) on the
    /// age index.
    public func newestCreatedAt() throws -> Int64? {
        try database.inDatabase { db in
            try Int64.fetchOne(db.cachedStatement(sql: "SELECT max(created_at) FROM image"))
        }
    }
}
