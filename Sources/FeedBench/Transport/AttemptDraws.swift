/// The draws of download attempts on a network, in the order the attempts are made: whether an
/// attempt is lost (noticed after the retry timeout), and if not its round trip to the first
/// byte (two one-way delays). The simulated link and `bench serve` both draw from it, seeded by
/// the run's seed, so a live run against a server started with that seed meets the round trips
/// its simulation meets, attempt for attempt.
public struct AttemptDraws: Sendable {
    /// How one attempt goes.
    public enum Attempt: Sendable, Equatable {
        case lost
        case roundTrip(Int64)
    }

    var generator: SeededGenerator

    public init(seed: UInt64) {
        generator = SeededGenerator(seed: seed, stream: 0x6e65_7477_6f72_6b)
    }

    /// The next attempt on `network`: a loss with the network's loss probability (no draw when
    /// it has none), else a round trip. Complexity: O(1).
    public mutating func next(on network: NetworkProfile) -> Attempt {
        if network.loss > 0, generator.chance(network.loss) { return .lost }
        return .roundTrip(roundTrip(on: network))
    }

    /// A round trip on `network`, with no chance of loss. Complexity: O(1).
    public mutating func roundTrip(on network: NetworkProfile) -> Int64 {
        generator.next(in: network.oneWayDelay) + generator.next(in: network.oneWayDelay)
    }
}
