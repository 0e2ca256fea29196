@testable import FeedBench
import Testing

/// The runner delivers every run once, in order, whatever the number of threads, and stops
/// starting runs when asked.
@Suite struct SweepRunnerTests {
    let runs = try! StandardMatrix.plan(profile: .lowEnd, windows: [.items(PrefetchWindow(ahead: 0))],
                                                  workloads: [.behavior(.browser, duration: 5_000_000_000)]).configurations

    @Test(arguments: [1, 2, 5])
    func everyRunIsDeliveredOnceInOrder(jobs: Int) throws {
        var positions: [Int] = []
        var rows: [String] = []
        let outcome = try SweepRunner.run(count: runs.count, jobs: jobs, configuration: { runs[$0] }) { position, result in
            positions.append(position)
            rows.append(result.csvRow)
        }
        #expect(outcome == .finished)
        #expect(positions == Array(runs.indices))
        #expect(rows == runs.map { try! FeedSimulation.run($0).csvRow })
    }

    @Test func aStopRequestEndsThePassWithTheFinishedRuns() throws {
        let stop = StopRequest()
        stop.stop()
        var delivered = 0
        let outcome = try SweepRunner.run(count: runs.count, jobs: 2, stop: stop, configuration: { runs[$0] }) { _, _ in delivered += 1 }
        #expect(outcome == .stopped && delivered == 0)
    }
}
