import Testing
@testable import FeedBench

/// HTTP/2 over the simulated network: one connection a host, its responses multiplexed as
/// streams sharing the connection's window and rounds, urgent streams first, resets that keep
/// the connection, flow-control windows.
@Suite struct HTTP2StreamsTests {
    static func http2(_ profile: NetworkProfile) -> NetworkProfile {
        var network = profile
        network.http = .http2
        return network
    }

    /// Runs the network until it has nothing left to do; when each payload arrived, by payload.
    static func finishTimes(_ network: SimulatedNetwork) -> [SimulatedNetwork.Payload: Int64] {
        var arrivals: [SimulatedNetwork.Payload: Int64] = [:]
        while let time = network.nextTime() {
            for payload in network.takeDelivered(at: time) { arrivals[payload] = time }
        }
        return arrivals
    }

    static func image(_ url: Int) -> SimulatedNetwork.Payload { .image(url: UInt64(url), serial: url) }

    @Test func oneStreamAtATimeTakesWhatHTTP11TakesOnOneConnection() {
        // Requests made one after another's end: HTTP/1.1 reuses its one connection, HTTP/2
        // carries each as the connection's only stream. Lossy and lossless networks, several
        // seeds: the same times, to the nanosecond.
        for profile in [NetworkProfile.wifi, .lte, .threeG, .veryBad] {
            for seed: UInt64 in 1...4 {
                func times(_ network: NetworkProfile) -> [Int64] {
                    let simulated = SimulatedNetwork(network: network, seed: seed)
                    var now: Int64 = 0, times: [Int64] = []
                    for url in 1...5 {
                        simulated.send(Self.image(url), to: .images, responseBytes: Int64(url) * 70_000, at: now)
                        now = Self.finishTimes(simulated)[Self.image(url)]!
                        times.append(now)
                    }
                    return times
                }
                #expect(times(profile) == times(Self.http2(profile)), "\(profile.name), seed \(seed)")
            }
        }
    }

    @Test func everyRequestToAHostGoesOnItsOneConnectionAndWaitsForItsHandshake() {
        let network = SimulatedNetwork(network: Self.http2(.lte), seed: 1)
        let uses = (1...8).map { network.send(Self.image($0), to: .images, responseBytes: 40_000, at: Int64($0) * 1_000_000) }
        #expect(uses.map(\.opened) == [true] + Array(repeating: false, count: 7))
        #expect(Set(uses.map(\.connection)).count == 1)
        let api = network.send(.api(launch: 0), to: .api, responseBytes: 900, at: 9_000_000)
        #expect(api.opened && api.connection != uses[0].connection, "the API's host has a connection of its own")
        let times = Self.finishTimes(network)
        #expect(times.count == 9)
        // No stream is answered before the handshakes (TCP's and TLS's) and its own request's
        // round trip: three round trips.
        let first = times[Self.image(1)]!
        #expect((2...8).allSatisfy { times[Self.image($0)]! >= 3 * NetworkProfile.lte.baseRoundTrip })
        #expect(first >= 3 * NetworkProfile.lte.baseRoundTrip)
    }

    @Test func anUrgentStreamStartedAfterPrefetchesFinishesFirstOnABusyLink() {
        // Five prefetches of 200 KB each on 3g (780 kbit/s: 10 s of bytes), then a visible cell's
        // 30 KB image: it is served before the prefetches, which are still under way, and far
        // sooner than as a sixth equal share.
        func run(urgent: Bool) -> [SimulatedNetwork.Payload: Int64] {
            let network = SimulatedNetwork(network: Self.http2(.threeG), seed: 1)
            for url in 1...5 { network.send(Self.image(url), to: .images, responseBytes: 200_000, urgent: false, at: 0) }
            var arrivals: [SimulatedNetwork.Payload: Int64] = [:]
            while let time = network.nextTime(), time < 3_000_000_000 {
                for payload in network.takeDelivered(at: time) { arrivals[payload] = time }
            }
            #expect(arrivals.isEmpty, "no prefetch is done 3 s in")
            network.send(Self.image(6), to: .images, responseBytes: 30_000, urgent: urgent, at: 3_000_000_000)
            arrivals.merge(Self.finishTimes(network)) { a, _ in a }
            return arrivals
        }
        let first = run(urgent: true), shared = run(urgent: false)
        let urgent = first[Self.image(6)]!
        #expect((1...5).allSatisfy { first[Self.image($0)]! > urgent })
        #expect(urgent - 3_000_000_000 < (shared[Self.image(6)]! - 3_000_000_000) / 2, "\(urgent) against \(shared[Self.image(6)]!)")
    }

    @Test func aResetStreamFreesItsShareWhenItsResetReachesTheServerOwesOnlyItsLostBytesAndTheConnectionSurvives() {
        func secondFinishes(cancellingFirstAt cancel: Int64?) -> (Int64, SimulatedNetwork) {
            let network = SimulatedNetwork(network: Self.http2(.threeG), seed: 1)
            network.send(Self.image(1), to: .images, responseBytes: 300_000, at: 0)
            network.send(Self.image(2), to: .images, responseBytes: 300_000, at: 0)
            var done: Int64?, cancelled = false
            while done == nil, let time = network.nextTime() {
                if let cancel, !cancelled, time >= cancel {
                    #expect(network.cancel(Self.image(1), at: cancel) > 0)
                    cancelled = true
                    continue
                }
                if network.takeDelivered(at: time).contains(Self.image(2)) { done = time }
            }
            return (done!, network)
        }
        let (shared, _) = secondFinishes(cancellingFirstAt: nil)
        let (alone, network) = secondFinishes(cancellingFirstAt: 2_000_000_000)
        #expect(alone < shared - 1_000_000_000, "the reset stream's share went to the other: \(alone) against \(shared)")
        // The connection stayed open: the next request reuses it.
        let next = network.send(Self.image(3), to: .images, responseBytes: 10_000, at: alone + 1)
        #expect(!next.opened && next.connection == 1)

        // Until the RST_STREAM has crossed the uplink the server still sends the reset stream's
        // bytes (the app never gets them); from then on it owes only what it sent and lost.
        // Either way the reset stream leaves, never delivered, the other arrives, and nothing is
        // left behind (`endsClean`).
        func resetMidStream(on profile: NetworkProfile) -> (beforeArrival: Double, afterArrival: Double, endsClean: Bool) {
            let sending = SimulatedNetwork(network: profile, seed: 1)
            sending.send(Self.image(1), to: .images, responseBytes: 300_000, at: 0)
            sending.send(Self.image(2), to: .images, responseBytes: 300_000, at: 0)
            _ = sending.takeDelivered(at: 2_000_000_000)
            sending.cancel(Self.image(1), at: 2_000_000_000)
            func owed() -> Double { sending.exchanges.filter { $0.payload == .discarded }.map { $0.response?.unsent ?? 0 }.reduce(0, +) }
            let arrival = 2_000_000_000 + profile.uplinkDelay
            _ = sending.takeDelivered(at: arrival - 1_000_000)
            let before = owed()
            _ = sending.takeDelivered(at: arrival + 5_000_000)
            let after = owed()
            let finished = Self.finishTimes(sending)
            return (before, after, !finished.keys.contains(Self.image(1)) && finished.keys.contains(Self.image(2)) && sending.exchanges.isEmpty)
        }
        // 3g's 50-packet buffer: by 2 s the launch's slow start has lost bytes of both streams.
        let lossy = resetMidStream(on: Self.http2(.threeG))
        #expect(lossy.beforeArrival > 100_000, "the server has not heard of the reset yet: \(lossy.beforeArrival)")
        #expect(lossy.afterArrival > 0 && lossy.afterArrival < 30_000,
                "the reset reached the server: TCP still sends the stream's lost bytes again, \(lossy.afterArrival)")
        #expect(lossy.endsClean, "once its lost bytes are repaired")
        // A buffer that never overflows loses nothing: from the reset's arrival nothing is owed.
        var deep = Self.http2(.threeG)
        deep.bufferPackets = 100_000
        let lossless = resetMidStream(on: deep)
        #expect(lossless.beforeArrival > 100_000 && lossless.afterArrival == 0)
        #expect(lossless.endsClean)
    }

    @Test func moreStreamsNeverFinishAGivenStreamSooner() {
        // A buffer that never overflows and no random loss: sharing is all that changes.
        for profile in [NetworkProfile.lte, .threeG, .dsl] {
            var network = Self.http2(profile)
            network.bufferPackets = 100_000
            var last: Int64 = 0
            for others in 0...6 {
                let simulated = SimulatedNetwork(network: network, seed: 1)
                simulated.send(Self.image(1), to: .images, responseBytes: 150_000, at: 0)
                for url in 0..<others { simulated.send(Self.image(10 + url), to: .images, responseBytes: Int64(40_000 + 30_000 * url), at: Int64(url) * 7_000_000) }
                let finished = Self.finishTimes(simulated)[Self.image(1)]!
                #expect(finished >= last, "\(profile.name): with \(others) other streams \(finished), with fewer \(last)")
                last = finished
            }
        }
    }

    @Test func aStreamNeverHasMoreThanItsFlowControlWindowUnread() {
        // lte's bandwidth × delay is about 700 KB: a 65,535-byte stream window holds a lone
        // 1 MB download to a window a round trip, where iOS's 2 MiB does not hold it at all.
        var small = Self.http2(.lte)
        small.streamWindowBytes = 65_535
        var large = Self.http2(.lte)
        large.bufferPackets = 1_000
        small.bufferPackets = 1_000
        func alone(_ network: NetworkProfile) -> Int64 {
            let simulated = SimulatedNetwork(network: network, seed: 1)
            simulated.send(Self.image(1), to: .images, responseBytes: 1_000_000, at: 0)
            return Self.finishTimes(simulated)[Self.image(1)]!
        }
        let rounds = Double(1_000_000) / 65_535
        #expect(Double(alone(small)) >= rounds * Double(NetworkProfile.lte.baseRoundTrip) * 0.9)
        #expect(alone(large) < alone(small) * 2 / 3)
        var plain = NetworkProfile.lte
        plain.bufferPackets = 1_000
        #expect(alone(large) == alone(plain), "a window above the response changes nothing")
    }

    @Test func theStreamsTogetherNeverHaveMoreThanTheConnectionsWindowUnread() {
        // Four 250 KB downloads at once, each far inside its 2 MiB stream window: a connection
        // window of 65,535 bytes holds the four together to about that a round trip, where
        // iOS's 10 MiB holds nothing.
        func lastFinish(connectionWindow: Int?) -> Int64 {
            var network = Self.http2(.lte)
            network.bufferPackets = 1_000
            if let connectionWindow { network.connectionWindowBytes = connectionWindow }
            let simulated = SimulatedNetwork(network: network, seed: 1)
            for url in 1...4 { simulated.send(Self.image(url), to: .images, responseBytes: 250_000, at: 0) }
            let times = Self.finishTimes(simulated)
            #expect(times.count == 4)
            return times.values.max()!
        }
        let small = lastFinish(connectionWindow: 65_535)
        let rounds = Double(1_000_000) / 65_535
        #expect(Double(small) >= rounds * Double(NetworkProfile.lte.baseRoundTrip) * 0.9, "\(small)")
        let iOS = lastFinish(connectionWindow: nil)
        #expect(iOS < small * 2 / 3, "\(iOS) against \(small)")
        #expect(iOS == lastFinish(connectionWindow: 2_147_483_647), "a window above the responses changes nothing")
    }

    @Test func overManySeedsEveryStreamNotResetArrivesOnceAndNothingIsLeft() {
        // Requests and resets at random times, urgent or not, on every preset: when the network
        // has nothing more to do, every stream not reset has arrived exactly once, and no
        // exchange, queued byte or open stream is left behind.
        for seed: UInt64 in 1...100 {
            var random = SeededGenerator(seed: seed, stream: 7)
            let profile = NetworkProfile.builtIn[Int(random.next(below: UInt64(NetworkProfile.builtIn.count)))]
            let network = SimulatedNetwork(network: Self.http2(profile), seed: seed)
            var now: Int64 = 0, sent: [Int] = [], reset: Set<Int> = [], arrived: [SimulatedNetwork.Payload] = []
            for url in 1...30 {
                now += random.next(in: 0...400_000_000)
                arrived += network.takeDelivered(at: now)
                if random.chance(0.3), let victim = sent.filter({ !reset.contains($0) && !arrived.contains(Self.image($0)) }).last {
                    network.cancel(Self.image(victim), at: now)
                    reset.insert(victim)
                }
                network.send(Self.image(url), to: .images, responseBytes: Int64(random.next(in: 1_000...300_000)), urgent: random.chance(0.5), at: now)
                sent.append(url)
            }
            while let time = network.nextTime() { arrived += network.takeDelivered(at: time) }
            let expected = sent.filter { !reset.contains($0) }.map(Self.image)
            #expect(Set(arrived) == Set(expected) && arrived.count == expected.count,
                    "seed \(seed) on \(profile.name): missing \(Set(expected).subtracting(arrived)), extra \(Set(arrived).subtracting(expected))")
            #expect(network.exchanges.isEmpty && network.bottleneck.queuedWire == 0, "seed \(seed) on \(profile.name)")
            #expect(network.connections.allSatisfy { $0.isClosed || $0.streams == 0 }, "seed \(seed) on \(profile.name)")
        }
    }

    @Test func theSameSeedGivesTheSameTimesWithManyStreamsAndLoss() {
        func run() -> [SimulatedNetwork.Payload: Int64] {
            let network = SimulatedNetwork(network: Self.http2(.veryBad), seed: 9)
            for url in 1...12 { network.send(Self.image(url), to: .images, responseBytes: Int64(url) * 25_000, urgent: url % 3 == 0, at: Int64(url) * 50_000_000) }
            _ = network.takeDelivered(at: 4_000_000_000)
            network.cancel(Self.image(4), at: 4_000_000_000)
            network.cancel(Self.image(5), at: 4_000_000_000)
            return Self.finishTimes(network)
        }
        let first = run()
        #expect(first.count == 10 && first == run())
    }
}
