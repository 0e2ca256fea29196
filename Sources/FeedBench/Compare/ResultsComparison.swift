/// Results rows joined on their identity and compared metric by metric: the engine of
/// `bench compare` and `bench check`.
///
/// Two files (`files(base:new:rules:)`) pair rows whose identity columns are equal. One
/// file split by a column (`within(_:by:base:rules:)`, e.g. `--by policy --base lru`) pairs
/// each row whose column holds another value with the base-value row equal in every other
/// identity column, one group per value. Rows without a partner are kept as one-sided. Every
/// list keeps file order, so reports are deterministic.
public struct ResultsComparison: Sendable {
    /// What happened to one metric of one row, or to a whole row (its worst metric).
    /// Ordered from the least to the most notable.
    public enum Verdict: Int, Sendable, Comparable {
        case unchanged
        /// Moved, by no more than the tolerance.
        case withinTolerance
        /// An informational metric moved beyond its tolerance (if any).
        case changed
        case better
        case worse

        public static func < (a: Verdict, b: Verdict) -> Bool { a.rawValue < b.rawValue }
    }

    /// One metric of a pair of rows.
    public struct MetricChange: Sendable, Equatable {
        public let metric: ResultMetric
        public let tolerance: Tolerance?
        /// Scaled values (see `ResultMetric.Kind.decimals`), `ResultMetric.absent` for an empty cell.
        public let base: Int64
        public let new: Int64
        public let verdict: Verdict

        /// Whether both sides have a value, so that `delta` means something.
        public var hasBothValues: Bool { base != ResultMetric.absent && new != ResultMetric.absent }
        public var delta: Int64 { new - base }
    }

    /// A base row, its partner, and every compared metric.
    public struct RowComparison: Sendable {
        public let base: ResultsFile.Row
        public let new: ResultsFile.Row
        /// One per `rules.metrics`, in that order.
        public let changes: [MetricChange]

        /// The most notable of the metrics' verdicts.
        public var verdict: Verdict { changes.map(\.verdict).max() ?? .unchanged }
    }

    /// The pairs and one-sided rows of one comparison: the only group when comparing two
    /// files, one per other value of the `--by` column.
    public struct Group: Sendable {
        /// `column=value` of the rows compared against the base value; `nil` for two files.
        public let name: String?
        /// What the two sides are called in reports: `base` and `new`, or `column=value` each.
        public let sides: (base: String, new: String)
        public let rows: [RowComparison]
        public let onlyInBase: [ResultsFile.Row]
        public let onlyInNew: [ResultsFile.Row]

        /// How many row pairs have `verdict`.
        public func count(_ verdict: Verdict) -> Int { rows.count(where: { $0.verdict == verdict }) }
    }

    /// The base side: a path, or `column=value in path`.
    public let baseName: String
    /// The new side: a path, or `each other column in path`.
    public let newName: String
    public let rules: ComparisonRules
    public let groups: [Group]
    /// Identity columns (beyond a `--by` column) with one value in every row involved, with
    /// that value, in schema order.
    public let sharedIdentity: [(column: String, value: String)]
    /// Indices of the identity columns that tell the rows apart, in schema order.
    let labelColumns: [Int]

    /// The workloads (`bench calibrate` fits, by their `workload=…` tag in `scenario`; `built-in`
    /// for none) of a file's rows, sorted. O(rows).
    public static func workloads(of file: ResultsFile) -> [String] {
        let column = RunResult.identityIndex("scenario")
        let tags = file.rows.map { row in
            row.identity[column].split(separator: ";").first { $0.hasPrefix("workload=") }.map(String.init) ?? "built-in"
        }
        return Set(tags).sorted()
    }

    /// Refuses to compare files whose runs simulated different workloads: their rows never
    /// share an identity, and the reason should not be left to the reader.
    public static func checkSameWorkloads(base: ResultsFile, new: ResultsFile) throws {
        let (mine, theirs) = (workloads(of: base), workloads(of: new))
        guard mine == theirs else {
            throw InputError(source: new.path, "expected runs of the workload of \(base.path) (\(mine.joined(separator: ", "))), found \(theirs.joined(separator: ", ")); compare runs of one workload (run both with the same --workload file, or neither)")
        }
    }

    /// Compares two files' rows with equal identities — but for the HTTP version when either
    /// file was written before the `http` column (`ResultsFile.hasHTTPColumn`).
    public static func files(base: ResultsFile, new: ResultsFile, rules: ComparisonRules) -> ResultsComparison {
        let http = RunResult.identityIndex("http")
        let keys = RunResult.identityColumns.indices.filter { $0 != http || (base.hasHTTPColumn && new.hasHTTPColumn) }
        let group = pair(base.rows, new.rows, name: nil, sides: ("base", "new"), keys: keys, rules: rules)
        return ResultsComparison(baseName: base.path, newName: new.path, rules: rules, groups: [group],
                                 rows: base.rows + new.rows, keys: keys)
    }

    /// Compares, inside one file, every row whose `column` holds another value than `value`
    /// with the row holding `value` and equal in every other identity column. Throws
    /// `InputError` when `column` is not an identity column or `value` is in no row.
    public static func within(_ file: ResultsFile, by column: String, base value: String, rules: ComparisonRules) throws -> ResultsComparison {
        guard let split = RunResult.identityColumns.firstIndex(of: column) else {
            throw InputError(source: "--by", "expected an identity column (\(RunResult.identityColumns.joined(separator: ", "))), found \(InputError.quote(column))")
        }
        var values: [String] = []
        for row in file.rows where !values.contains(row.identity[split]) { values.append(row.identity[split]) }
        guard values.contains(value) else {
            let found = values.isEmpty ? "the file has no rows" : "its values are \(values.joined(separator: ", "))"
            throw InputError(source: "--base", "expected a \(column) of a row in \(file.path), found \(InputError.quote(value)); \(found)")
        }
        guard values.count > 1 else {
            throw InputError(source: "--by", "expected rows with more than one \(column) in \(file.path), found only \(InputError.quote(value))")
        }
        let keys = RunResult.identityColumns.indices.filter { $0 != split }
        let baseRows = file.rows.filter { $0.identity[split] == value }
        let groups = values.filter { $0 != value }.map { other in
            pair(baseRows, file.rows.filter { $0.identity[split] == other }, name: "\(column)=\(other)",
                 sides: ("\(column)=\(value)", "\(column)=\(other)"), keys: keys, rules: rules)
        }
        return ResultsComparison(baseName: "\(column)=\(value) in \(file.path)", newName: "each other \(column) in \(file.path)", rules: rules,
                                 groups: groups, rows: file.rows, keys: keys)
    }

    init(baseName: String, newName: String, rules: ComparisonRules, groups: [Group], rows: [ResultsFile.Row], keys: [Int]) {
        self.baseName = baseName
        self.newName = newName
        self.rules = rules
        self.groups = groups
        let varying = keys.filter { key in rows.contains { $0.identity[key] != rows[0].identity[key] } }
        labelColumns = varying
        sharedIdentity = rows.isEmpty ? [] : keys.filter { !varying.contains($0) }.map { (RunResult.identityColumns[$0], rows[0].identity[$0]) }
    }

    /// Pairs `base` and `new` rows equal in the `keys` identity columns.
    static func pair(_ base: [ResultsFile.Row], _ new: [ResultsFile.Row], name: String?, sides: (base: String, new: String),
                     keys: [Int], rules: ComparisonRules) -> Group {
        func key(_ row: ResultsFile.Row) -> [String] { keys.map { row.identity[$0] } }
        var newIndex: [[String]: Int] = [:]
        for (index, row) in new.enumerated() { newIndex[key(row)] = index }
        var matched = [Bool](repeating: false, count: new.count)
        var rows: [RowComparison] = []
        var onlyInBase: [ResultsFile.Row] = []
        for row in base {
            guard let index = newIndex[key(row)] else {
                onlyInBase.append(row)
                continue
            }
            matched[index] = true
            rows.append(compare(row, new[index], rules: rules))
        }
        let onlyInNew = new.indices.filter { !matched[$0] }.map { new[$0] }
        return Group(name: name, sides: sides, rows: rows, onlyInBase: onlyInBase, onlyInNew: onlyInNew)
    }

    /// Every metric of `rules` for one pair of rows.
    static func compare(_ base: ResultsFile.Row, _ new: ResultsFile.Row, rules: ComparisonRules) -> RowComparison {
        let changes = zip(rules.metrics, rules.tolerances).map { metric, tolerance in
            let column = ResultMetric.all.firstIndex(of: metric)!
            let (a, b) = (base.values[column], new.values[column])
            let verdict: Verdict
            if a == b {
                verdict = .unchanged
            } else if a == ResultMetric.absent || b == ResultMetric.absent {
                // A figure only one side has (no image ever shown): nothing to be within
                // tolerance of; losing it is worse for a figure where lower is better.
                switch metric.direction {
                case .informational, .higherIsBetter: verdict = .changed
                case .lowerIsBetter: verdict = b == ResultMetric.absent ? .worse : .better
                }
            } else if let tolerance, tolerance.allows(base: a, new: b) {
                verdict = .withinTolerance
            } else {
                switch metric.direction {
                case .informational: verdict = .changed
                case .higherIsBetter: verdict = b > a ? .better : .worse
                case .lowerIsBetter: verdict = b < a ? .better : .worse
                }
            }
            return MetricChange(metric: metric, tolerance: tolerance, base: a, new: b, verdict: verdict)
        }
        return RowComparison(base: base, new: new, changes: changes)
    }

    /// Whether a metric with this verdict fails the comparison under `rules`.
    public func fails(_ verdict: Verdict) -> Bool {
        switch rules.failure {
        case .regressions: verdict == .worse
        case .anyDifference: verdict >= .changed
        }
    }

    /// Whether the comparison fails: a regression beyond tolerance (`bench compare`), or any
    /// difference beyond tolerance or a one-sided row (`bench check`).
    public var fails: Bool {
        groups.contains { group in
            group.rows.contains { fails($0.verdict) }
                || (rules.failure == .anyDifference && !(group.onlyInBase.isEmpty && group.onlyInNew.isEmpty))
        }
    }

    /// Whether nothing moved at all: every pair unchanged and no one-sided rows.
    public var isUnchanged: Bool {
        groups.allSatisfy { group in
            group.onlyInBase.isEmpty && group.onlyInNew.isEmpty && group.rows.allSatisfy { $0.verdict == .unchanged }
        }
    }

    /// A row's name in reports: `column=value` for each identity column that tells rows apart.
    public func label(_ row: ResultsFile.Row) -> String {
        guard !labelColumns.isEmpty else { return "the only row" }
        return labelColumns.map { "\(RunResult.identityColumns[$0])=\(row.identity[$0])" }.joined(separator: " ")
    }
}
