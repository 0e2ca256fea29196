import DequeModule

/// The downlink's bottleneck: a drop-tail buffer of `capacity` wire bytes whose bytes leave
/// first in, first out on the link's service schedule. It knows what it holds, whose bytes they
/// are, when each leaves and how long a newcomer waits; what enters it the senders decide, and
/// what a round loses at its door `RoundLoss` does. Its state stands as of its last service
/// (`servedTo`): the network serves it up to each event, so looking between events changes
/// nothing.
struct Bottleneck: Sendable {
    /// Whose bytes a chunk holds: a response's (its exchange's id) or a connection's TLS flight
    /// (the connection's id).
    enum Owner: Hashable, Sendable {
        case response(exchange: Int)
        case flight(connection: Int)
    }

    /// Wire bytes of one round of one owner, queued in arrival order.
    struct Chunk: Sendable {
        var owner: Owner
        var wire: Double
    }

    /// What it holds, in arrival order.
    private(set) var chunks = Deque<Chunk>()
    /// Their total, in wire bytes.
    private(set) var queuedWire = 0.0
    /// The time it was last served to.
    private(set) var servedTo: Int64 = 0
    /// When what it holds leaves.
    let schedule: ServiceSchedule
    /// Its size in wire bytes: the network's buffer of full packets.
    let capacity: Double

    init(schedule: ServiceSchedule, packets: Int, packetWire: Double) {
        self.schedule = schedule
        capacity = Double(packets) * packetWire
    }

    /// How long a byte arriving now waits behind what is queued. O(1).
    var queueDelay: Int64 { schedule.wait(behind: queuedWire, from: servedTo) }

    /// When the first `wire` bytes queued will have left, counted from the last service. O(1).
    func departure(after wire: Double) -> Int64 { schedule.departure(of: wire, from: servedTo) }

    /// When the chunk at the head will have left; `nil` when nothing is queued. O(1).
    var nextDeparture: Int64? { chunks.first.map { departure(after: $0.wire) } }

    /// The wire bytes the link serves from the last service to `time`. O(1).
    func budget(to time: Int64) -> Double { schedule.capacity(from: servedTo, to: time) }

    /// Queues `wire` bytes of `owner`'s round behind what is there. Amortized O(1).
    mutating func enqueue(_ wire: Double, of owner: Owner) {
        chunks.append(Chunk(owner: owner, wire: wire))
        queuedWire += wire
    }

    /// Drops everything queued (the app was killed). O(chunks).
    mutating func empty() {
        chunks.removeAll()
        queuedWire = 0
    }

    /// Serves the queue from `servedTo` to `time`, chunk by chunk, telling `served` of each part
    /// that left: its owner, its wire bytes, and whether it was its chunk's last. A chunk leaves
    /// whole only at its departure time (`departure` rounds up). O(chunks served).
    mutating func serve(to time: Int64, _ served: (_ owner: Owner, _ wire: Double, _ chunkLeft: Bool) -> Void) {
        guard time > servedTo else { return }
        var budget = budget(to: time)
        while budget > 0, let head = chunks.first {
            let part = min(budget, head.wire)
            budget -= part
            // A residue the schedule forgives leaves with its chunk.
            let left = head.wire - part > schedule.residue ? head.wire - part : 0
            let leaving = left > 0 ? part : head.wire
            queuedWire = max(0, queuedWire - leaving)
            if left > 0 {
                chunks[chunks.startIndex].wire = left
            } else {
                chunks.removeFirst()
            }
            served(head.owner, leaving, left == 0)
        }
        if chunks.isEmpty { queuedWire = 0 }
        servedTo = time
    }

    /// A downlink control packet (a SYN-ACK) sent at `now`, `delay` from the client: it waits
    /// behind the queued bytes; it is lost when the buffer is full or by random loss (`loss`), and
    /// then comes again after `lossTimeout` (doubling: the client's SYN is retransmitted). O(1)
    /// per loss.
    func controlArrival(at now: Int64, delay: Int64, loss: Double, lossTimeout: Int64,
                        drawing generator: inout SeededGenerator) -> Int64 {
        var arrival = now + queueDelay + delay
        var timeout = lossTimeout
        if queuedWire + SimulatedNetwork.Sizes.headers > capacity {
            arrival = now + timeout + delay
            timeout *= 2
        }
        while loss > 0 && generator.chance(loss) {
            arrival += timeout
            timeout *= 2
        }
        return arrival
    }
}
