@testable import FeedBench
import Testing

/// `bench serve` hands an attempt numbered by the app the delay the simulation drew for that
/// attempt, whatever order the requests arrive in; an attempt answered offline draws nothing;
/// requests without a number (or with one that cannot be the app's) go in arrival order.
@Suite struct NumberedAttemptsTests {
    static let lte = NetworkProfile.lte
    static let lossy = NetworkProfile.veryBad

    /// The simulation's delays for `count` attempts in order.
    static func inOrder(_ count: Int, seed: UInt64, on network: NetworkProfile) -> [Int64] {
        var draws = AttemptDraws(seed: seed)
        return (0..<count).map { _ in draws.delayToFirstByte(on: network) }
    }

    /// Over 50 seeds, 40 attempts arriving in a random order each get their own delay, on a
    /// network without losses and on one that loses a tenth of its attempts.
    @Test(arguments: [lte, lossy])
    func anyArrivalOrderGetsEachAttemptItsOwnDelay(network: NetworkProfile) {
        for seed in UInt64(1)...50 {
            var shuffler = SeededGenerator(seed: seed, stream: 99)
            var order = Array(0..<40)
            for i in order.indices.reversed() { order.swapAt(i, Int(shuffler.next(below: UInt64(i + 1)))) }
            var attempts = NumberedAttempts(seed: seed)
            var delays = [Int64](repeating: -1, count: 40)
            for number in order { delays[number] = attempts.delay(forAttempt: number, on: network) }
            #expect(delays == Self.inOrder(40, seed: seed, on: network), "seed \(seed)")
            #expect(attempts.ahead.isEmpty)
        }
    }

    @Test func withoutNumbersTheAttemptsGoInArrivalOrder() {
        var attempts = NumberedAttempts(seed: 3)
        let delays = (0..<10).map { _ in attempts.delay(forAttempt: nil, on: Self.lte) }
        #expect(delays == Self.inOrder(10, seed: 3, on: Self.lte))
    }

    /// The app's attempt 2 met the server offline: 3 and 4 get the draws the simulation gives
    /// its third and fourth attempts that left the device.
    @Test func anAttemptAnsweredOfflineDrawsNothing() {
        let expected = Self.inOrder(4, seed: 5, on: Self.lte)
        var attempts = NumberedAttempts(seed: 5)
        #expect(attempts.delay(forAttempt: 1, on: Self.lte) == expected[1])
        attempts.skip(2)
        #expect(attempts.delay(forAttempt: 4, on: Self.lte) == expected[3])
        #expect(attempts.delay(forAttempt: 0, on: Self.lte) == expected[0])
        #expect(attempts.delay(forAttempt: 3, on: Self.lte) == expected[2])
    }

    /// A number served already, or far beyond anything drawn, is not the app's count: such a
    /// request takes the next draws, and nothing is drawn ahead for it.
    @Test func aRepeatedOrImpossibleNumberGoesInArrivalOrder() {
        let expected = Self.inOrder(3, seed: 8, on: Self.lte)
        var attempts = NumberedAttempts(seed: 8)
        #expect(attempts.delay(forAttempt: 0, on: Self.lte) == expected[0])
        #expect(attempts.delay(forAttempt: 0, on: Self.lte) == expected[1])
        #expect(attempts.delay(forAttempt: Int.max, on: Self.lte) == expected[2])
        #expect(attempts.delay(forAttempt: -4, on: Self.lte) != 0)
        #expect(attempts.ahead.isEmpty && attempts.next == 4)
    }

    /// Each lost attempt costs the retry timeout before the round trip that gets through (very
    /// bad: a fixed 1 s round trip, a tenth of attempts lost); the server answers at the latest
    /// after the app's last retry.
    @Test func lostAttemptsAddTheRetryTimeout() {
        var draws = AttemptDraws(seed: 2)
        let network = Self.lossy
        let losses = (0..<400).map { _ -> Int64 in
            let beyond = draws.delayToFirstByte(on: network) - 2 * network.oneWayDelay.lowerBound
            return beyond % network.retryTimeout == 0 ? beyond / network.retryTimeout : -1
        }
        #expect(losses.allSatisfy { (0...Int64(network.maxRetries + 1)).contains($0) })
        #expect(losses.contains(1) && losses.filter { $0 == 0 }.count > 300)
    }
}
