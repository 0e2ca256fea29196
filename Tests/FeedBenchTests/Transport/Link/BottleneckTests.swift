import Testing
@testable import FeedBench

/// The downlink's buffer serves its wire bytes first in, first out at the link's rate, a chunk
/// leaving whole only at its departure time, and serving it in steps or at once comes to the
/// same.
@Suite struct BottleneckTests {
    /// 8 Mbit/s: one wire byte a microsecond; 10 packets of 1,500 wire bytes.
    static func link() -> Bottleneck { Bottleneck(schedule: ServiceSchedule(bitsPerSecond: 8_000_000), packets: 10, packetWire: 1_500) }

    /// Owners 0–3: two responses and two connections' flights.
    static func owner(_ index: Int) -> Bottleneck.Owner { index < 2 ? .response(exchange: index) : .flight(connection: index) }
    static func index(_ owner: Bottleneck.Owner) -> Int {
        switch owner {
        case let .response(exchange): exchange
        case let .flight(connection): connection
        }
    }

    @Test func servesFirstInFirstOutAtTheLinksRate() {
        var bottleneck = Self.link()
        #expect(bottleneck.capacity == 15_000 && bottleneck.nextDeparture == nil && bottleneck.queueDelay == 0)
        bottleneck.enqueue(1_000, of: .response(exchange: 1))
        bottleneck.enqueue(500, of: .flight(connection: 2))
        #expect(bottleneck.queueDelay == 1_500_000 && bottleneck.nextDeparture == 1_000_000)
        var served: [(Bottleneck.Owner, Double, Bool)] = []
        bottleneck.serve(to: 600_000) { served.append(($0, $1, $2)) }
        #expect(served.count == 1 && served[0] == (.response(exchange: 1), 600, false))
        #expect(bottleneck.queuedWire == 900 && bottleneck.queueDelay == 900_000 && bottleneck.nextDeparture == 1_000_000)
        served.removeAll()
        bottleneck.serve(to: 1_200_000) { served.append(($0, $1, $2)) }
        #expect(served.count == 2 && served[0] == (.response(exchange: 1), 400, true) && served[1] == (.flight(connection: 2), 200, false))
        #expect(bottleneck.nextDeparture == 1_500_000 && bottleneck.budget(to: 1_500_000) == 300)
        bottleneck.empty()
        #expect(bottleneck.queuedWire == 0 && bottleneck.nextDeparture == nil && bottleneck.servedTo == 1_200_000)
    }

    @Test func aChunkLeavesWholeOnlyAtItsDepartureTime() {
        // 1,000 wire bytes at 3 Mbit/s take 2,666,666.67 ns: rounded up, the departure is the
        // first whole nanosecond by which all of it has gone.
        var bottleneck = Bottleneck(schedule: ServiceSchedule(bitsPerSecond: 3_000_000), packets: 10, packetWire: 1_500)
        bottleneck.enqueue(1_000, of: .response(exchange: 7))
        let departure = bottleneck.nextDeparture!
        #expect(departure == 2_666_667)
        var before = bottleneck
        var left = false
        before.serve(to: departure - 1) { _, _, chunkLeft in left = left || chunkLeft }
        #expect(!left && before.chunks.count == 1)
        bottleneck.serve(to: departure) { _, _, chunkLeft in left = left || chunkLeft }
        #expect(left && bottleneck.chunks.isEmpty && bottleneck.queuedWire == 0)
    }

    /// Over many seeds: chunks of random sizes and owners enqueued at random times, served once
    /// at each event or in many small steps between them, credit every exchange the same bytes,
    /// and the credited bytes and those still queued add up to what was enqueued.
    @Test(arguments: 1...40 as ClosedRange<UInt64>)
    func servingInStepsOrAtOnceComesToTheSame(seed: UInt64) {
        var random = SeededGenerator(seed: seed, stream: 3)
        var once = Self.link(), steps = Self.link()
        var creditedOnce = [Double](repeating: 0, count: 4), creditedSteps = [Double](repeating: 0, count: 4)
        var leftOnce = 0, leftSteps = 0
        var enqueued = 0.0
        var now: Int64 = 0
        for _ in 0..<200 {
            let next = now + random.next(in: 0...3_000_000)
            var time = now
            while time < next {
                time = min(next, time + random.next(in: 1...400_000))
                steps.serve(to: time) { owner, wire, chunkLeft in
                    creditedSteps[Self.index(owner)] += wire
                    if chunkLeft { leftSteps += 1 }
                }
            }
            once.serve(to: next) { owner, wire, chunkLeft in
                creditedOnce[Self.index(owner)] += wire
                if chunkLeft { leftOnce += 1 }
            }
            now = next
            let wire = Double(random.next(in: 1...6_000))
            let owner = Self.owner(Int(random.next(below: 4)))
            once.enqueue(wire, of: owner)
            steps.enqueue(wire, of: owner)
            enqueued += wire
        }
        #expect(leftOnce == leftSteps && once.chunks.count == steps.chunks.count)
        for exchange in 0..<4 { #expect(abs(creditedOnce[exchange] - creditedSteps[exchange]) < 1e-6 * enqueued) }
        #expect(abs(creditedOnce.reduce(0, +) + once.queuedWire - enqueued) < 1e-6 * enqueued)
        #expect(abs(once.queuedWire - once.chunks.reduce(0) { $0 + $1.wire }) < 1e-6 * enqueued)
    }

    /// On a recorded link a chunk a hair over whole opportunities (its wire bytes are sums of
    /// fractions of segments) leaves at the opportunity that serves its whole packets: nothing of
    /// it is left to wait, and the queue empties.
    @Test func onARecordingAChunkAHairOverWholeOpportunitiesLeavesWhole() {
        let trace = DeliveryTrace(path: "1", milliseconds: [1])
        var bottleneck = Bottleneck(schedule: .recorded(trace, offset: 0), packets: 10, packetWire: 1_500)
        bottleneck.enqueue(3_000 * (1 + 1e-13), of: .response(exchange: 0))
        bottleneck.enqueue(100, of: .response(exchange: 1))
        #expect(bottleneck.nextDeparture == 2_000_000)
        var served: [(Bottleneck.Owner, Bool)] = []
        bottleneck.serve(to: 2_000_000) { owner, _, left in served.append((owner, left)) }
        #expect(served.count == 1 && served[0] == (.response(exchange: 0), true))
        #expect(bottleneck.nextDeparture == 3_000_000 && bottleneck.queuedWire == 100)
        bottleneck.serve(to: 3_000_000) { owner, _, left in served.append((owner, left)) }
        #expect(bottleneck.nextDeparture == nil && bottleneck.queuedWire == 0)
    }
}
