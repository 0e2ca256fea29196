/// `bench serve`'s delays before an image's first byte, handed out by the app's own order of
/// attempts when the request names it (`header`, which a live run sends), by order of arrival
/// otherwise.
///
/// The simulated link draws an attempt's round trip (`AttemptDraws`) when the app sends it.
/// Requests sent in one frame over several connections overtake each other on the way, so in
/// arrival order they took each other's draws: at lte, image 333 of the first page came fourth
/// of four and got the fourth round trip, 7 ms longer than its own, which moved its last byte
/// past the moment its cell left the screen. Numbered, the n-th attempt the app makes gets the
/// simulation's n-th draws whatever order the requests come in.
///
/// A delay is the server's way of playing a download's attempts: each lost attempt costs the
/// retry timeout (as the app's retry would), then a round trip; when every attempt the app would
/// make is lost, the app gives up where the server cannot, and it answers after one more round
/// trip. An attempt answered offline draws nothing, as a simulated attempt made offline.
public struct NumberedAttempts: Sendable {
    /// The request header a live run numbers its image attempts with (0, 1, …).
    public static let header = "FeedBench-Attempt"
    /// How far ahead of the attempts drawn so far a number may be: beyond it, it is not an app's
    /// count, and the request is served in arrival order.
    public static let horizon = 10_000

    var draws: AttemptDraws
    /// The first attempt number not drawn for yet.
    private(set) var next = 0
    /// Delays drawn for attempts whose requests have not arrived yet, by number.
    private(set) var ahead: [Int: Int64] = [:]
    /// Attempts answered offline before they were drawn for: they draw nothing.
    private(set) var skipped: Set<Int> = []

    public init(seed: UInt64) {
        draws = AttemptDraws(seed: seed)
    }

    /// The delay before the first byte of attempt `number` (the next in arrival order with `nil`,
    /// or a number already served or too far ahead) on `network`. Draws for the attempts before
    /// it that have not arrived and keeps them. O(number − next) the first time, O(1) after.
    public mutating func delay(forAttempt number: Int?, on network: NetworkProfile) -> Int64 {
        guard let number, number >= next || ahead[number] != nil, number < next + Self.horizon else {
            return drawNext(on: network)
        }
        while next <= number {
            if skipped.remove(next) == nil { ahead[next] = draws.delayToFirstByte(on: network) }
            next += 1
        }
        return ahead.removeValue(forKey: number) ?? drawNext(on: network)
    }

    /// Attempt `number` was answered offline: it draws nothing. (If a later attempt has already
    /// drawn past it, its draws are dropped: at an outage's edge the order can be off by one.) O(1).
    public mutating func skip(_ number: Int) {
        if number >= next {
            if number < next + Self.horizon { skipped.insert(number) }
        } else {
            ahead[number] = nil
        }
    }

    /// The draws of the next attempt number, whoever asks.
    private mutating func drawNext(on network: NetworkProfile) -> Int64 {
        while skipped.remove(next) != nil { next += 1 }
        next += 1
        return draws.delayToFirstByte(on: network)
    }
}

extension AttemptDraws {
    /// The delay before a download's first byte when its lost attempts are played out at once:
    /// the retry timeout for each loss, then a round trip; after the app's last retry is lost, one
    /// more round trip. O(retries).
    public mutating func delayToFirstByte(on network: NetworkProfile) -> Int64 {
        var delay: Int64 = 0
        for _ in 0...network.maxRetries {
            switch next(on: network) {
            case let .roundTrip(roundTrip): return delay + roundTrip
            case .lost: delay += network.retryTimeout
            }
        }
        return delay + roundTrip(on: network)
    }
}
