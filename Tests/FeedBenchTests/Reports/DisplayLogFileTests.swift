@testable import FeedBench
import Testing

/// `bench run --displays`: a row a display, in order; the stalls it marks are the run's; a
/// memory hit shows its image on its frame, a wait ends later or never.
@Suite struct DisplayLogFileTests {
    @Test(arguments: [ScrollBehavior.skimmer, .browser, .revisitor])
    func theDisplaysItMarksStalledAreTheRunsStalls(behavior: ScrollBehavior) throws {
        var configuration = try RunConfiguration.standard(
            profile: .lowEnd, policy: PolicySpec(.lru), window: .items(PrefetchWindow(ahead: 5)),
            workload: .behavior(behavior, duration: 30_000_000_000), seed: 3, network: .lte)
        configuration.recording.displays = true
        let result = try FeedSimulation.run(configuration)
        let log = result.displayLog
        #expect(log.count == result.displays && log.filter(\.stalled).count == result.stalls.count)
        #expect(zip(log, log.dropFirst()).allSatisfy { $0.time <= $1.time })
        for record in log {
            if record.outcome == .memoryHit { #expect(record.shown == record.time && !record.stalled) }
            if let shown = record.shown, record.stalled { #expect(shown >= record.time) }
        }
        #expect(log.contains { $0.stalled && $0.shown != nil })
        let lines = DisplayLogFile.csv(log).split(separator: "\n")
        #expect(lines.first == "time_ms,path,outcome,shown_ms,stalled" && lines.count == log.count + 1)
        configuration.recording.displays = false
        #expect(try FeedSimulation.run(configuration).displayLog.isEmpty)
    }

    @Test func eachRowSaysWhenHowAndWhetherItStalled() {
        let rows = [DisplayRecord(time: 450_000_009, url: 333, outcome: .miss, shown: nil, stalled: true),
                    DisplayRecord(time: 500_000_000, url: 7, outcome: .memoryHit, shown: 500_000_000, stalled: false),
                    DisplayRecord(time: 600_000_000, url: 8, outcome: .inflightHit, shown: 812_345_678, stalled: true),
                    DisplayRecord(time: 700_000_000, url: 9, outcome: .diskHit, shown: 710_000_000, stalled: true)]
        #expect(DisplayLogFile.csv(rows) == """
            time_ms,path,outcome,shown_ms,stalled
            450.000009,/images/333.jpg,miss,,1
            500.000000,/images/7.jpg,memory,500.000000,0
            600.000000,/images/8.jpg,inflight,812.345678,1
            700.000000,/images/9.jpg,disk,710.000000,1

            """)
    }
}
