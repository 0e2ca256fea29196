import Testing
@testable import FeedBench

/// The generators are pinned to the reference algorithms: a change here would silently change
/// every simulated number FeedBench has ever printed.
@Suite struct SeededGeneratorTests {
    @Test func splitMix64MatchesTheReferenceOutputs() {
        var zero = SplitMix64(seed: 0)
        #expect([zero.next(), zero.next(), zero.next()] == [0xe220_a839_7b1d_cdaf, 0x6e78_9e6a_a1b9_65f4, 0x06c4_5d18_8009_454f])
        var vigna = SplitMix64(seed: 1_234_567)
        #expect([vigna.next(), vigna.next(), vigna.next()] == [0x599e_d017_fb08_fc85, 0x2c73_f084_5854_0fa5, 0x883e_bce5_a3f2_7c77])
    }

    @Test func xoshiro256StarStarSeededThroughSplitMixMatchesTheReference() {
        var zero = SeededGenerator(seed: 0)
        #expect((0..<4).map { _ in zero.next() } == [0x99ec_5f36_cb75_f2b4, 0xbf6e_1f78_4956_452a, 0x1a5f_849d_4933_e6e0, 0x6aa5_94f1_262d_2d2c])
        var answer = SeededGenerator(seed: 42)
        #expect((0..<4).map { _ in answer.next() } == [0x1578_0b2e_0c2e_c716, 0x6104_d986_6d11_3a7e, 0xae17_5332_39e4_99a1, 0xecb8_ad47_03b3_60a1])
    }

    @Test func boundedDrawsStayInRangeAndCoverIt() {
        var generator = SeededGenerator(seed: 7)
        var seen = Set<UInt64>()
        for _ in 0..<10_000 {
            let value = generator.next(below: 10)
            #expect(value < 10)
            seen.insert(value)
        }
        #expect(seen.count == 10)
        for _ in 0..<1000 {
            #expect((-5...5).contains(generator.next(in: -5...5)))
            let unit = generator.nextUnit()
            #expect(unit >= 0 && unit < 1)
        }
        #expect(generator.next(in: Int64.min...Int64.max) != generator.next(in: Int64.min...Int64.max))
    }

    @Test func streamsOfOneSeedAreIndependentAndReproducible() {
        var a = SeededGenerator(seed: 9, stream: 1)
        var b = SeededGenerator(seed: 9, stream: 2)
        var a2 = SeededGenerator(seed: 9, stream: 1)
        #expect(a.next() != b.next())
        #expect(a2.next() == SeededGenerator(seed: 9, stream: 1).nextCopy())
    }

    @Test func zipfFavoursLowRanksAndIsDeterministic() {
        let zipf = ZipfDistribution(count: 1000, alpha: 1.0)
        var g1 = SeededGenerator(seed: 3), g2 = SeededGenerator(seed: 3)
        var counts = [Int](repeating: 0, count: 1000)
        for _ in 0..<50_000 {
            let rank = zipf.sample(using: &g1)
            #expect(rank == zipf.sample(using: &g2))
            counts[rank] += 1
        }
        // P(rank 0) = 1/H(1000) ≈ 0.1336; rank 1 about half as likely.
        #expect(abs(Double(counts[0]) / 50_000 - 0.1336) < 0.01)
        #expect(abs(Double(counts[1]) / Double(counts[0]) - 0.5) < 0.05)
        let uniform = ZipfDistribution(count: 4, alpha: 0)
        var g = SeededGenerator(seed: 1)
        var flat = [0, 0, 0, 0]
        for _ in 0..<40_000 { flat[uniform.sample(using: &g)] += 1 }
        #expect(flat.allSatisfy { abs($0 - 10_000) < 500 })
    }
}

extension SeededGenerator {
    /// The next value of a copy, leaving this generator as it is.
    func nextCopy() -> UInt64 {
        var copy = self
        return copy.next()
    }
}
