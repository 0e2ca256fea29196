#if HTTP
import FeedBench
import FeedServe
import Foundation
import TestSupport
import Testing

/// `bench calibrate --log`: a real client's session against `bench serve` under known
/// conditions, read back from the server's log, gives those conditions: the API's latency mean
/// and p99 within 5 % (from the log's server times, not its durations, which hold the network),
/// the one-way delay within 5 % and the bandwidth within 5 % (by replaying the log through the
/// network model: `Calibration.replayFit`). The log's durations are the server's wall-clock
/// times, so the session is measured in rounds, each with a fresh server and log
/// (`TimedRounds`); what does not depend on time holds in every round.
extension FeedServerTests {
    static func within(_ value: Double, _ truth: Double, _ share: Double) -> Bool { abs(value / truth - 1) <= share }

    @Test(.timedAlone) func theServedConditionsComeBackFromTheLog() async throws {
        let network = NetworkProfile(name: "served", bitsPerSecond: 10_000_000, oneWayDelay: 50_000_000...50_000_000)
        let api = FeedAPIConfiguration(latency: .logNormal(mean: 40_000_000, p99: 60_000_000), failureProbability: 0.1)
        try await TimedRounds.check { _ in
            let log = try ScratchFolder.make().appendingPathComponent("requests.csv").path
            let server = try await RunningServer.start(ServeConditions(network: network, api: api), log: log)
            // 400 calls, six at a time as the client's connections allow (a narrow log-normal, so
            // that 400 draws pin its p99 well inside 5 %).
            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in 0..<6 {
                    group.addTask {
                        for call in stride(from: worker, to: 400, by: 6) { _ = try await server.request("/v1/images/search?page=\(call % 50 + 1)") }
                    }
                }
                try await group.waitForAll()
            }
            // Then 15 images one after another, so that the bandwidth is the images' alone.
            for id in 0..<15 { _ = try await server.request("/images/\(id).jpg") }
            await server.stop()

            var calibration = Calibration()
            try calibration.addLog(path: log)
            let workload = try calibration.workload(source: log)
            #expect(workload.fit.apiCalls == 400 && workload.fit.imageDownloads == 15)
            #expect(abs(workload.api.failureProbability - 0.1) <= 0.03, "\(workload.api.failureProbability)")
            #expect(workload.fit.roundTripFrom == "replay" && workload.fit.bandwidthFrom == "replay")
            guard case let .logNormal(mean, p99) = workload.api.latency else { return ["latency \(workload.api.latency), expected a log-normal"] }
            let delay = workload.network.oneWayDelay
            let found: [(Bool, String)] = [
                (Self.within(Double(mean), 40e6, 0.05) && Self.within(Double(p99), 60e6, 0.05), "mean \(mean) ns, p99 \(p99) ns"),
                (Self.within(Double(workload.network.bitsPerSecond), 10e6, 0.05), "\(workload.network.bitsPerSecond) bit/s"),
                (Self.within(Double(delay.lowerBound + delay.upperBound) / 2, 50e6, 0.05), "one-way \(delay) ns"),
            ]
            return found.filter { !$0.0 }.map(\.1)
        }
    }
}
#endif
