/// `bench merge`: joins the files of a sharded sweep into the file one machine would have
/// written — same rows, same order, the seed aggregates recomputed — after checking that they
/// come from one grid, that no run is in two files and that no run is missing.
public enum SweepMerge {
    /// Merges `files` (already read) into `destination`; returns the runs written.
    @discardableResult
    public static func merge(_ files: [ResultsFile], into destination: String) throws -> Int {
        guard let first = files.first else { throw InputError(source: "merge", "expected at least one sweep results file") }
        var grid: (fingerprint: String, total: Int, source: String)?
        var rows: [ResultsFile.Row?] = []
        var origin: [String?] = []
        for file in files {
            guard file.isSweep else {
                throw InputError(source: file.path, line: 1, "expected a sweep results file (ending with the columns sweep_run, sweep_grid), found the columns bench run writes")
            }
            for row in file.rows where !row.isAggregate {
                let placement = row.placement!
                if let grid {
                    guard placement.grid == grid.fingerprint, placement.total == grid.total else {
                        throw InputError(source: file.path, line: row.line, field: "sweep_grid",
                                         "expected \(grid.fingerprint) with \(grid.total) runs, the grid of \(grid.source), found \(placement.grid) with \(placement.total!): these files come from different sweeps")
                    }
                } else {
                    grid = (placement.grid, placement.total!, file.path)
                    rows = Array(repeating: nil, count: placement.total!)
                    origin = Array(repeating: nil, count: placement.total!)
                }
                let index = placement.index!
                if let earlier = rows[index] {
                    throw InputError(source: file.path, line: row.line, field: "sweep_run",
                                     "expected each run once, found run \(index + 1) again (also \(origin[index]!):\(earlier.line))")
                }
                rows[index] = row
                origin[index] = file.path
            }
        }
        guard let grid else { throw InputError(source: first.path, "expected rows of a sweep, found none") }
        let missing = rows.indices.filter { rows[$0] == nil }
        if !missing.isEmpty {
            let listed = missing.prefix(5).map { String($0 + 1) }.joined(separator: ", ") + (missing.count > 5 ? ", …" : "")
            throw InputError(source: "merge", "expected every run of grid \(grid.fingerprint) (\(grid.total) runs), found \(missing.count) missing: runs \(listed); add the missing shard files")
        }
        let complete = rows.map { $0! }
        let writer = try SweepWriter(path: destination, grid: grid.fingerprint, total: grid.total,
                                     seedsPerConfiguration: seedsPerConfiguration(complete))
        for (index, row) in complete.enumerated() {
            try writer.add(index: index, identity: row.identity, values: row.values)
        }
        try writer.commit()
        return complete.count
    }

    /// Seeds are the grid's innermost axis: the runs of the first configuration are the leading
    /// rows equal in every identity column but `seed`.
    static func seedsPerConfiguration(_ rows: [ResultsFile.Row]) -> Int {
        func configuration(_ row: ResultsFile.Row) -> [String] {
            var identity = row.identity
            identity.remove(at: 7)
            return identity
        }
        let first = configuration(rows[0])
        var count = 1
        while count < rows.count, configuration(rows[count]) == first { count += 1 }
        return count
    }
}
