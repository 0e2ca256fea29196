/// The sweep results CSV: the results columns (`RunResult.columns`, so `bench compare`,
/// `bench report` and any CSV reader take it as it is), then two columns saying where each row
/// belongs — `sweep_run`, the run's place in the grid (`17/1000`), and `sweep_grid`, the grid's
/// fingerprint (`SweepPlan.fingerprint`). `--resume` and `bench merge` rely on them.
///
/// When the grid has more than one seed, each configuration's seed rows are followed by three
/// aggregate rows whose `seed` cell is `mean`, `min` or `max` and whose `sweep_run` is empty:
/// each figure's mean (rounded half up to the column's decimals), minimum and maximum over the
/// seeds, column by column — so a `min` row is not one run's figures.
public enum SweepTable {
    public static let columns = RunResult.columns + ["sweep_run", "sweep_grid"]

    /// The `seed` cells of the aggregate rows, in the order they are written.
    public static let aggregateSeeds = ["mean", "min", "max"]

    /// The figures of a configuration's aggregate rows, in `aggregateSeeds` order: column by
    /// column, the mean (rounded half up to the column's last decimal), the minimum and the
    /// maximum of `rows` (one per seed, figures in `ResultMetric.all` order, at least one).
    /// O(rows × columns).
    public static func aggregates(_ rows: [[Int64]]) -> [[Int64]] {
        precondition(!rows.isEmpty, "SweepTable: aggregates of no row")
        var mean: [Int64] = [], low: [Int64] = [], high: [Int64] = []
        for column in rows[0].indices {
            let values = rows.map { $0[column] }.filter { $0 != ResultMetric.absent }
            let count = Int64(values.count)
            mean.append(values.isEmpty ? ResultMetric.absent : (values.reduce(0, +) + count / 2) / count)
            low.append(values.min() ?? ResultMetric.absent)
            high.append(values.max() ?? ResultMetric.absent)
        }
        return [mean, low, high]
    }

    /// Where a row belongs, as its two sweep cells say.
    public struct Placement: Sendable, Equatable {
        /// The run's place in the grid, 0-based; `nil` on an aggregate row.
        public var index: Int?
        /// Runs in the grid; `nil` on an aggregate row.
        public var total: Int?
        public var grid: String
    }

    /// One row's cells after the identity and figures.
    static func cells(_ placement: Placement) -> [String] {
        let run = placement.index.map { "\($0 + 1)/\(placement.total!)" } ?? ""
        return [run, placement.grid]
    }

    /// Parses the two sweep cells of a row whose `seed` cell is `seed`; `nil` with the column
    /// and what was expected when they are malformed.
    static func placement(run: String, grid: String, seed: String) -> Result<Placement, SweepCellError> {
        guard grid.utf8.count == 16, grid.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
            return .failure(SweepCellError(column: "sweep_grid", expected: "16 lowercase hex digits", found: grid))
        }
        if aggregateSeeds.contains(seed) {
            guard run.isEmpty else {
                return .failure(SweepCellError(column: "sweep_run", expected: "an empty cell on a \(seed) row", found: run))
            }
            return .success(Placement(index: nil, total: nil, grid: grid))
        }
        let parts = run.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let number = Int(parts[0]), let total = Int(parts[1]), number >= 1, number <= total,
              !parts[0].hasPrefix("+"), !parts[1].hasPrefix("+") else {
            return .failure(SweepCellError(column: "sweep_run", expected: "RUN/RUNS with 1 ≤ RUN ≤ RUNS (e.g. 17/1000)", found: run))
        }
        return .success(Placement(index: number - 1, total: total, grid: grid))
    }

    /// A malformed sweep cell.
    struct SweepCellError: Error {
        var column: String
        var expected: String
        var found: String
    }
}
