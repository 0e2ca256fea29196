import Testing
@testable import FeedBench

@Suite struct LatencyModelTests {
    static let millisecond: Int64 = 1_000_000

    func samples(_ model: LatencyModel, count: Int, seed: UInt64 = 1) -> [Int64] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { _ in model.sample(using: &generator) }
    }

    @Test func fixedIsExactAndDrawsNothing() {
        var generator = SeededGenerator(seed: 4)
        let before = generator
        #expect(LatencyModel.fixed(123_456).sample(using: &generator) == 123_456)
        #expect(generator.next() == before.nextCopy())
    }

    @Test func uniformStaysInRangeAndReachesBothEnds() {
        let drawn = samples(.uniform(10...20), count: 5_000)
        #expect(drawn.allSatisfy { (10...20).contains($0) })
        #expect(Set(drawn) == Set(10...20))
        let wide = samples(.uniform(100 * Self.millisecond...500 * Self.millisecond), count: 100_000)
        let mean = Double(wide.reduce(0, +)) / Double(wide.count)
        #expect(abs(mean / Double(300 * Self.millisecond) - 1) < 0.01)
    }

    @Test(arguments: [(300, 1_200), (100, 250), (50, 600)])
    func logNormalMatchesItsMeanAndP99(meanMs: Int64, p99Ms: Int64) {
        let model = LatencyModel.logNormal(mean: meanMs * Self.millisecond, p99: p99Ms * Self.millisecond)
        let drawn = samples(model, count: 400_000).sorted()
        #expect(drawn.first! >= 0)
        let mean = Double(drawn.reduce(0, +)) / Double(drawn.count)
        let p99 = Double(drawn[drawn.count * 99 / 100])
        #expect(abs(mean / Double(meanMs * Self.millisecond) - 1) < 0.03, "mean \(mean)")
        #expect(abs(p99 / Double(p99Ms * Self.millisecond) - 1) < 0.03, "p99 \(p99)")
    }

    @Test func logNormalParametersFollowTheDocumentedFormula() throws {
        let (mu, sigma) = try #require(LatencyModel.logNormalParameters(mean: 300, p99: 1_200))
        // ln 4 = zσ − σ²/2 with z = 2.3263: σ ≈ 0.7018, μ = ln 300 − σ²/2 ≈ 5.4573.
        #expect(abs(sigma - 0.7018) < 0.0005)
        #expect(abs(mu - 5.4573) < 0.0005)
        #expect(LatencyModel.logNormalParameters(mean: 300, p99: 300) == nil)
        #expect(LatencyModel.logNormalParameters(mean: 100, p99: 1_500) == nil)
        #expect(LatencyModel.logNormalParameters(mean: 100, p99: 1_490) != nil)
    }

    @Test func sameGeneratorStateSameLatencies() {
        let model = LatencyModel.logNormal(mean: 300 * Self.millisecond, p99: 1_200 * Self.millisecond)
        #expect(samples(model, count: 100, seed: 9) == samples(model, count: 100, seed: 9))
        #expect(samples(model, count: 100, seed: 9) != samples(model, count: 100, seed: 10))
    }

    @Test func invalidModelsAreRefusedNamingTheField() {
        for model in [LatencyModel.fixed(-1), .uniform(-5...5), .logNormal(mean: 0, p99: 10),
                      .logNormal(mean: 10, p99: 10), .logNormal(mean: 10, p99: 200)] {
            #expect(throws: InputError.self) { try model.validate(source: "--latency", field: "latency") }
            do {
                try model.validate(source: "--latency", field: "latency")
            } catch let error as InputError {
                #expect(error.field == "latency")
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
        #expect(throws: Never.self) { try LatencyModel.fixed(0).validate(source: "x", field: "latency") }
    }
}
