/// Writes a sweep results CSV (`SweepTable`) row by row, in grid order, through an
/// `AtomicFile`: after the last seed of a configuration whose seeds are all there, it adds the
/// configuration's mean, min and max rows. Holds one configuration's figures at a time, so
/// memory does not grow with the number of runs.
public final class SweepWriter {
    let file: AtomicFile
    let grid: String
    let total: Int
    let seedsPerConfiguration: Int
    private var lastIndex = -1
    /// The configuration being filled: its first run's identity and the figures so far.
    private var group: (number: Int, identity: [String], values: [[Int64]])?
    /// Run rows written (aggregate rows not counted).
    public private(set) var rowsWritten = 0

    /// Starts the file at `path` (nothing is visible there until `commit()`).
    public init(path: String, grid: String, total: Int, seedsPerConfiguration: Int) throws {
        precondition(seedsPerConfiguration >= 1, "SweepWriter: at least one seed per configuration")
        file = try AtomicFile(path: path)
        self.grid = grid
        self.total = total
        self.seedsPerConfiguration = seedsPerConfiguration
        try file.write(SweepTable.columns.joined(separator: ",") + "\n")
    }

    /// Appends run `index`'s row. Runs must come in increasing order; gaps are allowed (a
    /// configuration with a missing seed gets no aggregate rows).
    public func add(index: Int, identity: [String], values: [Int64]) throws {
        precondition(index > lastIndex && index < total, "SweepWriter: runs must come in increasing grid order")
        lastIndex = index
        try write(identity: identity, values: values, placement: .init(index: index, total: total, grid: grid))
        rowsWritten += 1
        guard seedsPerConfiguration > 1 else { return }
        let number = index / seedsPerConfiguration
        if group?.number != number { group = (number, identity, []) }
        group!.values.append(values)
        if group!.values.count == seedsPerConfiguration {
            try writeAggregates(group!.identity, group!.values)
            group = nil
        }
    }

    /// Appends a finished run's row.
    public func add(index: Int, result: RunResult) throws {
        try add(index: index, identity: result.identity, values: result.metricValues)
    }

    /// Publishes the file.
    public func commit() throws { try file.commit() }

    private func write(identity: [String], values: [Int64], placement: SweepTable.Placement) throws {
        let cells = identity.map(CSVText.field) + zip(ResultMetric.all, values).map { $0.format($1) } + SweepTable.cells(placement)
        try file.write(cells.joined(separator: ",") + "\n")
    }

    /// Writes a configuration's mean, min and max rows (`SweepTable.aggregates`).
    private func writeAggregates(_ identity: [String], _ rows: [[Int64]]) throws {
        for (seed, figures) in zip(SweepTable.aggregateSeeds, SweepTable.aggregates(rows)) {
            var aggregate = identity
            aggregate[RunResult.identityIndex("seed")] = seed
            try write(identity: aggregate, values: figures, placement: .init(index: nil, total: nil, grid: grid))
        }
    }
}
