import Testing
@testable import FeedBench

/// Every client message waits in one FIFO at the uplink's rate, then crosses its delay; a lost
/// one comes again after its sender's timeout, doubling; a network whose delay is a range draws
/// each request's jitter within it.
@Suite struct UplinkTests {
    @Test func messagesQueueBehindEachOtherAtTheUplinksRate() {
        var network = NetworkProfile.lte
        network.uplinkBitsPerSecond = 8_000_000
        var uplink = Uplink(network: network, recording: nil)
        var generator = SeededGenerator(seed: 1, stream: 1)
        // 1,000 bytes at 8 Mbit/s: 1 ms each, then the 65 ms delay.
        let first = uplink.arrival(of: 1_000, sentAt: 0, lossTimeout: 1_000_000_000, drawing: &generator)
        let second = uplink.arrival(of: 1_000, sentAt: 0, lossTimeout: 1_000_000_000, drawing: &generator)
        let later = uplink.arrival(of: 1_000, sentAt: 10_000_000, lossTimeout: 1_000_000_000, drawing: &generator)
        #expect(first == 66_000_000 && second == 67_000_000 && later == 76_000_000 && uplink.freeAt == 11_000_000)
        #expect(uplink.jitter(drawing: &generator) == 0, "a fixed delay has no jitter")
    }

    @Test func aLostMessageComesAgainAfterTheTimeoutDoubling() {
        var network = NetworkProfile.lte
        network.uplinkLoss = 0.5
        var uplink = Uplink(network: network, recording: nil)
        var generator = SeededGenerator(seed: 7, stream: 1)
        var seen = Set<Int64>()
        for _ in 0..<200 {
            let start = uplink.freeAt
            let arrival = uplink.arrival(of: 100, sentAt: start, lossTimeout: 1_000, drawing: &generator)
            seen.insert(arrival - uplink.freeAt - network.uplinkDelay)
        }
        // The extra wait is 0, 1, 1 + 2, 1 + 2 + 4, … timeouts.
        #expect(seen.contains(0) && seen.contains(1_000) && seen.contains(3_000))
        #expect(seen.allSatisfy { ($0 / 1_000 + 1) & ($0 / 1_000) == 0 && $0 % 1_000 == 0 })
    }

    @Test func jitterIsDrawnWithinTheDelaysRange() {
        var network = NetworkProfile.wifi
        network.oneWayDelay = 1_000_000...31_000_000
        let uplink = Uplink(network: network, recording: nil)
        var generator = SeededGenerator(seed: 3, stream: 1)
        let draws = (0..<500).map { _ in uplink.jitter(drawing: &generator) }
        #expect(draws.allSatisfy { (0...30_000_000).contains($0) } && Set(draws).count > 400)
    }
}
