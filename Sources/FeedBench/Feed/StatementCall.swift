import GRDB
import GRDBSQLite

/// One execution of a cached GRDB statement through SQLite's C API: bind, step, read, reset.
///
/// The feed store runs a handful of statements on every page and every batch of views, a few
/// hundred a run. Through GRDB's typed API (arguments as `DatabaseValue`s, cursors, rows) its
/// own work was about as much as SQLite's; through the C API it is a few calls each. The
/// statements stay GRDB's (prepared once per connection, `Database.cachedStatement`), and this
/// runs inside GRDB's access to the connection, as its documentation allows
/// (`Statement.sqliteStatement`). Errors are thrown as GRDB's `DatabaseError`.
struct StatementCall: ~Copyable {
    let statement: SQLiteStatement
    let connection: SQLiteConnection?

    /// Starts a call of `sql`'s cached statement on `db`.
    init(_ db: Database, _ sql: String) throws {
        statement = try db.cachedStatement(sql: sql).sqliteStatement
        connection = db.sqliteConnection
    }

    /// Binds `value` to parameter `index` (1-based).
    func bind(_ index: Int32, _ value: Int64) {
        sqlite3_bind_int64(statement, index, value)
    }

    /// Binds `text` (copied by SQLite) to parameter `index` (1-based).
    func bind(_ index: Int32, _ text: String) {
        sqlite3_bind_text(statement, index, text, -1, Self.transient)
    }

    /// SQLite's `SQLITE_TRANSIENT`: copy the bytes before the call returns.
    static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// Steps: `true` while a row is there to read, `false` when done. Throws SQLite's error.
    func step() throws -> Bool {
        switch sqlite3_step(statement) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code:
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: connection.map { String(cString: sqlite3_errmsg($0)) })
        }
    }

    /// Column `index` (0-based) of the current row as an integer (0 for NULL).
    func int64(_ index: Int32) -> Int64 {
        sqlite3_column_int64(statement, index)
    }

    /// Runs the statement to its end.
    func run() throws {
        while try step() {}
    }

    /// Column 0 of every row.
    func int64s() throws -> [Int64] {
        var values: [Int64] = []
        while try step() { values.append(int64(0)) }
        return values
    }

    /// Leaves the statement ready for its next call (bindings are replaced by the next one).
    deinit {
        sqlite3_reset(statement)
    }
}
