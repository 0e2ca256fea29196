@testable import FeedBench
import Testing

/// Whole runs on recorded links: a constant recording gives the fixed link's runs, within the
/// millisecond its opportunities are quantized to; a recorded preset's runs are deterministic,
/// start where the seed (or the network's `recordingStart`) says, and feel the recording.
@Suite struct RecordedLinkRunTests {
    static func run(_ network: NetworkProfile, behavior: ScrollBehavior, window: Int, seed: UInt64) throws -> RunResult {
        let configuration = try RunConfiguration.standard(
            profile: .lowEnd, policy: PolicySpec(.lru), window: .items(PrefetchWindow(ahead: window)),
            workload: .behavior(behavior, duration: 60_000_000_000), seed: seed, network: network)
        return try FeedSimulation.run(configuration)
    }

    /// lte's delays and queue at 12 Mbit/s each way: fixed, and as the recording `1`.
    static func pair() -> (fixed: NetworkProfile, recorded: NetworkProfile) {
        var fixed = NetworkProfile.lte
        fixed.name = "twelve"
        fixed.bitsPerSecond = 12_000_000
        fixed.uplinkBitsPerSecond = 12_000_000
        var recorded = fixed
        let one = DeliveryTrace(path: "1", milliseconds: [1])
        recorded.record(downlink: one)
        recorded.record(uplink: one)
        return (fixed, recorded)
    }

    /// The reader's and the browser's runs fetch the same images, the same bytes, and stall as
    /// often; their waits differ by the milliseconds a packet waits for its opportunity (the
    /// fixed link serves the instant it can; the recording at whole milliseconds, and control
    /// packets, which pass a fixed link's empty queue at once, wait for one too): under 1 %.
    @Test(arguments: [(ScrollBehavior.reader, 5), (.reader, 20), (.browser, 5)])
    func aConstantRecordingRunsAsTheFixedLinkOfItsRate(behavior: ScrollBehavior, window: Int) throws {
        let (fixed, recorded) = Self.pair()
        for seed in UInt64(1)...3 {
            let a = try Self.run(fixed, behavior: behavior, window: window, seed: seed)
            let b = try Self.run(recorded, behavior: behavior, window: window, seed: seed)
            #expect(a.stalls.count == b.stalls.count && a.imageRequests == b.imageRequests && a.bytesDownloaded == b.bytesDownloaded,
                    "seed \(seed)")
            let p95 = [a, b].map { Double($0.displayLatency.milliseconds(atPercentile: 95))! }
            #expect(abs(p95[1] - p95[0]) <= 0.01 * p95[0] + 1, "seed \(seed): \(p95)")
        }
    }

    /// The skimmer's runs turn on which of many cancelled downloads finish first, so one
    /// millisecond moves a seed's figures (on the fixed link too, from seed to seed); over 16
    /// seeds the mean stalls and bytes agree within 5 %.
    @Test func theSkimmersMeansOverSeedsAgree() throws {
        let (fixed, recorded) = Self.pair()
        var stalls = [0.0, 0.0], bytes = [0.0, 0.0]
        for seed in UInt64(1)...16 {
            for (i, network) in [fixed, recorded].enumerated() {
                let result = try Self.run(network, behavior: .skimmer, window: 5, seed: seed)
                stalls[i] += Double(result.stalls.count)
                bytes[i] += Double(result.bytesDownloaded)
            }
        }
        #expect(abs(stalls[1] / stalls[0] - 1) < 0.05 && abs(bytes[1] / bytes[0] - 1) < 0.05, "stalls \(stalls), bytes \(bytes)")
    }

    @Test func aRecordedPresetsRunsAreTheSameWhateverTheJobsAndStartWhereTheSeedSays() throws {
        let network = try #require(try NetworkProfile.preset(named: "att-lte-driving", source: "test"))
        let runs = try StandardMatrix.plan(profile: .lowEnd, network: network, memoryLimits: [.times(millionths: 250_000)],
                                                     windows: [.items(PrefetchWindow(ahead: 5))], seeds: [1, 2], duration: 20_000_000_000).configurations
        #expect(try RunBatch.run(runs, jobs: 1).map(\.csvRow) == RunBatch.run(runs, jobs: 2).map(\.csvRow))
        #expect(network.recordingStart(seed: 1) != network.recordingStart(seed: 2))
        let period = try #require(network.downlinkTrace).period
        for seed in UInt64(1)...20 {
            let start = network.recordingStart(seed: seed)
            #expect(start >= 0 && start < max(period, network.uplinkTrace!.period) && start % 1_000_000 == 0)
        }
        var pinned = network
        pinned.recordingStart = 7_000_000_000
        #expect(pinned.recordingStart(seed: 1) == 7_000_000_000 && pinned.recordingStart(seed: 2) == 7_000_000_000)
    }

    /// The same reader on a recording's worst stretch and on its best: where the link falls
    /// silent, the reader waits longer for its images.
    @Test func theStretchOfTheRecordingARunStartsAtMatters() throws {
        var network = try #require(try NetworkProfile.preset(named: "verizon-lte", source: "test"))
        var waits: [Double] = []
        for start: Int64 in [0, 30, 60, 90] {
            network.recordingStart = start * 1_000_000_000
            let result = try Self.run(network, behavior: .reader, window: 5, seed: 1)
            waits.append(Double(result.displayLatency.milliseconds(atPercentile: 95))!)
        }
        #expect(Set(waits).count > 1, "\(waits)")
    }
}
