/// The uplink: a FIFO on the uplink's service schedule (a fixed rate or a recording) that every
/// client message (a SYN, a ClientHello, a request, an RST_STREAM) waits in behind the ones
/// before it, then crosses the uplink delay; a lost message comes again after its sender's
/// timeout, doubling each time. It also draws a request's jitter: the extra one-way delay of a
/// network whose delay is a range.
struct Uplink: Sendable {
    /// The rate of a fixed uplink.
    let bitsPerSecond: Int64
    /// A recorded uplink's service (`.recorded`), or `nil` for a fixed one.
    let recording: ServiceSchedule?
    let delay: Int64
    let loss: Double
    /// The downlink's one-way delay range: a request's answer comes up to its width later.
    let downlinkDelay: ClosedRange<Int64>
    /// A fixed link is busy until then.
    private(set) var freeAt: Int64 = 0
    /// A recorded link's wire bytes not yet served at `servedTo`.
    private var backlog = 0.0
    private var servedTo: Int64 = 0

    /// The uplink of `network`, on `recording` when it has one.
    init(network: NetworkProfile, recording: ServiceSchedule?) {
        bitsPerSecond = network.uplinkBitsPerSecond
        self.recording = recording
        delay = network.uplinkDelay
        loss = network.uplinkLoss
        downlinkDelay = network.oneWayDelay
    }

    /// When a message of `wireBytes` sent at `now` reaches the server: after the messages
    /// before it, its own serialization (on a recording: the opportunity that serves its last
    /// byte) and the delay, plus `lossTimeout` (doubling) for every time it is lost. O(1) per
    /// loss.
    mutating func arrival(of wireBytes: Double, sentAt now: Int64, lossTimeout: Int64,
                          drawing generator: inout SeededGenerator) -> Int64 {
        let departure: Int64
        if let recording {
            let start = max(now, servedTo)
            backlog = max(0, backlog - recording.capacity(from: servedTo, to: start)) + wireBytes
            servedTo = start
            departure = recording.departure(of: backlog, from: start)
        } else {
            let start = max(now, freeAt)
            freeAt = start + Int64((wireBytes * 8e9 / Double(bitsPerSecond)).rounded(.up))
            departure = freeAt
        }
        var arrival = departure + delay
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
