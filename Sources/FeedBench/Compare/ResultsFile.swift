/// A results CSV read back and checked for comparison: the header must be the results schema
/// (`RunResult.columns`, in order), the fourth schema's (without `stall_rate` and
/// `stalls_per_minute`: `ResultMetric.addedInSchema5` says how its rows read) or the third's
/// (also without `http`: its rows read with an empty HTTP version); files of the first two are
/// refused as such. Every
/// figure cell must be a number in its column's form (or empty where it may be),
/// and no two rows may share an identity. Each refusal names the file and line.
public struct ResultsFile: Sendable {
    /// One row: its identity cells and its figures, scaled as `ResultMetric.all` says.
    public struct Row: Sendable, Equatable {
        /// The 1-based line the row starts on.
        public let line: Int
        /// The identity columns' values, in `RunResult.identityColumns` order.
        public let identity: [String]
        /// One value per `ResultMetric.all`, in that order.
        public let values: [Int64]
        /// Where the row belongs in its sweep, for a sweep results file (`SweepTable`).
        public let placement: SweepTable.Placement?

        /// Whether it is a sweep's mean, min or max row rather than one run's.
        public var isAggregate: Bool { SweepTable.aggregateSeeds.contains(identity[RunResult.identityIndex("seed")]) }
    }

    /// The path, as given.
    public let path: String
    /// The rows, in file order.
    public let rows: [Row]
    /// Whether the file has the sweep columns (`SweepTable.columns`).
    public let isSweep: Bool
    /// Whether its rows say their HTTP version (files of the third schema do not).
    public let hasHTTPColumn: Bool

    /// The results schemas still read, newest first: their columns (without the sweep's).
    static let schemas = [RunResult.columns, RunResult.schema4Columns, RunResult.schema3Columns]

    /// Reads and checks the results CSV at `path`. A file whose last row has no line end was cut
    /// off while it was written (a run killed mid-write, a copy stopped short): it is refused, as
    /// `bench merge` refuses a shard so cut.
    public static func read(path: String) throws -> ResultsFile {
        let table = try CSVTable.read(path: path)
        if let last = table.records.last ?? Optional(table.header), !table.endsWithLineEnd {
            throw InputError(source: path, line: last.line,
                             "expected a line end after the last row, found the file ending mid-row: it was cut off while it was written")
        }
        return try ResultsFile(table)
    }

    /// Checks a parsed table against the results schema.
    public init(_ table: CSVTable) throws {
        path = table.source
        let schema = try Self.checkHeader(table.header, source: table.source)
        hasHTTPColumn = schema.contains("http")
        isSweep = table.header.fields.count > schema.count
        let addsSchema5 = !schema.contains(ResultMetric.addedInSchema5[0])
        var firstLine: [[String]: Int] = [:]
        var rows: [Row] = []
        rows.reserveCapacity(table.records.count)
        for record in table.records {
            var record = record
            if !hasHTTPColumn { record.fields.insert("", at: RunResult.identityIndex("http")) }
            let row = try Self.row(record, isSweep: isSweep, before5: addsSchema5, source: path)
            if let earlier = firstLine[row.identity] {
                throw InputError(source: path, line: record.line,
                                 "expected one row per identity (\(RunResult.identityColumns.joined(separator: ", "))), found the identity of line \(earlier) again")
            }
            firstLine[row.identity] = record.line
            rows.append(row)
        }
        self.rows = rows
    }

    /// One record of a results file whose header is checked: its identity, its figures in
    /// their columns' forms and, in a sweep file, its placement. `before5`: the file is of the
    /// fourth schema or the third (its `http` cell already in place), without the columns the
    /// fifth added, which read as `ResultMetric.absent`. O(fields).
    static func row(_ record: CSVTable.Record, isSweep: Bool, before5: Bool = false, source path: String) throws -> Row {
        let identityCount = RunResult.identityColumns.count
        let identity = Array(record.fields.prefix(identityCount))
        let metrics = before5 ? ResultMetric.beforeSchema5 : ResultMetric.all
        var values: [Int64] = []
        values.reserveCapacity(ResultMetric.all.count)
        for (metric, cell) in zip(metrics, record.fields.dropFirst(identityCount)) {
            guard let value = metric.parse(Substring(cell)) else {
                throw InputError(source: path, line: record.line, field: metric.name,
                                 "expected \(metric.expectedCell), found \(InputError.quote(cell))")
            }
            values.append(value)
        }
        if before5 { values += ResultMetric.addedInSchema5.map { _ in ResultMetric.absent } }
        var placement: SweepTable.Placement?
        if isSweep {
            let cells = record.fields.suffix(2)
            switch SweepTable.placement(run: cells.first!, grid: cells.last!, seed: identity[RunResult.identityIndex("seed")]) {
            case let .success(found): placement = found
            case let .failure(cell):
                throw InputError(source: path, line: record.line, field: cell.column,
                                 "expected \(cell.expected), found \(InputError.quote(cell.found))")
            }
        }
        return Row(line: record.line, identity: identity, values: values, placement: placement)
    }

    /// Every row of `files` with the path it came from, in file order, refusing a run found in
    /// two of them (each file already holds each identity once). O(rows).
    static func rowsOnce(_ files: [ResultsFile]) throws -> [(path: String, row: Row)] {
        var firstSeen: [[String]: (path: String, line: Int)] = [:]
        var rows: [(path: String, row: Row)] = []
        for file in files {
            for row in file.rows {
                if let earlier = firstSeen[row.identity] {
                    throw InputError(source: file.path, line: row.line,
                                     "expected each run once across the results files, found the identity of \(earlier.path):\(earlier.line) again")
                }
                firstSeen[row.identity] = (file.path, row.line)
                rows.append((file.path, row))
            }
        }
        return rows
    }

    /// The schema of `header` (one of `schemas`, without the sweep's columns), or a refusal
    /// naming the first column that differs from the current schema (with `http` or without).
    @discardableResult
    static func checkHeader(_ header: CSVTable.Record, source: String) throws -> [String] {
        let found = header.fields
        if let schema = schemas.first(where: { found == $0 || found == $0 + SweepTable.columns.suffix(2) }) { return schema }
        let expected = found.contains("http") ? RunResult.columns : RunResult.schema3Columns
        func refuse(_ message: String) -> InputError {
            InputError(source: source, line: header.line, "expected the results columns as bench run writes them; \(message)")
        }
        if found == RunResult.schema1Columns || found == RunResult.schema1Columns + SweepTable.columns.suffix(2) {
            throw refuse("found the first results schema, whose stall figures are not comparable (stall percentiles over stalled displays only, waits under way at a session's end left out, no display_latency_ms_* columns): re-run it with this bench")
        }
        if found == RunResult.schema2Columns || found == RunResult.schema2Columns + SweepTable.columns.suffix(2) {
            throw refuse("found the second results schema, without the main thread's frame columns (frames, frames_late, hitch_time_ms, hitch_time_ratio_ms_per_s, longest_hitch_ms): re-run it with this bench")
        }
        if let index = zip(expected, found).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
            throw refuse("column \(index + 1) should be \(InputError.quote(expected[index])), found \(InputError.quote(found[index]))")
        }
        if found.count < expected.count {
            throw refuse("found \(found.count) columns, without \(expected[found.count...].map { InputError.quote($0) }.joined(separator: ", "))")
        }
        throw refuse("found \(found.count) columns, \(expected.count) expected, with \(found[expected.count...].map { InputError.quote($0) }.joined(separator: ", ")) after the last")
    }
}
