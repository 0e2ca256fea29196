@testable import FeedBench
import Foundation
import TestSupport
import Testing

/// A sweep's file: the same bytes whatever the number of jobs, after an interruption and a
/// resume, and from merged shards; seed aggregates that are the mean, min and max of the rows
/// above them (merging shards: `SweepMergeTests`).
@Suite(.scratchFolder) struct SweepJobTests {
    /// 2 policies × 2 windows × 3 seeds of a 10-second browser session on low-end: 12 runs.
    func plan(seeds: [String] = ["1", "2", "3"], policies: [String] = ["lru", "fifo"]) throws -> SweepPlan {
        var grid = SweepGrid()
        grid.profiles = [SweepGrid.Value("low-end", source: "test")]
        grid.policies = policies.map { SweepGrid.Value($0, source: "test") }
        grid.windows = ["0", "10"].map { SweepGrid.Value($0, source: "test") }
        grid.behaviors = [SweepGrid.Value("browser", source: "test")]
        grid.seeds = seeds.map { SweepGrid.Value($0, source: "test") }
        grid.session.duration = 10_000_000_000
        return try SweepPlan(grid)
    }

    func sweep(_ plan: SweepPlan, jobs: Int, shard: Shard = .whole, resume: Bool = false, stop: StopRequest? = nil,
               to path: String, progress: (Int, Int) -> Void = { _, _ in }) throws -> SweepJob.Summary {
        try SweepJob(plan: plan, shard: shard, destination: path).run(jobs: jobs, resume: resume, stop: stop, progress: progress)
    }

    func read(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    @Test func theFileIsTheSameWhateverTheJobs() throws {
        let folder = try SharedFiles.scratchDirectory()
        let plan = try plan()
        let one = folder.appendingPathComponent("one.csv").path, three = folder.appendingPathComponent("three.csv").path
        #expect(try sweep(plan, jobs: 1, to: one).outcome == .finished)
        #expect(try sweep(plan, jobs: 3, to: three).outcome == .finished)
        #expect(try read(one) == read(three))
        let file = try ResultsFile.read(path: one)
        #expect(file.isSweep && file.rows.count == 12 + 4 * 3)
        #expect(file.rows.filter { !$0.isAggregate }.map { $0.placement!.index! } == Array(0..<12))
    }

    @Test func aggregatesAreTheMeanMinAndMaxOfTheirSeeds() throws {
        let path = try SharedFiles.scratchDirectory().appendingPathComponent("a.csv").path
        _ = try sweep(plan(), jobs: 2, to: path)
        let rows = try ResultsFile.read(path: path).rows
        for start in stride(from: 0, to: rows.count, by: 6) {
            let seeds = rows[start..<start + 3], aggregates = rows[start + 3..<start + 6]
            let seed = RunResult.identityIndex("seed")
            #expect(seeds.map { $0.identity[seed] } == ["1", "2", "3"])
            #expect(aggregates.map { $0.identity[seed] } == ["mean", "min", "max"])
            #expect(aggregates.allSatisfy { $0.placement?.index == nil && Array($0.identity.prefix(7)) == Array(seeds.first!.identity.prefix(7)) })
            for column in ResultMetric.all.indices {
                let values = seeds.map { $0.values[column] }
                let (mean, low, high) = (aggregates[start + 3].values[column], aggregates[start + 4].values[column], aggregates[start + 5].values[column])
                #expect(low == values.min()! && high == values.max()!)
                #expect(mean == (values.reduce(0, +) + 1) / 3)
            }
        }
    }

    @Test func oneSeedHasNoAggregates() throws {
        let path = try SharedFiles.scratchDirectory().appendingPathComponent("a.csv").path
        _ = try sweep(plan(seeds: ["7"]), jobs: 2, to: path)
        #expect(try ResultsFile.read(path: path).rows.allSatisfy { !$0.isAggregate })
    }

    @Test func anInterruptedSweepLeavesTheFinishedRunsAndResumesToTheSameBytes() throws {
        let folder = try SharedFiles.scratchDirectory()
        // 32 runs: after the 5th is delivered at most 5 + 4 × 2 + 16 = 29 can have started,
        // so the stop always leaves some undone, however fast the runs are.
        let plan = try plan(seeds: (1...8).map(String.init))
        #expect(plan.count == 32)
        let whole = folder.appendingPathComponent("whole.csv").path, cut = folder.appendingPathComponent("cut.csv").path
        _ = try sweep(plan, jobs: 2, to: whole)
        let stop = StopRequest()
        let first = try sweep(plan, jobs: 2, stop: stop, to: cut) { done, _ in if done == 5 { stop.stop() } }
        #expect(first.outcome == .stopped)
        let partial = try ResultsFile.read(path: cut).rows.filter { !$0.isAggregate }
        #expect(partial.count >= 5 && partial.count < 30)
        #expect(partial.map(\.identity) == partial.map { plan.configuration(at: $0.placement!.index!).emptyResult.identity })
        let second = try sweep(plan, jobs: 2, resume: true, to: cut)
        #expect(second.outcome == .finished && second.resumed == partial.count && second.simulated == 32 - partial.count)
        #expect(try read(cut) == read(whole))
        // Resuming a finished sweep runs nothing and changes nothing.
        #expect(try sweep(plan, jobs: 2, resume: true, to: cut).simulated == 0)
        #expect(try read(cut) == read(whole))
    }

    @Test func resumeRefusesAnotherGridsFile() throws {
        let path = try SharedFiles.scratchDirectory().appendingPathComponent("a.csv").path
        _ = try sweep(plan(), jobs: 2, to: path)
        #expect {
            try sweep(plan(policies: ["lru", "lfu"]), jobs: 2, resume: true, to: path)
        } throws: { error in
            "\(error)".hasPrefix("\(path):2: sweep_grid: expected ") && "\(error)".contains("the file is from another sweep")
        }
    }

    @Test(arguments: ["3/2", "0/2", "1/0", "a/b", "2", "+1/2"])
    func malformedShardsAreRefused(text: String) {
        #expect(throws: InputError.self) { try Shard.parse(text, source: "--shard") }
    }
}
