import Foundation
import Testing
@testable import FeedBench

/// The synthetic behaviours: reproducible, distinct per seed, and shaped like their names.
@Suite struct ScrollBehaviorTests {
    static let minute: Int64 = 60_000_000_000

    func trace(_ behavior: ScrollBehavior, seed: UInt64 = 1, minutes: Int64 = 5, refreshRate: Int = 60) -> ScrollTrace {
        behavior.trace(seed: seed, duration: minutes * Self.minute, refreshRate: refreshRate, rowHeight: 375, viewportHeight: 667)
    }

    /// Points moved per minute, in either direction.
    func travelPerMinute(_ trace: ScrollTrace) -> Double {
        zip(trace.offsets, trace.offsets.dropFirst()).reduce(0) { $0 + abs($1.1 - $1.0) } / (Double(trace.duration) / Double(Self.minute))
    }

    /// Maximal runs of frames that move toward the top.
    func backwardSegments(_ trace: ScrollTrace) -> Int {
        var count = 0, wasBackward = false
        for (a, b) in zip(trace.offsets, trace.offsets.dropFirst()) {
            let backward = b < a
            if backward && !wasBackward { count += 1 }
            wasBackward = backward
        }
        return count
    }

    func stillFraction(_ trace: ScrollTrace) -> Double {
        Double(zip(trace.offsets, trace.offsets.dropFirst()).filter { $0 == $1 }.count) / Double(trace.offsets.count - 1)
    }

    @Test(arguments: ScrollBehavior.allCases)
    func isDeterministicPerSeedAndDistinctAcrossSeeds(behavior: ScrollBehavior) {
        let a = trace(behavior, seed: 7, minutes: 2)
        #expect(a == trace(behavior, seed: 7, minutes: 2))
        #expect(a.offsets != trace(behavior, seed: 8, minutes: 2).offsets)
        #expect(a.name == behavior.rawValue)
        #expect(!behavior.summary.isEmpty && !behavior.summary.contains("\n"))
    }

    @Test(arguments: ScrollBehavior.allCases, [60, 120])
    func hasWholeFramesOfNonNegativeOffsetsFromTheTop(behavior: ScrollBehavior, refreshRate: Int) {
        let trace = trace(behavior, minutes: 5, refreshRate: refreshRate)
        #expect(trace.frameInterval == ScrollTrace.frameInterval(refreshRate: refreshRate))
        #expect(trace.offsets.count == Int(5 * Self.minute / trace.frameInterval))
        #expect(trace.offsets.first == 0)
        #expect(trace.offsets.allSatisfy { $0 >= 0 && $0.isFinite })
        #expect(trace.duration <= 5 * Self.minute)
    }

    @Test func aLongerTraceExtendsAShorterOne() {
        let short = trace(.revisitor, minutes: 1), long = trace(.revisitor, minutes: 3)
        #expect(Array(long.offsets.prefix(short.offsets.count)) == short.offsets)
    }

    @Test func skimmersCoverFarMoreGroundThanReaders() {
        let reader = travelPerMinute(trace(.reader)), browser = travelPerMinute(trace(.browser))
        let skimmer = travelPerMinute(trace(.skimmer))
        #expect(skimmer > 10 * reader, "\(skimmer) vs \(reader)")
        #expect(skimmer > 2 * browser && browser > 2 * reader, "\(skimmer) \(browser) \(reader)")
        // About a 375-pt row per 6.5 s.
        #expect((2000...5500).contains(reader), "\(reader)")
    }

    @Test func readersMostlyDwellAndSkimmersHardlyEver() {
        #expect(stillFraction(trace(.reader)) > 0.8)
        #expect(stillFraction(trace(.skimmer)) < 0.4)
    }

    @Test func onlyRevisitorsScrollBackAndTheyDoItOften() {
        for seed: UInt64 in 1...5 {
            let segments = backwardSegments(trace(.revisitor, seed: seed))
            #expect(segments >= 10, "seed \(seed): \(segments) backward segments in 5 minutes")
        }
        for behavior in [ScrollBehavior.reader, .browser, .skimmer] {
            #expect(backwardSegments(trace(behavior)) == 0)
        }
    }

    @Test func velocitiesScaleWithTheViewport() {
        let phone = ScrollBehavior.browser.trace(seed: 3, duration: Self.minute, refreshRate: 60, rowHeight: 375, viewportHeight: 667)
        let tablet = ScrollBehavior.browser.trace(seed: 3, duration: Self.minute, refreshRate: 60, rowHeight: 375, viewportHeight: 1194)
        #expect(travelPerMinute(tablet) > 1.5 * travelPerMinute(phone))
    }
}

/// Dwell times: the log-normal sampler's moments.
@Suite struct LogNormalDistributionTests {
    @Test func sampleMeanAndMedianMatchTheParameters() {
        let distribution = LogNormalDistribution(mean: 6, sigma: 0.5)
        var generator = SeededGenerator(seed: 11)
        var samples = (0..<200_000).map { _ in distribution.sample(using: &generator) }
        samples.sort()
        let mean = samples.reduce(0, +) / Double(samples.count)
        #expect(abs(mean - 6) < 0.05, "\(mean)")
        #expect(abs(samples[samples.count / 2] - distribution.median) < 0.05)
        #expect(abs(distribution.median - 6 * exp(-0.125)) < 1e-12)
        #expect(samples.first! > 0)
    }

    @Test func zeroSigmaIsTheMean() {
        var generator = SeededGenerator(seed: 1)
        #expect(abs(LogNormalDistribution(mean: 2, sigma: 0).sample(using: &generator) - 2) < 1e-12)
    }
}
