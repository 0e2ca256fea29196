/// What a sender's round loses at the bottleneck's door: what overflows the drop-tail buffer as
/// the round arrives, and what random loss strikes. Payload bytes enter as segments of
/// `segment` bytes, each carrying `SimulatedNetwork.Sizes.headers` more on the wire.
struct RoundLoss: Sendable, Equatable {
    /// Wire bytes lost, and packets: in the round, and the index of the first lost.
    var wire: Double
    var packets: Int
    var first: Int
    /// The packets that entered the buffer before the first loss.
    var beforeLoss: Int
    /// A burst's loss: its tail, with nothing of it after.
    var tailDrop: Bool
}

extension Bottleneck {
    /// The losses of a round of `bytes` entering the buffer at `now` when it holds
    /// `queuedBefore`: the buffer's peak while the round arrives — all of a burst; a slow-start
    /// round, clocked by acknowledgements, arrives at twice the rate it drains; a
    /// congestion-avoidance round adds what exceeds the link's service over the round trip it
    /// arrives in (`baseRoundTrip` from `now`: on a recorded link, what the recording serves
    /// then) — beyond the buffer is lost, then random loss strikes each packet with probability
    /// `randomLoss`. O(packets) with random loss, else O(1).
    func loss(ofRound bytes: Double, at now: Int64, burst: Bool, slowStart: Bool, queuedBefore: Double, segment: Double,
              baseRoundTrip: Int64, randomLoss: Double, drawing generator: inout SeededGenerator) -> RoundLoss {
        let packetWire = segment + SimulatedNetwork.Sizes.headers
        let wire = bytes * (packetWire / segment)
        let rise = burst ? wire
            : slowStart ? wire / 2
            : wire - min(wire, schedule.capacity(from: now, to: now + baseRoundTrip))
        let peak = queuedBefore + rise
        var lostWire = peak > capacity ? min(wire, max(packetWire, peak - capacity)) : 0
        let packets = Int((bytes / segment).rounded(.up))
        // A burst loses its tail; a clocked round loses packets among those that get through
        // (every other one once the buffer is full).
        let tailDrop = burst && lostWire > 0
        var first = lostWire > 0 ? (tailDrop ? packets - Int((lostWire / packetWire).rounded(.up)) : 0) : packets
        // The buffer fills as the round rises toward its peak: what came before is not lost.
        var beforeLoss = lostWire == 0 ? packets
            : tailDrop ? first : Int(Double(packets) * max(0, capacity - queuedBefore) / max(rise, 1))
        if randomLoss > 0 {
            for packet in 0..<packets where generator.chance(randomLoss) {
                lostWire += packetWire
                first = min(first, packet)
                beforeLoss = min(beforeLoss, packet)
            }
            lostWire = min(lostWire, wire)
        }
        return RoundLoss(wire: lostWire, packets: packets, first: first, beforeLoss: min(beforeLoss, packets), tailDrop: tailDrop)
    }
}
