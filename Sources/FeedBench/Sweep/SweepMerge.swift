/// `bench merge`: joins the files of a sharded sweep into the file one machine would have
/// written — same rows, same order, the seed aggregates recomputed — streaming: each file is
/// read a row at a time, so a thousand shards of a million runs merge in a few megabytes.
///
/// Every file must be one shard `K/N` of one split (`Shard`: runs `K, K+N, K+2N, …`) of one
/// grid, or the whole grid. Before anything is written, it works out each file's shard from its
/// first two runs and refuses, naming the file: a file that is not a sweep's, files of different
/// grids or bench versions (`sweep_grid`), files of different splits, the same shard twice, and
/// a missing shard. While merging it refuses a shard that stops early (an interrupted sweep), a
/// run out of its shard's order and a file cut off mid-row. Nothing is left at the destination
/// when it refuses.
public enum SweepMerge {
    /// One file's run rows (aggregate rows skipped), pulled one at a time.
    final class ShardFile {
        let stream: CSVRecordStream
        var path: String { stream.source }
        /// The next run rows, read ahead to work out the shard.
        private var ahead: [ResultsFile.Row] = []
        /// Runs taken so far.
        private(set) var taken = 0

        init(path: String) throws {
            stream = try CSVRecordStream(path: path, finalLineEndRequired: true)
            let schema = try ResultsFile.checkHeader(stream.header, source: path)
            guard schema == RunResult.columns else {
                throw InputError(source: path, line: 1, "expected the sweep columns this bench writes, found an older results schema's (without \(ResultMetric.addedInSchema5.joined(separator: ", "))): merge shards of one bench, re-running these")
            }
            guard stream.header.fields == SweepTable.columns else {
                throw InputError(source: path, line: 1, "expected a sweep results file (ending with the columns sweep_run, sweep_grid), found the columns bench run writes")
            }
            while ahead.count < 2, let row = try read() { ahead.append(row) }
        }

        /// The first and second runs, when there are.
        var first: ResultsFile.Row? { ahead.first }
        var second: ResultsFile.Row? { ahead.count > 1 ? ahead[1] : nil }

        /// The next run row, or `nil` at the end of the file.
        func take() throws -> ResultsFile.Row? {
            let row = ahead.isEmpty ? try read() : ahead.removeFirst()
            if row != nil { taken += 1 }
            return row
        }

        private func read() throws -> ResultsFile.Row? {
            while let record = try stream.next() {
                let row = try ResultsFile.row(record, isSweep: true, source: path)
                if !row.isAggregate { return row }
            }
            return nil
        }
    }

    /// Merges the sweep files at `paths` into `destination`; returns the runs written.
    /// Memory: O(files × buffer), whatever the number of runs.
    @discardableResult
    public static func merge(paths: [String], into destination: String) throws -> Int {
        guard !paths.isEmpty else { throw InputError(source: "merge", "expected at least one sweep results file") }
        let files = try paths.map(ShardFile.init(path:))
        let layout = try Layout(files)
        let writer = MergeWriter(destination: destination, grid: layout.grid, total: layout.total)
        for index in 0..<layout.total {
            let file = files[layout.fileOfShard[index % layout.count]]
            let shard = Shard(index: index % layout.count, count: layout.count)
            guard let row = try file.take() else {
                let runs = shard.indices(of: layout.total).underestimatedCount
                throw InputError(source: file.path, "expected shard \(shard)'s \(runs) runs, found the end of the file after \(file.taken): its sweep was interrupted (the same bench sweep with --resume finishes it) or the file is incomplete")
            }
            try layout.check(row, in: file)
            guard row.placement!.index == index else {
                throw InputError(source: file.path, line: row.line, field: "sweep_run",
                                 "expected run \(index + 1), shard \(shard)'s next, found run \(row.placement!.index! + 1)")
            }
            try writer.add(index: index, row: row)
        }
        for file in files {
            if let extra = try file.take() {
                throw InputError(source: file.path, line: extra.line, field: "sweep_run",
                                 "expected the end of the shard after its \(file.taken - 1) runs, found run \(extra.placement!.index! + 1)")
            }
        }
        try writer.commit()
        return layout.total
    }

    /// The grid and the split the files come from, and which file is which shard.
    struct Layout {
        var grid: String
        var total: Int
        /// N: the number of shards (the stride between a file's runs).
        var count = 0
        /// The file (index in the list) of each shard.
        var fileOfShard: [Int] = []
        /// Where the grid was first read, for messages.
        var gridSource: String

        init(_ files: [ShardFile]) throws {
            guard let model = files.first(where: { $0.first != nil }), let first = model.first else {
                throw InputError(source: files[0].path, "expected rows of a sweep, found none")
            }
            grid = first.placement!.grid
            total = first.placement!.total!
            gridSource = model.path
            for file in files {
                for row in [file.first, file.second].compactMap({ $0 }) { try check(row, in: file) }
            }
            // The split: every file with two runs or more shows its stride; with none, each
            // file holds at most one run and the runs themselves are the shards.
            let strides = files.compactMap { file in file.second.map { (file.path, $0.placement!.index! - file.first!.placement!.index!) } }
            count = strides.first?.1 ?? total
            if let other = strides.first(where: { $0.1 != count }) {
                throw InputError(source: other.0, field: "sweep_run",
                                 "expected runs \(count) apart, as in \(strides[0].0) (shards of \(count)), found runs \(other.1) apart (shards of \(other.1)): these files come from different splits of the grid")
            }
            fileOfShard = Array(repeating: -1, count: count)
            for (number, file) in files.enumerated() {
                guard let index = file.first?.placement?.index else { continue }
                let shard = Shard(index: index % count, count: count)
                guard index < count else {
                    throw InputError(source: file.path, line: file.first!.line, field: "sweep_run",
                                     "expected shard \(shard) to start at run \(shard.index + 1), found run \(index + 1) first")
                }
                if fileOfShard[shard.index] >= 0 {
                    throw InputError(source: file.path, "expected each shard once, found shard \(shard) again (also \(files[fileOfShard[shard.index]].path))")
                }
                fileOfShard[shard.index] = number
            }
            if let missing = fileOfShard.firstIndex(of: -1) {
                let absent = fileOfShard.indices.filter { [fileOfShard] in fileOfShard[$0] < 0 }
                let listed = absent.prefix(5).map { "\($0 + 1)/\(count)" }.joined(separator: ", ") + (absent.count > 5 ? ", …" : "")
                let shard = Shard(index: missing, count: count)
                let runs = shard.indices(of: total).prefix(3).map { String($0 + 1) }.joined(separator: ", ")
                throw InputError(source: "merge", "expected every shard of grid \(grid) (\(total) runs in \(count) shards), found \(absent.count) missing: \(listed) (shard \(shard) holds runs \(runs), …); add the missing shard files")
            }
        }

        /// Refuses a row of another grid (or another bench version's).
        func check(_ row: ResultsFile.Row, in file: ShardFile) throws {
            let placement = row.placement!
            guard placement.grid == grid, placement.total == total else {
                throw InputError(source: file.path, line: row.line, field: "sweep_grid",
                                 "expected \(grid) with \(total) runs, the grid of \(gridSource), found \(placement.grid) with \(placement.total!): these files come from different sweeps (or bench versions)")
            }
        }
    }

    /// The merged file, started once the first configuration's seeds are known: seeds are the
    /// grid's innermost axis, so the first configuration's runs are the leading rows equal in
    /// every identity column but `seed`.
    final class MergeWriter {
        let destination: String
        let grid: String
        let total: Int
        private var writer: SweepWriter?
        private var pending: [(index: Int, row: ResultsFile.Row)] = []

        init(destination: String, grid: String, total: Int) {
            self.destination = destination
            self.grid = grid
            self.total = total
        }

        func add(index: Int, row: ResultsFile.Row) throws {
            if let writer { return try writer.add(index: index, identity: row.identity, values: row.values) }
            if let first = pending.first, Self.configuration(first.row) != Self.configuration(row) {
                try start(seeds: pending.count)
                return try add(index: index, row: row)
            }
            pending.append((index, row))
        }

        func commit() throws {
            if writer == nil { try start(seeds: pending.count) }
            try writer!.commit()
        }

        private func start(seeds: Int) throws {
            let writer = try SweepWriter(path: destination, grid: grid, total: total, seedsPerConfiguration: seeds)
            for (index, row) in pending { try writer.add(index: index, identity: row.identity, values: row.values) }
            pending = []
            self.writer = writer
        }

        static func configuration(_ row: ResultsFile.Row) -> [String] {
            var identity = row.identity
            identity.remove(at: RunResult.identityIndex("seed"))
            return identity
        }
    }
}
