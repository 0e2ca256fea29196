import Testing
@testable import FeedBench

/// The memory guard: a warning once per crossing, jetsam above the limit.
@Suite struct MemoryGuardTests {
    @Test func aWarningComesOncePerCrossingAndJetsamAboveTheLimit() {
        let profile = DeviceProfile.lowEnd
        var memory = MemoryGuard(profile: profile, respondsToWarnings: true)
        #expect(memory.judge(profile.memoryWarningBytes) == .fine, "at the threshold: fine")
        #expect(memory.judge(profile.memoryWarningBytes + 1) == .warning)
        #expect(memory.judge(profile.memoryWarningBytes + 2) == .fine, "still above: no second warning")
        #expect(memory.judge(0) == .fine)
        #expect(memory.judge(profile.memoryWarningBytes + 1) == .warning, "crossed again")
        #expect(memory.judge(profile.jetsamLimitBytes + 1) == .jetsam)
        var deaf = MemoryGuard(profile: profile, respondsToWarnings: false)
        #expect(deaf.judge(profile.memoryWarningBytes + 1) == .fine, "a pipeline that ignores warnings gets none")
    }

    @Test func theMeterKeepsThePeakAndLeavesTheBackgroundOutOfTheMean() {
        var memory = MemoryGuard(profile: .lowEnd, respondsToWarnings: true)
        memory.start(at: 100)
        memory.record(10, at: 100)
        memory.record(30, at: 200)
        memory.pause(at: 300)
        memory.resume(at: 1_300)
        memory.record(10, at: 1_300)
        #expect(memory.meter.peak == 30 && memory.meter.current == 10)
        #expect(memory.meter.mean(upTo: 1_400) == 17, "5,000 byte-nanoseconds over the 300 in the foreground, rounded")
    }
}
