import Testing
@testable import FeedBench

/// The simulated network as TCP behaves: handshakes on new connections only, slow start's round
/// trips, a shared bottleneck whose buffer overflows, connections closed by a cancel, and the
/// feed API's answers queueing behind image data.
@Suite struct SimulatedNetworkTests {
    /// Runs the network until it has nothing left to do; returns when each payload arrived.
    static func finishTimes(_ network: SimulatedNetwork) -> [(SimulatedNetwork.Payload, Int64)] {
        var arrivals: [(SimulatedNetwork.Payload, Int64)] = []
        while let time = network.nextTime() {
            arrivals += network.takeDelivered(at: time).map { ($0, time) }
        }
        return arrivals
    }

    /// One request alone on `profile`, sent at 0 on a fresh network: when its last byte arrives.
    static func alone(_ bytes: Int64, on profile: NetworkProfile, seed: UInt64 = 1) -> Int64 {
        let network = SimulatedNetwork(network: profile, seed: seed)
        network.send(.image(url: 1, serial: 1), to: .images, responseBytes: bytes, at: 0)
        return finishTimes(network).first!.1
    }

    /// A launch on `profile`: six 300 KB images asked for at once (seed 1), overflowing the
    /// buffer together.
    static func launch(on profile: NetworkProfile) -> SimulatedNetwork {
        let network = SimulatedNetwork(network: profile, seed: 1)
        for url in 1...6 { network.send(.image(url: UInt64(url), serial: url), to: .images, responseBytes: 300_000, at: 0) }
        return network
    }

    /// Nanoseconds `bytes` take at `bitsPerSecond`, rounded up as the network rounds.
    static func serialization(_ bytes: Double, _ bitsPerSecond: Int64) -> Int64 { Int64((bytes * 8e9 / Double(bitsPerSecond)).rounded(.up)) }

    @Test func aFreshConnectionPaysTheTCPAndTLSHandshakesBeforeItsRequest() {
        let lte = NetworkProfile.lte.overHTTP11
        let wire = 1_500.0 / 1_448.0
        let sizes = SimulatedNetwork.Sizes.self
        // SYN up, SYN-ACK down; ClientHello up, the server's flight down; the request up, the
        // response (one round: it fits the initial window) down.
        var expected = Self.serialization(sizes.headers, lte.uplinkBitsPerSecond) + lte.uplinkDelay + lte.oneWayDelay.lowerBound
        expected += Self.serialization(sizes.clientHello + sizes.headers, lte.uplinkBitsPerSecond) + lte.uplinkDelay
        expected += Self.serialization(sizes.serverFlight * wire, lte.bitsPerSecond) + lte.oneWayDelay.lowerBound
        expected += Self.serialization(sizes.request + sizes.headers, lte.uplinkBitsPerSecond) + lte.uplinkDelay
        expected += Self.serialization((sizes.responseHeaders + 10_000) * wire, lte.bitsPerSecond) + lte.oneWayDelay.lowerBound
        let took = Self.alone(10_000, on: lte)
        #expect(abs(took - expected) <= 2, "\(took) against \(expected)")
        // Without TLS, one round trip less (and the flight).
        var plain = lte
        plain.tls = false
        #expect(Self.alone(10_000, on: plain) < took - lte.baseRoundTrip)
    }

    @Test func aReusedConnectionSkipsTheHandshakesAndAClosedOneOpensAnew() {
        let network = SimulatedNetwork(network: NetworkProfile.lte.overHTTP11, seed: 1)
        let first = network.send(.image(url: 1, serial: 1), to: .images, responseBytes: 10_000, at: 0)
        let done = Self.finishTimes(network)[0].1
        let second = network.send(.image(url: 2, serial: 2), to: .images, responseBytes: 10_000, at: done)
        #expect(first.opened && !second.opened && second.connection == first.connection)
        let reused = Self.finishTimes(network)[0].1 - done
        #expect(reused < NetworkProfile.lte.overHTTP11.baseRoundTrip + 10_000_000, "one round trip and the bytes: \(reused)")
        // A response cancelled mid-transfer closes its connection (HTTP/1.1): the next request
        // opens a new one, and the API's host has connections of its own.
        let start = done + reused
        let third = network.send(.image(url: 3, serial: 3), to: .images, responseBytes: 500_000, at: start)
        #expect(!third.opened)
        _ = network.takeDelivered(at: start + 300_000_000)
        #expect(network.cancel(.image(url: 3, serial: 3), at: start + 300_000_000) > 0)
        let fourth = network.send(.image(url: 4, serial: 4), to: .images, responseBytes: 1_000, at: start + 300_000_000)
        #expect(fourth.opened && fourth.connection > third.connection)
        let api = network.send(.api(launch: 0), to: .api, responseBytes: 1_000, at: start + 300_000_000)
        #expect(api.opened)
    }

    @Test func slowStartMakesALargeDownloadOnAFreshConnectionTakeRoundTrips() {
        let lte = NetworkProfile.lte.overHTTP11
        // 600 KB at 50 Mbit/s is 100 ms of bytes; slow start from 10 segments needs about six
        // round trips of 115 ms after the three of the handshakes and the request.
        let took = Self.alone(600_000, on: lte)
        #expect(took > 8 * lte.baseRoundTrip, "\(took)")
        var deep = lte
        deep.bufferPackets = 1_000
        let deepTook = Self.alone(600_000, on: deep)
        #expect(deepTook < took, "a buffer that holds slow start's bursts loses nothing: \(deepTook) against \(took)")
    }

    @Test func hyStartKeepsALoneDownloadOnEdgeFromOverflowingTheBuffer() {
        // 600 KB at 240 kbit/s: 20.7 s of wire bytes, and the handshakes' 2.6 s. Slow start left
        // alone overshoots the 50 packets by 37 and ends in a timeout (30.2 s); ns-3's HyStart
        // ends it at 89 segments (23.9 s in ns-3 3.44).
        let edge = NetworkProfile.edge.overHTTP11
        let took = Self.alone(600_000, on: edge)
        let wire = Self.serialization(600_300 * 1_500 / 1_448, edge.bitsPerSecond)
        #expect(took > wire && took < wire + 4 * edge.baseRoundTrip, "\(took)")
    }

    /// (A larger buffer is not always faster, in ns-3 either: slow start overshoots further
    /// before its first loss, and the larger burst of losses can end in a timeout. A buffer that
    /// never overflows is the fastest.)
    @Test func moreBytesNeverArriveSoonerAndNoBufferBeatsOneThatNeverOverflows() {
        for profile in [NetworkProfile.wifi, .dsl, .lte, .threeG, .edge].map(\.overHTTP11) {
            var last: Int64 = 0
            for kilobytes in stride(from: 10, through: 800, by: 30) {
                let took = Self.alone(Int64(kilobytes) * 1_000, on: profile)
                // Within the nanosecond each chunk's departure is rounded up to: on lte, 760 and
                // 790 KB both end with the same retransmission timer, a nanosecond apart.
                #expect(took >= last - 1, "\(profile.name): \(kilobytes) KB took \(took), less than \(last)")
                last = took
            }
            var lossless = profile
            lossless.bufferPackets = 1_000_000
            let fastest = Self.alone(400_000, on: lossless)
            for packets in [10, 25, 50, 100, 400, 1_000] {
                var network = profile
                network.bufferPackets = packets
                let took = Self.alone(400_000, on: network)
                #expect(took >= fastest, "\(profile.name): \(packets) packets took \(took), less than \(fastest) without loss")
            }
        }
    }

    /// ns-3's SACK recovery (proportional rate reduction, no RACK) keeps sending while its lost
    /// retransmissions wait for the timeout: of fast retransmit's retransmissions that meet a
    /// full buffer only the first few are lost (ns-3 drops the second of each pair its recovery
    /// sends while the buffer is full: 1–3 in most of its doomed recoveries), the round's other
    /// losses are repaired in the recovery, which goes on sending new data at its cut window, and
    /// the lost ones wait for one retransmission timer, which later losses wait for too.
    @Test func aRecoveryWhoseRetransmissionsMeetAFullBufferKeepsSendingAndWaitsForOneTimer() {
        let network = Self.launch(on: NetworkProfile.dsl.overHTTP11)
        let dropped = Double(FittedRecoveryRules.retransmissionsLostToAFullBuffer * NetworkProfile.dsl.overHTTP11.maxSegmentBytes)
        var timers: [Int: Int64] = [:]
        var sentWhileWaiting: Set<Int> = []
        var fired = 0
        var delivered = 0
        while let time = network.nextTime() {
            delivered += network.takeDelivered(at: time).count
            for exchange in network.exchanges {
                let transfer = network.connections[exchange.connection].sender
                if transfer.timeoutAt != nil {
                    #expect(transfer.awaitingTimeout > 0 && transfer.unsent >= transfer.awaitingTimeout, "the lost bytes wait for the timer")
                    #expect(transfer.pendingLoss == .none, "a loss meanwhile waits for the same timer")
                    if let armed = timers[exchange.id] {
                        #expect(armed == transfer.timeoutAt, "one timer: a later loss does not set another")
                    } else {
                        // The recovery round that went as the timer was set may add its own losses.
                        #expect(transfer.awaitingTimeout <= dropped + transfer.lostInRound,
                                "\(transfer.awaitingTimeout) bytes wait, more than the \(dropped) a full buffer drops")
                    }
                    timers[exchange.id] = transfer.timeoutAt
                    if transfer.queuedWire > 0 && transfer.roundStartedAt < transfer.timeoutAt! && transfer.roundStartedAt > 0 {
                        sentWhileWaiting.insert(exchange.id)
                    }
                } else if let armed = timers.removeValue(forKey: exchange.id) {
                    #expect(time >= armed, "the timer ended only by firing")
                    #expect(transfer.awaitingTimeout == 0)
                    fired += 1
                }
            }
        }
        #expect(fired > 0, "some retransmissions met a full buffer")
        #expect(!sentWhileWaiting.isEmpty, "a recovery sent new data while its timer ran")
        #expect(delivered == 6, "and every response still arrived")
    }

    /// A full buffer drops segments in adjacent pairs only where a packet crosses the link in
    /// less than the receiver's 40 ms delayed-ACK timer; on edge (50 ms a packet) every segment
    /// is acknowledged alone, holes and retransmissions go one by one into freed slots, and a
    /// launch that overflows the buffer recovers without a retransmission waiting for the timer,
    /// over either HTTP version.
    @Test func aLinkSlowerThanTheDelayedACKTimerLosesNoRetransmission() {
        #expect([NetworkProfile.wifi, .dsl, .lte, .threeG, .veryBad].allSatisfy { SimulatedNetwork(network: $0, seed: 1).path.holesComeInPairs })
        #expect(!SimulatedNetwork(network: .edge, seed: 1).path.holesComeInPairs)
        for edge in [NetworkProfile.edge, NetworkProfile.edge.overHTTP11] {
            let network = SimulatedNetwork(network: edge, seed: 1)
            for url in 1...6 { network.send(.image(url: UInt64(url), serial: url), to: .images, responseBytes: 100_000, at: 0) }
            var delivered = 0
            while let time = network.nextTime() {
                delivered += network.takeDelivered(at: time).count
                #expect(network.connections.allSatisfy { $0.sender.awaitingTimeout == 0 }, "\(edge.http.label) at \(time) ns")
            }
            #expect(network.connections.contains { $0.sender.hasRecovered }, "\(edge.http.label): the launch overflowed the buffer")
            #expect(delivered == 6)
        }
    }

    /// One HTTP/2 connection carrying a launch (five 150 KB images on 3g) overshoots in slow
    /// start far beyond what the path and the buffer hold, and keeps the buffer full itself
    /// until it sees the loss: its first recovery's retransmissions meet the full buffer and
    /// wait for the timer (ns-3: five of them lost, the timer resending them 2.3 s later), and
    /// every response still arrives. Behind a buffer that holds the whole window nothing is lost.
    @Test func aLoneConnectionsFirstOvershootLosesItsRetransmissionsToTheBufferItKeptFull() {
        func launch(bufferPackets: Int) -> (overshot: Bool, waited: Bool, delivered: Int) {
            var profile = NetworkProfile.threeG
            profile.bufferPackets = bufferPackets
            let network = SimulatedNetwork(network: profile, seed: 1)
            for url in 1...5 { network.send(.image(url: UInt64(url), serial: url), to: .images, responseBytes: 150_000, at: 0) }
            var (overshot, waited, delivered) = (false, false, 0)
            while let time = network.nextTime() {
                delivered += network.takeDelivered(at: time).count
                #expect(network.connections.count == 1, "one connection")
                let connection = network.connections[0], transfer = connection.sender
                overshot = overshot || connection.sender.overshot
                waited = waited || (connection.sender.overshot && transfer.timeoutAt != nil && transfer.awaitingTimeout > 0)
            }
            return (overshot, waited, delivered)
        }
        let shallow = launch(bufferPackets: 50)
        #expect(shallow.overshot && shallow.waited && shallow.delivered == 5, "\(shallow)")
        let deep = launch(bufferPackets: 10_000)
        #expect(!deep.overshot && !deep.waited && deep.delivered == 5, "\(deep)")
    }

    /// When the timer of a recovery whose retransmissions met a full buffer fires, the
    /// connection keeps the threshold the recovery set, as Linux does; with
    /// `recoveryTimeoutKeepsThreshold` off it drops to β of the recovery's window (or of what was
    /// in flight, if more), as ns-3's does.
    @Test func aTimeoutDuringRecoveryKeepsTheRecoverysThresholdUnlessTheNetworkSaysOtherwise() {
        func thresholdsAtTimeouts(keeping: Bool) -> [(before: Double, after: Double)] {
            var profile = NetworkProfile.dsl.overHTTP11
            profile.recoveryTimeoutKeepsThreshold = keeping
            let network = Self.launch(on: profile)
            var armed: [Int: Double] = [:]
            var seen: [(before: Double, after: Double)] = []
            while let time = network.nextTime() {
                _ = network.takeDelivered(at: time)
                for exchange in network.exchanges {
                    let connection = network.connections[exchange.connection]
                    if connection.sender.timeoutAt != nil {
                        armed[exchange.id] = connection.sender.window.threshold
                    } else if let before = armed.removeValue(forKey: exchange.id) {
                        seen.append((before, connection.sender.window.threshold))
                    }
                }
            }
            return seen
        }
        let linux = thresholdsAtTimeouts(keeping: true)
        #expect(!linux.isEmpty && linux.allSatisfy { $0.after == $0.before }, "\(linux)")
        let ns3 = thresholdsAtTimeouts(keeping: false)
        #expect(ns3.contains { $0.after < $0.before } && ns3.allSatisfy { $0.after <= $0.before }, "\(ns3)")
        // At least β of the recovery's window (ns-3's CUBIC takes it from the window, which
        // proportional rate reduction has brought to the recovery's threshold), in whole segments.
        let segment = Double(NetworkProfile.dsl.overHTTP11.maxSegmentBytes)
        #expect(ns3.allSatisfy { $0.after >= (($0.before / segment).rounded(.down) * CongestionWindow.beta).rounded(.down) * segment }, "\(ns3)")
    }

    /// Whether fast retransmit repairs a loss depends on the buffer its first retransmission
    /// meets. In slow start, each acknowledgement of the packets sent before the loss lets out two
    /// while one leaves, so the buffer rises by a packet each, as far as the data lasts. On lte a
    /// lone download of 1 MB or more refills the 50-packet buffer that way, loses the
    /// retransmission and waits for the timer; one of 400–600 KB runs out of data first and
    /// repairs its loss. ns-3 3.44 (a lone download replayed on lte, seed 1): 400, 500, 600 and
    /// 700 KB recover, 650 KB and 750 KB–3 MB time out 0.33 s after the cut. Beside other
    /// downloads still slow-starting, their doubled rounds fill it too (ns-3's three launch
    /// connections on lte, low-end seed 8, all end their recoveries in the timeout).
    @Test func fastRetransmitRepairsALossWhenTheRetransmissionsFindRoomInTheBuffer() {
        func recoveries(downloads: Int, bytes: Int64 = 3_000_000) -> (fast: Int, timers: Int) {
            let network = SimulatedNetwork(network: NetworkProfile.lte.overHTTP11, seed: 1)
            for url in 1...downloads { network.send(.image(url: UInt64(url), serial: url), to: .images, responseBytes: bytes, at: 0) }
            var seen: [Int: (TCPSender.PendingLoss, Int64?)] = [:]
            var counts = (fast: 0, timers: 0)
            while let time = network.nextTime() {
                _ = network.takeDelivered(at: time)
                for exchange in network.exchanges {
                    let transfer = network.connections[exchange.connection].sender
                    let state = (transfer.pendingLoss, transfer.timeoutAt)
                    let before = seen[exchange.id] ?? (.none, nil)
                    if state.0 == .fastRecovery && before.0 != .fastRecovery { counts.fast += 1 }
                    if state.1 != nil && before.1 == nil { counts.timers += 1 }
                    seen[exchange.id] = state
                }
            }
            return counts
        }
        for kilobytes: Int64 in [400, 500, 600] {
            let alone = recoveries(downloads: 1, bytes: kilobytes * 1_000)
            #expect(alone.fast > 0 && alone.timers == 0, "\(kilobytes) KB: \(alone)")
        }
        for kilobytes: Int64 in [1_000, 3_000] {
            let alone = recoveries(downloads: 1, bytes: kilobytes * 1_000)
            #expect(alone.fast > 0 && alone.timers > 0, "\(kilobytes) KB: \(alone)")
        }
        let crowded = recoveries(downloads: 4)
        #expect(crowded.timers > 0, "\(crowded)")
    }

    @Test func aBurstMeetsOnlyTheClockedRoundsBytesThatHaveArrived() {
        // 3g: one download slow-starting into the 50-packet buffer. Each clocked round is queued
        // whole at its start, but reaches the buffer over half its drain time (two packets for
        // each acknowledged): a burst sent meanwhile meets only the part already there.
        let network = SimulatedNetwork(network: NetworkProfile.threeG.overHTTP11, seed: 1)
        network.send(.image(url: 1, serial: 1), to: .images, responseBytes: 2_000_000, at: 0)
        let rate = Double(NetworkProfile.threeG.overHTTP11.bitsPerSecond) / 8e9
        var checked = 0
        while let time = network.nextTime(), checked == 0 {
            _ = network.takeDelivered(at: time)
            guard let download = network.exchanges.first,
                  case let transfer = network.connections[download.connection].sender, transfer.clocked,
                  transfer.arrival.start == time, transfer.arrival.wire > 10 * 1_500,
                  // a slow-start round: a congestion-avoidance one arrives over the round trip
                  transfer.arrival.span < NetworkProfile.threeG.overHTTP11.baseRoundTrip
            else { continue }
            let arrival = transfer.arrival
            #expect(abs(Double(arrival.span) - (arrival.wire / 2 / rate).rounded(.up)) <= 1)
            #expect(abs(network.arrivedWire(at: time) - max(0, network.bottleneck.queuedWire - arrival.wire)) < 1)
            let halfway = time + arrival.span / 2
            #expect(abs(network.arrivedWire(at: halfway) - max(0, network.bottleneck.queuedWire - arrival.wire / 2)) < arrival.wire / Double(arrival.span) + 1)
            #expect(network.arrivedWire(at: time + arrival.span) == network.bottleneck.queuedWire)
            checked += 1
        }
        #expect(checked == 1)
    }

    @Test func aBurstSentWhileAnotherRoundArrivesGetsInWhereTheWholeRoundWouldHaveFilledTheBuffer() {
        // 3g: a download slow-starting, and a small one whose connection is then idle. A burst
        // on that connection is sent to start just as one of the download's slow-start rounds
        // does, at a moment when that whole round queued at once would leave no room for it.
        let profile = NetworkProfile.threeG.overHTTP11
        func network() -> SimulatedNetwork {
            let network = SimulatedNetwork(network: profile, seed: 1)
            network.send(.image(url: 1, serial: 1), to: .images, responseBytes: 2_000_000, at: 0)
            network.send(.image(url: 2, serial: 2), to: .images, responseBytes: 1_000, at: 0)
            return network
        }
        let packet = Double(profile.maxSegmentBytes) + SimulatedNetwork.Sizes.headers
        let burst = Double(profile.initialWindowSegments) * packet
        let probe = network()
        var idleSince: Int64?
        var moment: Int64?
        while moment == nil, let time = probe.nextTime() {
            if probe.takeDelivered(at: time).contains(.image(url: 2, serial: 2)) { idleSince = time }
            guard let idleSince, time - idleSince < profile.idleTimeout / 2,
                  let download = probe.exchanges.first, probe.connections[download.connection].sender.arrival.start == time
            else { continue }
            let buffer = Double(profile.bufferPackets) * packet

            if probe.bottleneck.queuedWire + burst > buffer && probe.arrivedWire(at: time) + burst <= buffer { moment = time }
        }
        guard let moment else {
            Issue.record("no slow-start round filled the buffer while the idle connection was open")
            return
        }
        let request = SimulatedNetwork.Sizes.request + SimulatedNetwork.Sizes.headers
        let sent = moment - Self.serialization(request, profile.uplinkBitsPerSecond) - profile.uplinkDelay
        let shared = network()
        _ = shared.takeDelivered(at: sent)
        #expect(shared.send(.image(url: 3, serial: 3), to: .images, responseBytes: 100_000, at: sent).opened == false)
        _ = shared.takeDelivered(at: moment)
        let second = shared.exchanges.first { $0.payload == .image(url: 3, serial: 3) }!
        let transfer = shared.connections[second.connection].sender
        #expect(second.response != nil && transfer.roundStartedAt == moment)
        #expect(transfer.pendingLoss == .none && transfer.roundBytes == Double(profile.initialWindowSegments * profile.maxSegmentBytes))
    }

    @Test func theAPIsAnswerQueuesBehindImageData() {
        let alone = SimulatedNetwork(network: NetworkProfile.threeG.overHTTP11, seed: 1)
        alone.send(.api(launch: 0), to: .api, responseBytes: 900, think: 50_000_000, at: 0)
        let quiet = Self.finishTimes(alone)[0].1
        let busy = SimulatedNetwork(network: NetworkProfile.threeG.overHTTP11, seed: 1)
        for url in 1...6 { busy.send(.image(url: UInt64(url), serial: url), to: .images, responseBytes: 200_000, at: 0) }
        busy.send(.api(launch: 0), to: .api, responseBytes: 900, think: 50_000_000, at: 0)
        let behind = Self.finishTimes(busy).first { $0.0 == .api(launch: 0) }!.1
        #expect(behind > quiet + 500_000_000, "\(behind) against \(quiet) alone")
    }

    @Test func anIdleConnectionRestartsFromTheInitialWindowOnlyWithSlowStartRestart() {
        func secondDownload(restart: Bool) -> Int64 {
            var profile = NetworkProfile.lte.overHTTP11
            profile.slowStartAfterIdle = restart
            profile.idleTimeout = 600_000_000_000
            // A buffer the idle window's burst fits in: the restart's rounds alone make the difference.
            profile.bufferPackets = 1_000
            let network = SimulatedNetwork(network: profile, seed: 1)
            network.send(.image(url: 1, serial: 1), to: .images, responseBytes: 2_000_000, at: 0)
            let done = Self.finishTimes(network)[0].1
            network.send(.image(url: 2, serial: 2), to: .images, responseBytes: 500_000, at: done + 10_000_000_000)
            return Self.finishTimes(network)[0].1 - done - 10_000_000_000
        }
        #expect(secondDownload(restart: true) > secondDownload(restart: false) + NetworkProfile.lte.overHTTP11.baseRoundTrip)
    }

    @Test func randomLossIsRecoveredAndTheSameSeedGivesTheSameTimes() {
        let lossy = NetworkProfile.veryBad.overHTTP11
        var clean = lossy
        clean.loss = 0
        clean.uplinkLoss = 0
        let cleanTime = Self.alone(300_000, on: clean)
        var slower = 0
        for seed in UInt64(1)...20 {
            let took = Self.alone(300_000, on: lossy, seed: seed)
            #expect(took >= cleanTime)
            if took > cleanTime { slower += 1 }
            #expect(took == Self.alone(300_000, on: lossy, seed: seed))
        }
        #expect(slower >= 18, "10 % loss slows nearly every 300 KB download: \(slower) of 20")
    }

    @Test(arguments: HTTPVersion.allCases)
    func lookingAtTheNetworkBetweenItsEventsChangesNothing(http: HTTPVersion) {
        for var profile in [NetworkProfile.wifi, .lte, .threeG].map(\.overHTTP11) {
            profile.http = http
            func run(peekingEvery step: Int64?) -> [(SimulatedNetwork.Payload, Int64)] {
                let network = SimulatedNetwork(network: profile, seed: 3)
                for url in 1...6 {
                    network.send(.image(url: UInt64(url), serial: url), to: .images, responseBytes: Int64(url) * 90_000, urgent: url > 3, at: 0)
                }
                network.send(.api(launch: 0), to: .api, responseBytes: 900, think: 40_000_000, at: 1_000_000)
                var arrivals: [(SimulatedNetwork.Payload, Int64)] = []
                var peek: Int64 = 0
                while let time = network.nextTime() {
                    if let step {
                        while peek + step < time {
                            peek += step
                            arrivals += network.takeDelivered(at: peek).map { ($0, peek) }
                        }
                    }
                    arrivals += network.takeDelivered(at: time).map { ($0, time) }
                }
                return arrivals
            }
            let plain = run(peekingEvery: nil)
            let peeked = run(peekingEvery: 999_983)
            #expect(plain.count == 7 && plain.map(\.0) == peeked.map(\.0), "\(profile.name)")
            for (a, b) in zip(plain, peeked) { #expect(abs(a.1 - b.1) <= 1, "\(profile.name): \(a.0) at \(a.1) and \(b.1)") }
        }
    }
}
