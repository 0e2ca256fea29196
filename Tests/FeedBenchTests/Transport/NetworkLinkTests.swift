import Testing
@testable import FeedBench

/// Concurrent downloads share the bandwidth equally and speed up when one ends.
@Suite struct NetworkLinkTests {
    // 8 Mbit/s = 1 byte per microsecond = 0.001 byte/ns.
    let network = NetworkProfile(name: "test", bitsPerSecond: 8_000_000, oneWayDelay: 0...0)

    @Test func aLoneTransferGetsTheWholeLink() {
        var link = NetworkLink(network: network)
        link.start(1, bytes: 1_000, at: 0)
        #expect(link.nextFinish() == 1_000_000)
        #expect(link.takeFinished(at: 1_000_000) == [1])
    }

    @Test func twoTransfersShareAndTheSurvivorSpeedsUp() {
        var link = NetworkLink(network: network)
        link.start(1, bytes: 1_000, at: 0)
        link.start(2, bytes: 3_000, at: 0)
        // Each gets half: transfer 1 ends at 2 ms, having let 2 move 1,000 bytes.
        #expect(link.nextFinish() == 2_000_000)
        #expect(link.takeFinished(at: 2_000_000) == [1])
        // 2,000 bytes left at the full rate: 2 ms more.
        #expect(link.nextFinish() == 4_000_000)
        #expect(link.bytesReceived == 1_000)
    }

    @Test func cancellingChangesTheGenerationAndFreesBandwidth() {
        var link = NetworkLink(network: network)
        link.start(1, bytes: 1_000, at: 0)
        link.start(2, bytes: 1_000, at: 0)
        let generation = link.generation
        link.cancel(2, at: 500_000)
        #expect(link.generation != generation)
        // 1 had 750 bytes left at 0.5 ms; alone it needs 0.75 ms more.
        #expect(link.nextFinish() == 1_250_000)
    }
}
