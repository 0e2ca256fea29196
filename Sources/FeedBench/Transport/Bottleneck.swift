import DequeModule

/// The downlink's bottleneck: a drop-tail buffer whose wire bytes leave first in, first out at
/// the link's rate. It knows what it holds, when each byte of it leaves and how long a newcomer
/// waits; what enters it, what is lost at its door and whose bytes it serves, the network
/// (`SimulatedNetwork`) decides. Its state stands as of its last service (`servedTo`): the
/// network serves it up to each event, so looking between events changes nothing.
struct Bottleneck: Sendable {
    /// Wire bytes of one round of one exchange, queued in arrival order.
    struct Chunk: Sendable {
        var exchange: Int
        var wire: Double
    }

    /// What it holds, in arrival order.
    private(set) var chunks = Deque<Chunk>()
    /// Their total, in wire bytes.
    private(set) var queuedWire = 0.0
    /// The time it was last served to.
    private(set) var servedTo: Int64 = 0
    /// Wire bytes served a nanosecond: the downlink's rate.
    let wirePerNanosecond: Double
    /// Its size in wire bytes: the network's buffer of full packets.
    let capacity: Double

    init(bitsPerSecond: Int64, packets: Int, packetWire: Double) {
        wirePerNanosecond = Double(bitsPerSecond) / 8e9
        capacity = Double(packets) * packetWire
    }

    /// How long a byte arriving now waits behind what is queued. O(1).
    var queueDelay: Int64 { Int64(queuedWire / wirePerNanosecond) }

    /// When the first `wire` bytes queued will have left, counted from the last service. O(1).
    func departure(after wire: Double) -> Int64 { servedTo + Int64((wire / wirePerNanosecond).rounded(.up)) }

    /// When the chunk at the head will have left; `nil` when nothing is queued. O(1).
    var nextDeparture: Int64? { chunks.first.map { departure(after: $0.wire) } }

    /// The wire bytes the link serves from the last service to `time`. O(1).
    func budget(to time: Int64) -> Double { wirePerNanosecond * Double(max(0, time - servedTo)) }

    /// Queues `wire` bytes of `exchange`'s round behind what is there. Amortized O(1).
    mutating func enqueue(_ wire: Double, of exchange: Int) {
        chunks.append(Chunk(exchange: exchange, wire: wire))
        queuedWire += wire
    }

    /// Drops everything queued (the app was killed). O(chunks).
    mutating func empty() {
        chunks.removeAll()
        queuedWire = 0
    }

    /// Serves the queue from `servedTo` to `time`, chunk by chunk, telling `served` of each part
    /// that left: its exchange, its wire bytes, and whether it was its chunk's last. A chunk
    /// leaves whole only at its departure time (`departure` rounds up). O(chunks served).
    mutating func serve(to time: Int64, _ served: (_ exchange: Int, _ wire: Double, _ chunkLeft: Bool) -> Void) {
        guard time > servedTo else { return }
        var budget = budget(to: time)
        while budget > 0, let head = chunks.first {
            let part = min(budget, head.wire)
            budget -= part
            let left = head.wire - part
            queuedWire = max(0, queuedWire - part)
            if left > 0 {
                chunks[chunks.startIndex].wire = left
            } else {
                chunks.removeFirst()
            }
            served(head.exchange, part, left == 0)
        }
        if chunks.isEmpty { queuedWire = 0 }
        servedTo = time
    }
}
