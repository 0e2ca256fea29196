@testable import FeedBench
import Foundation
import TestSupport
import Testing

/// `bench merge`: the shards of any split, in any order, give back the single-machine file
/// byte for byte; each way a set of files can fail to be one whole split is refused naming the
/// file, and nothing is written.
@Suite(.scratchFolder) struct SweepMergeTests {
    /// 2 policies × 2 windows × 3 seeds of a 10-second browser session on low-end: 12 runs.
    func plan(seeds: [String] = ["1", "2", "3"]) throws -> SweepPlan {
        var grid = SweepGrid()
        grid.profiles = [SweepGrid.Value("low-end", source: "test")]
        grid.policies = ["lru", "fifo"].map { SweepGrid.Value($0, source: "test") }
        grid.windows = ["0", "10"].map { SweepGrid.Value($0, source: "test") }
        grid.behaviors = [SweepGrid.Value("browser", source: "test")]
        grid.seeds = seeds.map { SweepGrid.Value($0, source: "test") }
        grid.session.duration = 10_000_000_000
        return try SweepPlan(grid)
    }

    /// `items` in a seeded random order (Fisher–Yates).
    func shuffled<T>(_ items: [T], _ generator: inout SeededGenerator) -> [T] {
        var items = items
        for index in stride(from: items.count - 1, to: 0, by: -1) {
            items.swapAt(index, Int(generator.next(below: UInt64(index + 1))))
        }
        return items
    }

    func read(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    /// The whole sweep and its shards K/N for every K, as `bench sweep --shard` writes them.
    func sweep(shards count: Int, in folder: URL, plan: SweepPlan? = nil, name: String = "shard") throws -> (whole: String, shards: [String]) {
        let plan = try plan ?? self.plan()
        let whole = folder.appendingPathComponent("whole.csv").path
        if !FileManager.default.fileExists(atPath: whole) {
            _ = try SweepJob(plan: plan, destination: whole).run(jobs: 2, resume: false)
        }
        let shards = try (1...count).map { k in
            let path = folder.appendingPathComponent("\(name)-\(k)-of-\(count).csv").path
            _ = try SweepJob(plan: plan, shard: Shard.parse("\(k)/\(count)", source: "test"), destination: path).run(jobs: 1, resume: false)
            return path
        }
        return (whole, shards)
    }

    /// Expects `merge` to refuse `paths` with a message containing every one of `parts`, and
    /// to leave nothing at the destination.
    func expectRefused(_ paths: [String], in folder: URL, _ parts: String..., sourceLocation: SourceLocation = #_sourceLocation) {
        let out = folder.appendingPathComponent("refused.csv").path
        #expect(sourceLocation: sourceLocation) { try SweepMerge.merge(paths: paths, into: out) } throws: { error in
            let text = "\(error)"
            let missing = parts.filter { !text.contains($0) }
            if !missing.isEmpty { Issue.record("\(text) lacks \(missing)", sourceLocation: sourceLocation) }
            return error is InputError && missing.isEmpty
        }
        #expect(!FileManager.default.fileExists(atPath: out), sourceLocation: sourceLocation)
    }

    @Test(arguments: [1, 3, 5, 12, 16])
    func theShardsOfAnySplitMergeIntoTheSingleMachineFile(count: Int) throws {
        let folder = try SharedFiles.scratchDirectory().appendingPathComponent("split-\(count)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let (whole, shards) = try sweep(shards: count, in: folder)
        let merged = folder.appendingPathComponent("merged.csv").path
        var generator = SeededGenerator(seed: UInt64(count))
        #expect(try SweepMerge.merge(paths: shuffled(shards, &generator), into: merged) == 12)
        #expect(try read(merged) == read(whole))
    }

    /// Shards cut from the whole file's run rows by the round-robin rule, for many splits and
    /// orders: the merge is the whole file each time.
    @Test func randomSplitsInRandomOrdersMergeBack() throws {
        let folder = try SharedFiles.scratchDirectory()
        let (whole, _) = try sweep(shards: 1, in: folder)
        let lines = try read(whole).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        let seed = RunResult.identityIndex("seed")
        let header = lines.first!, runs = lines.dropFirst().filter { row in
            !SweepTable.aggregateSeeds.contains(String(row.split(separator: ",", omittingEmptySubsequences: false)[seed]))
        }
        #expect(runs.count == 12)
        for seed in UInt64(1)...20 {
            var generator = SeededGenerator(seed: seed)
            let count = Int(generator.next(below: 14)) + 1
            let paths = (0..<count).map { k in
                let path = folder.appendingPathComponent("cut-\(seed)-\(k).csv").path
                let rows = runs.indices.filter { $0 % count == k }.map { runs[$0] }
                _ = FileManager.default.createFile(atPath: path, contents: Data(([header] + rows).map { $0 + "\n" }.joined().utf8))
                return path
            }
            let merged = folder.appendingPathComponent("merged-\(seed).csv").path
            #expect(try SweepMerge.merge(paths: shuffled(paths, &generator), into: merged) == 12, "seed \(seed), \(count) shards")
            #expect(try read(merged) == read(whole), "seed \(seed), \(count) shards")
        }
    }

    @Test func aMissingShardIsNamedWithItsRuns() throws {
        let folder = try SharedFiles.scratchDirectory()
        let (_, shards) = try sweep(shards: 3, in: folder)
        expectRefused([shards[0], shards[2]], in: folder,
                      "merge: expected every shard of grid ", "(12 runs in 3 shards), found 1 missing: 2/3 (shard 2/3 holds runs 2, 5, 8, …); add the missing shard files")
    }

    @Test func theSameShardTwiceIsRefusedNamingBothFiles() throws {
        let folder = try SharedFiles.scratchDirectory()
        let (_, shards) = try sweep(shards: 3, in: folder)
        let copy = folder.appendingPathComponent("copy.csv").path
        try FileManager.default.copyItem(atPath: shards[1], toPath: copy)
        expectRefused(shards + [copy], in: folder, "\(copy): expected each shard once, found shard 2/3 again (also \(shards[1]))")
    }

    @Test func shardsOfAnotherGridOrSplitAreRefused() throws {
        let folder = try SharedFiles.scratchDirectory()
        let (_, shards) = try sweep(shards: 3, in: folder)
        let plan = try plan()
        let otherFolder = folder.appendingPathComponent("other")
        try FileManager.default.createDirectory(at: otherFolder, withIntermediateDirectories: true)
        let (_, others) = try sweep(shards: 3, in: otherFolder, plan: self.plan(seeds: ["4", "5", "6"]))
        expectRefused([shards[0], shards[1], others[2]], in: folder,
                      "\(others[2]):2: sweep_grid: expected \(plan.fingerprint) with 12 runs, the grid of \(shards[0]), found ",
                      "these files come from different sweeps (or bench versions)")
        let (_, quarters) = try sweep(shards: 4, in: folder)
        expectRefused([shards[0], shards[1], quarters[2]], in: folder,
                      "\(quarters[2]): sweep_run: expected runs 3 apart, as in \(shards[0]) (shards of 3), found runs 4 apart (shards of 4): these files come from different splits of the grid")
    }

    @Test func anInterruptedShardIsRefusedWithWhatItHolds() throws {
        let folder = try SharedFiles.scratchDirectory()
        let (_, shards) = try sweep(shards: 3, in: folder)
        // An interrupted sweep publishes the runs it finished, in order: cut the last two.
        let lines = try read(shards[1]).split(separator: "\n").dropLast(2)
        try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: shards[1]))
        expectRefused(shards, in: folder,
                      "\(shards[1]): expected shard 2/3's 4 runs, found the end of the file after 2: its sweep was interrupted (the same bench sweep with --resume finishes it)")
    }

    @Test func aFileCutOffMidRowIsRefused() throws {
        let folder = try SharedFiles.scratchDirectory()
        let (_, shards) = try sweep(shards: 3, in: folder)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: shards[2]))
        try bytes.prefix(bytes.count - 40).write(to: URL(fileURLWithPath: shards[2]))
        expectRefused(shards, in: folder, "\(shards[2]):5: expected a line end after the last row, found the file ending mid-row: it was cut off while it was written")
    }

    @Test func aRunOutOfItsShardsOrderIsRefused() throws {
        let folder = try SharedFiles.scratchDirectory()
        let (_, shards) = try sweep(shards: 3, in: folder)
        var lines = try read(shards[0]).split(separator: "\n")
        lines.swapAt(3, 4)
        try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: shards[0]))
        expectRefused(shards, in: folder, "\(shards[0]):4: sweep_run: expected run 7, shard 1/3's next, found run 10")
    }

    @Test func aFileThatIsNotASweepsIsRefused() throws {
        let folder = try SharedFiles.scratchDirectory()
        let (whole, _) = try sweep(shards: 1, in: folder)
        let runFile = folder.appendingPathComponent("run.csv").path
        let lines = try read(whole).split(separator: "\n")
        let columns = RunResult.columns.count
        func runColumns(_ line: Substring) -> String { line.split(separator: ",", omittingEmptySubsequences: false).prefix(columns).joined(separator: ",") }
        try Data((runColumns(lines[0]) + "\n" + runColumns(lines[1]) + "\n").utf8).write(to: URL(fileURLWithPath: runFile))
        expectRefused([whole, runFile], in: folder, "\(runFile):1: expected a sweep results file")
        let empty = folder.appendingPathComponent("empty.csv").path
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        expectRefused([empty], in: folder, "\(empty):1: expected a header line, found an empty file")
    }
}
