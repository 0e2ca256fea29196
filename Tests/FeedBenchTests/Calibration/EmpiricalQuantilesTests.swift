import Testing
@testable import FeedBench

/// Quantiles by type-7 interpolation on small samples whose answers are known, and the KS
/// distance to a distribution.
@Suite struct EmpiricalQuantilesTests {
    @Test func interpolatesBetweenOrderStatistics() {
        let sample = EmpiricalQuantiles([4, 1, 3, 2])
        #expect(sample.sorted == [1, 2, 3, 4] && sample.count == 4 && sample.mean == 2.5)
        // h = 3p: 0 → x0, 0.25 → 0.75 of the way from 1 to 2, 0.5 → 1.5, 0.9 → 2.7, 1 → x3.
        #expect([0, 0.25, 0.5, 0.9, 1].map(sample.quantile) == [1, 1.75, 2.5, 3.7, 4])
    }

    @Test func readsTheMedianOfAnOddSampleAndOneValue() {
        #expect(EmpiricalQuantiles([10, 30, 20, 50, 40]).quantile(0.5) == 30)
        #expect(EmpiricalQuantiles([10, 30, 20, 50, 40]).quantile(0.1) == 14)
        let one = EmpiricalQuantiles([7])
        #expect(one.quantile(0) == 7 && one.quantile(0.99) == 7 && one.mean == 7)
    }

    @Test func measuresTheKSDistanceOnBothSidesOfEachStep() {
        let uniform = { (x: Double) in min(max(x, 0), 1) }
        #expect(EmpiricalQuantiles([0.5]).ksDistance(to: uniform) == 0.5)
        // Steps at 0.25 and 0.75 of height 1/2: the gaps are 0.25 everywhere they are widest.
        #expect(EmpiricalQuantiles([0.25, 0.75]).ksDistance(to: uniform) == 0.25)
        #expect(EmpiricalQuantiles([0.9, 0.95]).ksDistance(to: uniform) == 0.9)
    }
}
