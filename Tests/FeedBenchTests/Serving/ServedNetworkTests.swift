import Testing
@testable import FeedBench

/// `bench serve`'s network, driven in virtual time as the server drives it on the wall clock:
/// a response paced by its looks completes exactly when the simulated network delivers the same
/// request, its bytes only ever grow, and one ended early closes the model's connection.
@Suite struct ServedNetworkTests {
    /// A request of the tests: sent at `time` to `host`, a body of `bytes` after `think`.
    struct Request {
        var time: Int64
        var host: ServedNetwork.Host
        var bytes: Int64
        var think: Int64 = 0
    }

    /// When each request's last byte arrives on a `SimulatedNetwork` of `profile` that is sent
    /// the same requests.
    static func delivered(_ requests: [Request], on profile: NetworkProfile, seed: UInt64) -> [Int64] {
        let network = SimulatedNetwork(network: profile, seed: seed)
        var arrivals: [Int: Int64] = [:]
        func run(until time: Int64) {
            while let next = network.nextTime(), next <= time {
                for case let .image(_, serial) in network.takeDelivered(at: next) { arrivals[serial] = next }
            }
        }
        for (index, request) in requests.enumerated() {
            run(until: request.time)
            network.send(.image(url: UInt64(index), serial: index), to: request.host == .api ? .api : .images, responseBytes: request.bytes,
                         think: request.think, at: request.time)
        }
        run(until: .max)
        return requests.indices.map { arrivals[$0]! }
    }

    /// Serves `requests` as `bench serve` does, each response looking again when `progress`
    /// says, asking for `piece` more body bytes each time; returns when each completed, and
    /// checks that the bytes never shrink and the looks always move on.
    static func served(_ requests: [Request], on profile: NetworkProfile, seed: UInt64, piece: Int64 = 10_000) -> [Int64] {
        let network = ServedNetwork(profile: profile, seed: seed)
        var sent: [Int: ServedNetwork.Sent] = [:]
        var looks: [Int: Int64] = [:]
        var bytes: [Int: Int64] = [:]
        var completed: [Int: Int64] = [:]
        var next = 0
        while next < requests.count || !looks.isEmpty {
            let look = looks.min { $0.value < $1.value || ($0.value == $1.value && $0.key < $1.key) }
            if next < requests.count, look == nil || requests[next].time <= look!.value {
                let request = requests[next]
                sent[next] = network.send(request.host, bodyBytes: request.bytes, think: request.think, at: request.time)
                looks[next] = request.time
                next += 1
                continue
            }
            let (index, time) = look!
            let progress = network.progress(sent[index]!.id, at: time, awaitingBody: min(requests[index].bytes, bytes[index, default: 0] + piece))
            #expect(progress.bodyBytes >= bytes[index, default: 0], "request \(index) at \(time): its bytes shrank")
            bytes[index] = progress.bodyBytes
            if progress.isComplete {
                #expect(progress.bodyBytes == requests[index].bytes)
                network.end(sent[index]!.id, at: time)
                completed[index] = time
                looks[index] = nil
            } else {
                #expect(progress.nextLook > time)
                looks[index] = progress.nextLook
            }
        }
        return requests.indices.map { completed[$0]! }
    }

    @Test(arguments: [NetworkProfile.wifi, .lte, .threeG, try! NetworkProfile.named("verizon-lte"), try! NetworkProfile.named("att-lte-driving")])
    func eachResponseCompletesWhenTheModelDeliversIt(profile: NetworkProfile) {
        // A feed call, then images one after another and side by side on new and reused
        // connections: handshakes, slow start, the shared bottleneck.
        let requests = [
            Request(time: 0, host: .api, bytes: 1_200, think: 30_000_000),
            Request(time: 2_000_000, host: .images, bytes: 300_000),
            Request(time: 3_000_000, host: .images, bytes: 40_000),
            Request(time: 400_000_000, host: .images, bytes: 120_000),
            Request(time: 401_000_000, host: .images, bytes: 500_000),
            Request(time: 402_000_000, host: .api, bytes: 1_100, think: 5_000_000),
            Request(time: 2_500_000_000, host: .images, bytes: 80_000),
        ]
        #expect(Self.served(requests, on: profile, seed: 3) == Self.delivered(requests, on: profile, seed: 3))
    }

    @Test(arguments: [0, 1, 2, 1_000] as [Int64])
    func aResponseOfAFewBytesOrNoneCompletesToo(bytes: Int64) {
        // On a network without delay too (the server's tests run on one).
        let instant = NetworkProfile(name: "instant", bitsPerSecond: 10_000_000_000, oneWayDelay: 0...0)
        for profile in [instant, .lte] {
            let requests = [Request(time: 0, host: .images, bytes: bytes), Request(time: 1_000, host: .images, bytes: bytes)]
            #expect(Self.served(requests, on: profile, seed: 1) == Self.delivered(requests, on: profile, seed: 1), "\(profile.name)")
        }
    }

    @Test func theBytesThatHaveArrivedAreTheOnesThatLeftTheBufferOneDelayEarlier() {
        // 200 KB on 3g, looked at every 50 ms: at each look the body bytes the model had let out
        // of the buffer one downlink delay earlier (nothing before the handshakes are over).
        let profile = NetworkProfile.threeG
        let end = Self.delivered([Request(time: 0, host: .images, bytes: 200_000)], on: profile, seed: 1)[0]
        let twin = SimulatedNetwork(network: profile, seed: 1)
        twin.send(.image(url: 0, serial: 0), to: .images, responseBytes: 200_000, at: 0)
        let network = ServedNetwork(profile: profile, seed: 1)
        let sent = network.send(.images, bodyBytes: 200_000, at: 0)
        let delay = profile.oneWayDelay.lowerBound
        var seen = Set<Int64>()
        for time in stride(from: 50_000_000, to: end, by: 50_000_000) {
            _ = twin.takeDelivered(at: time - delay)
            let left = twin.departed(.image(url: 0, serial: 0), by: time - delay) ?? 0
            let progress = network.progress(sent.id, at: time, awaitingBody: 0)
            #expect(abs(Double(progress.bodyBytes) - max(0, left - SimulatedNetwork.Sizes.responseHeaders)) <= 1, "at \(time)")
            #expect(progress.headersArrived == (left >= SimulatedNetwork.Sizes.responseHeaders) && !progress.isComplete)
            seen.insert(progress.bodyBytes)
        }
        #expect(seen.count > 20, "the bytes come as the model lets them out")
        #expect(network.progress(sent.id, at: end, awaitingBody: 200_000).isComplete)
    }

    @Test func aResponseEndedEarlyClosesItsConnectionInTheModel() {
        let network = ServedNetwork(profile: NetworkProfile.lte.overHTTP11, seed: 1)
        let first = network.send(.images, bodyBytes: 500_000, at: 0)
        #expect(first.opened && first.connection == 1)
        let part = network.progress(first.id, at: 700_000_000, awaitingBody: 500_000)
        #expect(part.bodyBytes > 0 && !part.isComplete)
        // Ended before its last byte: the client gave up, and its connection is closed; the next
        // request opens the second.
        network.end(first.id, at: 700_000_000)
        let second = network.send(.images, bodyBytes: 1_000, at: 800_000_000)
        #expect(second.opened && second.connection == 2)
    }
}
