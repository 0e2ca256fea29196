import Foundation

/// One `bench sweep`: runs a shard of a plan and writes its rows to a results file in grid
/// order (`SweepTable`), resuming from what an interrupted sweep left there if asked.
///
/// Interrupted (`stop`), it still publishes a valid file holding every finished run; resumed
/// with the same plan, it runs only the missing ones and writes exactly the bytes an
/// uninterrupted sweep writes.
public struct SweepJob: Sendable {
    public let plan: SweepPlan
    public let shard: Shard
    public let destination: String

    public init(plan: SweepPlan, shard: Shard = .whole, destination: String) {
        self.plan = plan
        self.shard = shard
        self.destination = destination
    }

    /// What a pass did.
    public struct Summary: Sendable, Equatable {
        /// Runs of the shard.
        public var runs: Int
        /// Rows kept from the file at the destination (`--resume`).
        public var resumed: Int
        /// Runs simulated in this pass.
        public var simulated: Int
        public var outcome: SweepRunner.Outcome
    }

    /// A row already in the destination.
    struct Kept {
        var index: Int
        var identity: [String]
        var values: [Int64]
    }

    /// Runs the shard on `jobs` threads. `progress` gets (simulated so far, to simulate).
    public func run(jobs: Int, resume: Bool, stop: StopRequest? = nil,
                    progress: (Int, Int) -> Void = { _, _ in }) throws -> Summary {
        let kept = resume ? try keptRows() : []
        let done = Set(kept.map(\.index))
        let todo = shard.indices(of: plan.count).filter { !done.contains($0) }
        let writer = try SweepWriter(path: destination, grid: plan.fingerprint, total: plan.count,
                                     seedsPerConfiguration: plan.seedsPerConfiguration)
        var next = 0  // the first kept row not yet written
        func writeKept(before index: Int) throws {
            while next < kept.count, kept[next].index < index {
                try writer.add(index: kept[next].index, identity: kept[next].identity, values: kept[next].values)
                next += 1
            }
        }
        let plan = self.plan
        var simulated = 0
        progress(0, todo.count)
        let outcome = try SweepRunner.run(count: todo.count, jobs: jobs, stop: stop,
                                          configuration: { plan.configuration(at: todo[$0]) },
                                          progress: { progress($0, todo.count) }) { position, result in
            try writeKept(before: todo[position])
            try writer.add(index: todo[position], result: result)
            simulated += 1
        }
        try writeKept(before: Int.max)
        try writer.commit()
        let runs = shard.indices(of: plan.count).underestimatedCount
        return Summary(runs: runs, resumed: kept.count, simulated: simulated, outcome: outcome)
    }

    /// The run rows of the file at the destination, checked against this plan and shard; none
    /// when there is no file.
    func keptRows() throws -> [Kept] {
        guard FileManager.default.fileExists(atPath: destination) else { return [] }
        let file = try ResultsFile.read(path: destination)
        guard file.isSweep else {
            throw InputError(source: destination, line: 1, "expected a sweep results file to resume (ending with the columns sweep_run, sweep_grid), found the columns bench run writes")
        }
        var kept: [Kept] = []
        for row in file.rows where !row.isAggregate {
            let placement = row.placement!
            guard placement.grid == plan.fingerprint, placement.total == plan.count else {
                throw InputError(source: destination, line: row.line, field: "sweep_grid",
                                 "expected \(plan.fingerprint) with \(plan.count) runs (this sweep's grid), found \(placement.grid) with \(placement.total!); the file is from another sweep — drop --resume or choose another --out")
            }
            let index = placement.index!
            guard shard.contains(index) else {
                throw InputError(source: destination, line: row.line, field: "sweep_run",
                                 "expected a run of shard \(shard), found run \(index + 1)")
            }
            guard row.identity == plan.configuration(at: index).emptyResult.identity else {
                throw InputError(source: destination, line: row.line, "expected the identity of run \(index + 1) of this grid; the row was changed")
            }
            if let last = kept.last, last.index >= index {
                throw InputError(source: destination, line: row.line, field: "sweep_run",
                                 "expected runs in increasing order, found run \(index + 1) after run \(last.index + 1)")
            }
            kept.append(Kept(index: index, identity: row.identity, values: row.values))
        }
        return kept
    }
}
