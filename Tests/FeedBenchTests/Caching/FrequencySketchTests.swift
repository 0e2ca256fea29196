import FeedBench
import Testing

@Suite("FrequencySketch")
struct FrequencySketchTests {
    /// A skewed stream over `keys` keys and the exact count of every key in it.
    static func skewedStream(seed: UInt64, count: Int, keys: Int) -> (stream: [UInt64], exact: [UInt64: UInt32]) {
        var generator = SeededGenerator(seed: seed)
        let zipf = ZipfDistribution(count: keys, alpha: 0.9)
        var stream: [UInt64] = []
        var exact: [UInt64: UInt32] = [:]
        for _ in 0..<count {
            let key = UInt64(zipf.sample(using: &generator)) &* 0x9E37_79B9 &+ 12345
            stream.append(key)
            exact[key, default: 0] += 1
        }
        return (stream, exact)
    }

    @Test("sized like a Bloom filter: 10 hashes and ⌈14.38 × n⌉ counters at error 0.001")
    func sizing() {
        let sketch = FrequencySketch(expectedEntries: 485)
        #expect(sketch.hashCount == 10)
        #expect(sketch.width == 6974)  // ⌈-ln(0.001) / ln(2)² × 485⌉
        let coarse = FrequencySketch(expectedEntries: 100, errorRate: 0.01)
        #expect(coarse.hashCount == 7)
        #expect(coarse.width == 959)
    }

    @Test("the counter array is capped (byte-mode capacities would ask for billions)")
    func widthCap() {
        let sketch = FrequencySketch(expectedEntries: 502_368_008, maxWidth: 1 << 16)
        #expect(sketch.width == 1 << 16)
        #expect(FrequencySketch(expectedEntries: 1 << 40).width == FrequencySketch.defaultMaxWidth)
    }

    @Test("an empty sketch estimates zero; one add estimates one")
    func emptyAndOne() {
        var sketch = FrequencySketch(expectedEntries: 100)
        for key in UInt64(0)..<1000 { #expect(sketch.estimate(key) == 0) }
        sketch.add(42)
        #expect(sketch.estimate(42) == 1)
    }

    @Test("estimates never undercount before a halving", arguments: [UInt64(1), 2, 3, 4])
    func neverUndercounts(seed: UInt64) {
        // Deliberately overfull (4× the expected entries) so collisions happen.
        var sketch = FrequencySketch(expectedEntries: 50)
        let (stream, exact) = Self.skewedStream(seed: seed, count: 5000, keys: 200)
        for key in stream { sketch.add(key) }
        for (key, count) in exact { #expect(sketch.estimate(key) >= count) }
    }

    @Test("halving halves every estimate, rounding down", arguments: [UInt64(5), 6])
    func halvingHalves(seed: UInt64) {
        var sketch = FrequencySketch(expectedEntries: 100)
        let (stream, exact) = Self.skewedStream(seed: seed, count: 4000, keys: 150)
        for key in stream { sketch.add(key) }
        let before = exact.keys.map { sketch.estimate($0) }
        sketch.halve()
        let after = exact.keys.map { sketch.estimate($0) }
        #expect(after == before.map { $0 / 2 })
        sketch.halve()
        #expect(exact.keys.map { sketch.estimate($0) } == before.map { $0 / 4 })
    }

    @Test("error stays within the bound on a skewed stream of the expected number of keys")
    func errorWithinBound() {
        let keys = 2000
        var sketch = FrequencySketch(expectedEntries: Int64(keys))
        let (stream, exact) = Self.skewedStream(seed: 9, count: 50_000, keys: keys)
        for key in stream { sketch.add(key) }
        // A key is overcounted only when all its counters are shared: the Bloom false-positive
        // rate, 0.001 at the designed load (a 5× margin for sampling noise).
        let overcounted = exact.filter { sketch.estimate($0.key) != $0.value }.count
        #expect(Double(overcounted) / Double(exact.count) <= 0.005)
        // Keys never added: a nonzero estimate is a false positive.
        let absent = (0..<20_000).map { UInt64($0) &* 0xD1B5_4A32_D192_ED03 &+ 7 }.filter { exact[$0] == nil }
        let falsePositives = absent.filter { sketch.estimate($0) > 0 }.count
        #expect(Double(falsePositives) / Double(absent.count) <= 0.005)
    }

    @Test("the same seed gives the same sketch; another seed spreads keys differently")
    func deterministic() {
        var a = FrequencySketch(expectedEntries: 10, seed: 1)
        var b = FrequencySketch(expectedEntries: 10, seed: 1)
        var c = FrequencySketch(expectedEntries: 10, seed: 2)
        for key in UInt64(0)..<300 {
            a.add(key % 37)
            b.add(key % 37)
            c.add(key % 37)
        }
        let estimates = { (s: FrequencySketch) in (UInt64(0)..<500).map { s.estimate($0) } }
        #expect(estimates(a) == estimates(b))
        #expect(estimates(a) != estimates(c))
    }

    @Test("reset forgets everything")
    func resetForgets() {
        var sketch = FrequencySketch(expectedEntries: 10)
        for key in UInt64(0)..<50 { sketch.add(key) }
        sketch.reset()
        for key in UInt64(0)..<50 { #expect(sketch.estimate(key) == 0) }
    }
}
