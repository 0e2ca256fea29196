import Testing
@testable import FeedBench

/// HTTP/2's share of a round among a connection's streams: the urgent ones first; within an
/// urgency equally, a stream that needs less giving the rest to the others; nothing beyond a
/// stream's claim or the connection's room; a reset stream only what leaves before its
/// RST_STREAM arrives.
@Suite struct StreamSchedulerTests {
    typealias Demand = StreamScheduler.Demand

    static func demand(_ stream: Int, _ bytes: Double, urgent: Bool = true, beforeReset: Double? = nil) -> Demand {
        Demand(stream: stream, id: stream, urgent: urgent, bytes: bytes, beforeReset: beforeReset)
    }

    static func share(_ bytes: Double, _ demands: [Demand], room: Double = .infinity) -> (given: Double, parts: [Int: Double]) {
        var scheduler = StreamScheduler()
        scheduler.startRound()
        for demand in demands { scheduler.demand(demand) }
        let given = scheduler.share(bytes, room: room)
        return (given, Dictionary(uniqueKeysWithValues: scheduler.shares.map { ($0.stream, $0.bytes) }))
    }

    @Test func equalSharesWithinAnUrgencyAndWhatOneNeedsLessGoesToTheOthers() {
        let even = Self.share(30_000, [Self.demand(1, 50_000), Self.demand(2, 50_000), Self.demand(3, 50_000)])
        #expect(even.given == 30_000 && even.parts == [1: 10_000, 2: 10_000, 3: 10_000])
        let small = Self.share(30_000, [Self.demand(1, 50_000), Self.demand(2, 4_000), Self.demand(3, 50_000)])
        #expect(small.given == 30_000 && small.parts == [1: 13_000, 2: 4_000, 3: 13_000])
        let enough = Self.share(30_000, [Self.demand(1, 5_000), Self.demand(2, 4_000)])
        #expect(enough.given == 9_000 && enough.parts == [1: 5_000, 2: 4_000])
    }

    @Test func urgentStreamsAreServedBeforeTheOthers() {
        let shared = Self.share(30_000, [Self.demand(1, 50_000, urgent: false), Self.demand(2, 20_000), Self.demand(3, 50_000, urgent: false)])
        #expect(shared.parts == [2: 20_000, 1: 5_000, 3: 5_000])
        let starved = Self.share(10_000, [Self.demand(1, 50_000, urgent: false), Self.demand(2, 20_000)])
        #expect(starved.parts[2] == 10_000 && (starved.parts[1] ?? 0) == 0)
    }

    @Test func theConnectionsRoomCapsTheRound() {
        let capped = Self.share(30_000, [Self.demand(1, 50_000), Self.demand(2, 50_000)], room: 8_000)
        #expect(capped.given == 8_000 && capped.parts == [1: 4_000, 2: 4_000])
        let none = Self.share(30_000, [Self.demand(1, 50_000)], room: -5)
        #expect(none.given == 0)
    }

    @Test func aResetStreamGetsThePartOfItsEqualShareThatLeavesBeforeItsResetArrives() {
        // Half the round leaves before the RST_STREAM reaches the server: of its equal 10,000 the
        // reset stream gets 5,000, and the others share the rest.
        let reset = Self.share(30_000, [Self.demand(1, 50_000), Self.demand(2, 50_000, beforeReset: 0.5), Self.demand(3, 50_000)])
        #expect(reset.given == 30_000 && reset.parts == [2: 5_000, 1: 12_500, 3: 12_500])
        // Once it has arrived it is an ordinary claim (its lost bytes still owed).
        let arrived = Self.share(30_000, [Self.demand(1, 50_000), Self.demand(2, 3_000, beforeReset: 1)])
        #expect(arrived.parts == [2: 3_000, 1: 27_000])
        // Arriving before the round leaves, it gets nothing.
        let gone = Self.share(30_000, [Self.demand(1, 50_000), Self.demand(2, 50_000, beforeReset: 0)])
        #expect(gone.parts == [1: 30_000])
    }

    @Test func onlyPositiveClaimsCountAndTiesGoToTheLowerId() {
        var scheduler = StreamScheduler()
        scheduler.startRound()
        scheduler.demand(Self.demand(1, 0))
        scheduler.demand(Self.demand(2, -3))
        scheduler.demand(Demand(stream: 9, id: 4, urgent: true, bytes: 6_000, beforeReset: nil))
        scheduler.demand(Demand(stream: 8, id: 3, urgent: true, bytes: 6_000, beforeReset: nil))
        #expect(scheduler.share(9_000, room: .infinity) == 9_000)
        #expect(scheduler.shares.map(\.stream) == [8, 9] && scheduler.shares.map(\.bytes) == [4_500, 4_500])
    }

    /// Over many seeds: the round given is never more than asked, the room or the claims; no
    /// stream gets more than its claim; no stream of lower urgency gets anything while an urgent
    /// one wants more; and within an urgency no stream gets less than another unless it wanted
    /// less.
    @Test(arguments: 1...200 as ClosedRange<UInt64>)
    func sharesAreFairAndBounded(seed: UInt64) {
        var random = SeededGenerator(seed: seed, stream: 5)
        let demands = (0..<Int(random.next(in: 1...12))).map { stream in
            Demand(stream: stream, id: Int(random.next(in: 1...1_000)) * 16 + stream, urgent: random.chance(0.5),
                   bytes: Double(random.next(in: 1...200_000)), beforeReset: nil)
        }
        let bytes = Double(random.next(in: 0...600_000)), room = Double(random.next(in: 0...800_000))
        let (given, parts) = Self.share(bytes, demands, room: room)
        let claims = demands.reduce(0) { $0 + $1.bytes }
        #expect(given <= min(bytes, room, claims) + 1e-6)
        #expect(abs(given - parts.values.reduce(0, +)) < 1e-6)
        for demand in demands { #expect((parts[demand.stream] ?? 0) <= demand.bytes + 1e-9) }
        let urgentWantMore = demands.contains { $0.urgent && (parts[$0.stream] ?? 0) < $0.bytes - 1e-6 }
        if urgentWantMore { #expect(demands.allSatisfy { $0.urgent || (parts[$0.stream] ?? 0) == 0 }) }
        for a in demands {
            for b in demands where a.urgent == b.urgent && (parts[a.stream] ?? 0) < (parts[b.stream] ?? 0) - 1e-6 {
                #expect((parts[a.stream] ?? 0) >= a.bytes - 1e-6, "stream \(a.stream) got less than \(b.stream) but wanted more")
            }
        }
    }
}
