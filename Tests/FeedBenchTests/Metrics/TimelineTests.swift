import Testing
@testable import FeedBench

/// `--timeline`: each second of a run adds up to the run's own figures, seconds are
/// contiguous per launch, and the file is the same whatever the number of jobs.
@Suite struct TimelineTests {
    static func configuration(policy: String, window: Int, memoryLimit: Int64? = nil, seconds: Int64 = 30,
                              launches: Int = 1, gap: Int64 = RunConfiguration.defaultGap) throws -> RunConfiguration {
        var configuration = try RunConfiguration.standard(
            profile: .lowEnd, policy: PolicySpec.parse(policy, source: "test"), window: .items(PrefetchWindow(ahead: window)),
            workload: .behavior(.skimmer, duration: seconds * 1_000_000_000), seed: 2, network: .wifi)
        if let memoryLimit { configuration.pipeline.memoryLimits = .bytes(memoryLimit) }
        configuration.launches = launches
        configuration.gap = gap
        configuration.recording.timeline = true
        return configuration
    }

    /// Checks the timeline of `result` against its row; returns it.
    @discardableResult
    static func checkAddsUp(_ result: RunResult) -> [TimelineSecond] {
        let timeline = result.timeline
        #expect(timeline.reduce(0) { $0 + $1.stalls } == result.stalls.count)
        #expect(timeline.reduce(0) { $0 + $1.apiRequests } == result.apiRequests)
        #expect(timeline.reduce(0) { $0 + $1.imageRequests } == result.imageRequests)
        #expect(timeline.reduce(0) { $0 + $1.evictions } == result.evictions)
        #expect(timeline.reduce(0) { $0 + $1.memoryWarnings } == result.memoryWarnings)
        #expect(timeline.reduce(0) { $0 + $1.jetsamKills } == result.jetsamKills)
        #expect(timeline.map { $0.memoryCacheBytes + $0.bitmapBytes + $0.inflightBytes }.max() == result.peakMemoryBytes)
        for launch in 1...result.launches {
            let seconds = timeline.filter { $0.launch == launch }.map(\.second)
            #expect(seconds == Array(0..<seconds.count), "launch \(launch): every second once, in order")
        }
        return timeline
    }

    @Test func secondsAddUpToTheRun() throws {
        // A memory cache too small for the screen: bitmaps on screen are held outside it.
        let result = try FeedSimulation.run(Self.configuration(policy: "lru", window: 20, memoryLimit: 20_000_000, launches: 2))
        let timeline = Self.checkAddsUp(result)
        #expect(timeline.filter { $0.launch == 1 }.count == 30)
        #expect(timeline.contains { $0.bitmapBytes > 0 } && timeline.contains { $0.inflightBytes > 0 })
    }

    @Test(arguments: [RunConfiguration.defaultGap, 300_000_000_000])
    func meanMemoryOverLaunchesStaysBetweenZeroAndThePeak(gap: Int64) throws {
        // Memory recorded after a launch ends is at the next launch's time, not before the gap.
        let result = try FeedSimulation.run(Self.configuration(policy: "lru", window: 20, launches: 3, gap: gap))
        #expect(result.meanMemoryBytes > 0 && result.meanMemoryBytes <= result.peakMemoryBytes)
        Self.checkAddsUp(result)
    }

    @Test func warningsAndKillsLandInTheirSecond() throws {
        // A memory cache larger than the warning threshold: the cache fills, warnings clear it.
        let warned = try FeedSimulation.run(Self.configuration(policy: "lru", window: 50, memoryLimit: 3 << 30, seconds: 120))
        try #require(warned.memoryWarnings > 0)
        Self.checkAddsUp(warned)
        // Seed 002's cache that never evicts nor listens to warnings: jetsam kills the app.
        let killed = try FeedSimulation.run(Self.configuration(policy: "unbounded", window: 50, seconds: 180, launches: 2))
        try #require(killed.jetsamKills > 0)
        let timeline = Self.checkAddsUp(killed)
        let kill = try #require(timeline.first { $0.jetsamKills > 0 })
        #expect(kill.memoryCacheBytes + kill.bitmapBytes + kill.inflightBytes > DeviceProfile.lowEnd.jetsamLimitBytes)
    }

    @Test func noTimelineUnlessAskedFor() throws {
        var configuration = try Self.configuration(policy: "lru", window: 5)
        configuration.recording.timeline = false
        let plain = try FeedSimulation.run(configuration)
        #expect(plain.timeline.isEmpty)
        configuration.recording.timeline = true
        #expect(try FeedSimulation.run(configuration).csvRow == plain.csvRow, "recording changes nothing in the run")
    }

    @Test func theCSVIsTheSameWhateverTheJobs() throws {
        let runs = try [0, 10, 30].map { try Self.configuration(policy: "fifo", window: $0, seconds: 10) }
        let one = TimelineSecond.csv(try RunBatch.run(runs, jobs: 1))
        let two = TimelineSecond.csv(try RunBatch.run(runs, jobs: 2))
        #expect(one == two)
        let lines = one.split(separator: "\n")
        #expect(lines[0] == Substring((RunResult.identityColumns + TimelineSecond.columns).joined(separator: ",")))
        #expect(lines.count == 1 + 3 * 10)
        #expect(lines[1].hasPrefix("low-end,wifi,2,fifo,471859200,157286400,0,skimmer,2,1,cacheFirst,1,0,"))
    }
}
