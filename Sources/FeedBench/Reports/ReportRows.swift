/// The rows of one or more results files, as `bench report` draws them: each run once (an
/// identity found in two files is refused), in file order, with its figures by column name.
/// A sweep's mean, min and max rows are left out: they summarise runs that are already there.
struct ReportRows {
    /// One run: its identity cells and figures (scaled as `ResultMetric.all` says).
    struct Row: Sendable {
        let identity: [String]
        let values: [Int64]

        var profile: String { identity[ReportRows.profile] }
        var policy: String { identity[ReportRows.policy] }
        var memoryLimit: String { identity[ReportRows.memoryLimit] }
        var diskLimit: String { identity[ReportRows.diskLimit] }
        var window: String { identity[ReportRows.window] }
        var trace: String { identity[ReportRows.trace] }

        /// The figure of column `name` (one of `ResultMetric.all`), scaled.
        func value(_ name: String) -> Int64 { values[ReportRows.metricIndex[name]!] }

        /// The run as `MatrixSummary` counts it.
        var summaryRun: MatrixSummary.Run {
            MatrixSummary.Run(policy: policy, memoryLimitBytes: Int64(memoryLimit) ?? 0, window: window,
                              seed: identity[ReportRows.seed], values: values, network: identity[ReportRows.network], trace: trace,
                              imageWidth: ImageWidth.pixels(inScenario: identity[ReportRows.scenario]))
        }
    }

    static let profile = column("profile"), network = column("network"), policy = column("policy")
    static let memoryLimit = column("memory_limit_bytes"), diskLimit = column("disk_limit_bytes")
    static let window = column("prefetch_window"), trace = column("trace"), seed = column("seed"), scenario = column("scenario")
    static let metricIndex = Dictionary(uniqueKeysWithValues: ResultMetric.all.enumerated().map { ($0.element.name, $0.offset) })

    static func column(_ name: String) -> Int { RunResult.identityIndex(name) }

    let rows: [Row]
    /// Each file's path, its runs, and the aggregate rows left out of it.
    let files: [(path: String, runs: Int, aggregates: Int)]

    init(_ files: [ResultsFile]) throws {
        rows = try ResultsFile.rowsOnce(files).filter { !$0.row.isAggregate }.map { Row(identity: $0.row.identity, values: $0.row.values) }
        self.files = files.map { file in
            let aggregates = file.rows.filter(\.isAggregate).count
            return (file.path, file.rows.count - aggregates, aggregates)
        }
    }

    /// `items`' distinct keys in the order they first appear.
    static func distinct<Key: Hashable>(_ keys: [Key]) -> [Key] {
        var seen = Set<Key>()
        return keys.filter { seen.insert($0).inserted }
    }

    /// Profiles in the order they first appear, each with its rows.
    var byProfile: [(profile: String, rows: [Row])] {
        Self.distinct(rows.map(\.profile)).map { name in (name, rows.filter { $0.profile == name }) }
    }
}
