/// A timeline CSV (`bench run --timeline`) read back for `bench report` and checked: the header
/// must be the timeline columns in order, every figure a non-negative integer, `launch` at
/// least 1, each (launch, second) of a run at most once, and every row's identity that of a
/// run in the results files given — a timeline is drawn beside its run, never alone. Each
/// refusal names the file and line.
public struct TimelineFile: Sendable {
    /// One run's seconds, ordered by launch, then second.
    public struct Run: Sendable, Equatable {
        /// The identity columns' values, in `RunResult.identityColumns` order.
        public let identity: [String]
        public let seconds: [TimelineSecond]
    }

    public let path: String
    /// The runs, in the order their first rows appear.
    public let runs: [Run]

    /// The columns, as `bench run --timeline` writes them.
    public static var columns: [String] { RunResult.identityColumns + TimelineSecond.columns }

    /// Reads the timeline at `path`, accepting only runs found in `results`.
    public static func read(path: String, matching results: [ResultsFile]) throws -> TimelineFile {
        try TimelineFile(CSVTable.read(path: path), matching: results)
    }

    /// Checks a parsed table; `results` are the runs its rows must belong to.
    public init(_ table: CSVTable, matching results: [ResultsFile]) throws {
        path = table.source
        // A timeline written before the `http` column: its runs' HTTP version is unknown (empty),
        // as in its results file.
        let written = table.header.fields.contains("http") ? Self.columns : RunResult.schema3Columns.prefix(RunResult.identityColumns.count - 1) + TimelineSecond.columns
        let hasHTTP = written == Self.columns
        let expected = written
        if let index = expected.indices.first(where: { $0 >= table.header.fields.count || table.header.fields[$0] != expected[$0] }) {
            let found = index < table.header.fields.count ? InputError.quote(table.header.fields[index]) : "the end of the line"
            throw InputError(source: path, line: table.header.line,
                             "expected the timeline columns as bench run --timeline writes them; column \(index + 1) should be \(InputError.quote(expected[index])), found \(found)")
        }
        guard table.header.fields.count == expected.count else {
            throw InputError(source: path, line: table.header.line,
                             "expected \(expected.count) timeline columns, found \(table.header.fields.count)")
        }
        let known = Set(results.flatMap { $0.rows.map(\.identity) })
        let identityCount = RunResult.identityColumns.count
        var order: [[String]] = []
        var seconds: [[String]: [TimelineSecond]] = [:]
        var seen = Set<[String]>()
        for var record in table.records {
            if !hasHTTP { record.fields.insert("", at: RunResult.identityIndex("http")) }
            let identity = Array(record.fields.prefix(identityCount))
            guard known.contains(identity) else {
                let files = results.map(\.path).joined(separator: ", ")
                throw InputError(source: path, line: record.line,
                                 "expected the identity of a run in \(files), found \(InputError.quote(identity.joined(separator: ","))) in none of them")
            }
            var numbers: [Int64] = []
            for (name, cell) in zip(TimelineSecond.columns, record.fields.dropFirst(identityCount)) {
                guard let value = ResultMetric.parseScaled(Substring(cell), decimals: 0), value <= Int64(Int32.max) || name.hasSuffix("_bytes") else {
                    throw InputError(source: path, line: record.line, field: name, "expected a non-negative integer, found \(InputError.quote(cell))")
                }
                numbers.append(value)
            }
            guard numbers[0] >= 1 else {
                throw InputError(source: path, line: record.line, field: "launch", "expected a launch number from 1, found \(InputError.quote(record.fields[identityCount]))")
            }
            guard seen.insert(identity + [String(numbers[0]), String(numbers[1])]).inserted else {
                throw InputError(source: path, line: record.line, field: "second",
                                 "expected each second of a launch once, found launch \(numbers[0]) second \(numbers[1]) again")
            }
            var row = TimelineSecond(launch: Int(numbers[0]), second: Int(numbers[1]))
            (row.memoryCacheBytes, row.bitmapBytes, row.inflightBytes) = (numbers[2], numbers[3], numbers[4])
            row.stalls = Int(numbers[5])
            row.apiRequests = Int(numbers[6])
            row.imageRequests = Int(numbers[7])
            row.evictions = Int(numbers[8])
            row.memoryWarnings = Int(numbers[9])
            row.jetsamKills = Int(numbers[10])
            if seconds[identity] == nil { order.append(identity) }
            seconds[identity, default: []].append(row)
        }
        runs = order.map { identity in
            Run(identity: identity, seconds: seconds[identity]!.sorted { ($0.launch, $0.second) < ($1.launch, $1.second) })
        }
    }
}
