/// The uplink: a FIFO at the uplink rate that every client message (a SYN, a ClientHello, a
/// request, an RST_STREAM) waits in behind the ones before it, then crosses the uplink delay; a
/// lost message comes again after its sender's timeout, doubling each time. It also draws a
/// request's jitter: the extra one-way delay of a network whose delay is a range.
struct Uplink: Sendable {
    let bitsPerSecond: Int64
    let delay: Int64
    let loss: Double
    /// The downlink's one-way delay range: a request's answer comes up to its width later.
    let downlinkDelay: ClosedRange<Int64>
    /// The uplink is busy until then.
    private(set) var freeAt: Int64 = 0

    init(network: NetworkProfile) {
        bitsPerSecond = network.uplinkBitsPerSecond
        delay = network.uplinkDelay
        loss = network.uplinkLoss
        downlinkDelay = network.oneWayDelay
    }

    /// When a message of `wireBytes` sent at `now` reaches the server: after the messages
    /// before it, its own serialization and the delay, plus `lossTimeout` (doubling) for every
    /// time it is lost. O(1) per loss.
    mutating func arrival(of wireBytes: Double, sentAt now: Int64, lossTimeout: Int64,
                          drawing generator: inout SeededGenerator) -> Int64 {
        let start = max(now, freeAt)
        freeAt = start + Int64((wireBytes * 8e9 / Double(bitsPerSecond)).rounded(.up))
        var arrival = freeAt + delay
        var timeout = lossTimeout
        while loss > 0 && generator.chance(loss) {
            arrival += timeout
            timeout *= 2
        }
        return arrival
    }

    /// The extra one-way delay of a request when the network has jitter (none on the presets).
    /// O(1).
    func jitter(drawing generator: inout SeededGenerator) -> Int64 {
        downlinkDelay.lowerBound == downlinkDelay.upperBound ? 0
            : generator.next(in: 0...(downlinkDelay.upperBound - downlinkDelay.lowerBound))
    }
}
