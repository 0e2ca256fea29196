/// The exchanges' stages as the network plays them: a request opens its connection or waits for
/// it, crosses the uplink, waits for the server, and its response crosses the downlink a round at
/// a time until its last byte reaches the app; and the buffer's departures credited to whose
/// bytes they were.
extension SimulatedNetwork {
    /// Exchange `i`'s next event at `now`: its connection's round, its connection's handshake
    /// (when it opens it), or its own stage change. O(exchanges).
    func step(_ i: Int, at now: Int64) {
        let c = exchanges[i].connection
        if let next = connections[c].sender.nextRound, next <= nextEvent(of: i) {
            round(on: c, driver: i, at: now)
            return
        }
        switch exchanges[i].stage {
        case .opening:
            handshakeStep(on: c, opener: i, at: now)
        case .awaitingConnection:
            break
        case .request:
            exchanges[i].stage = .serverTime(until: now + exchanges[i].think)
        case .serverTime:
            startResponse(i, at: now)
        case let .responding(response, reset):
            guard reset != nil else { break }
            // A reset stream's RST_STREAM has reached the server: its bytes not yet sent are no
            // longer owed, and it leaves once its queued ones have crossed the link. Still owed:
            // the stream's bytes that were sent and lost. TCP knows nothing of streams and sends
            // them again, and the other streams' bytes behind them wait for the repair
            // (head-of-line blocking).
            var owed = response
            owed.unsent = min(response.unsent, max(response.awaitingTimeout, response.lostInRound))
            exchanges[i].stage = .responding(owed, reset: nil)
            pool.responsesChanged(on: c, connections: &connections, exchanges: exchanges)
            emptied(at: now)
        case .delivering:
            connections[c].release(at: now)
            delivered.append(exchanges[i].payload)
            exchanges.remove(at: i)
        }
    }

    /// The handshake of connection `c`, which exchange `opener` opens, moves on at `now`.
    private func handshakeStep(on c: Int, opener: Int, at now: Int64) {
        switch connections[c].handshake {
        case .synSent:
            let arrives = bottleneck.controlArrival(at: now, delay: network.oneWayDelay.lowerBound, loss: network.loss,
                                                    lossTimeout: 1_000_000_000, drawing: &generator)
            connections[c].synReceived(synAckArrives: arrives)
        case .synAckSent:
            connections[c].synAckReceived(at: now, tls: network.tls) { timeout in
                uplink.arrival(of: Sizes.clientHello + Sizes.headers, sentAt: now, lossTimeout: timeout, drawing: &generator)
            }
            if connections[c].isEstablished { established(c, at: now) }
        case .helloSent:
            connections[c].helloReceived(flightBytes: Sizes.serverFlight)
            release(on: c, driver: opener, at: now)
        case .flightArriving:
            // The flight has arrived: the client's Finished rides with the request.
            connections[c].flightReceived(at: now)
            established(c, at: now)
        case .serverFlight, .established:
            break
        }
    }

    /// Connection `c` is open at `now`: the request that opened it goes, then those of the
    /// streams that waited for the handshake (HTTP/2), in the order they were made.
    private func established(_ c: Int, at now: Int64) {
        for j in exchanges.indices where exchanges[j].connection == c {
            switch exchanges[j].stage {
            case .opening, .awaitingConnection: exchanges[j].stage = .request(arrives: requestArrival(on: c, at: now))
            default: break
            }
        }
    }

    /// Exchange `i`'s response starts at `now`: a transfer of its own on an idle connection, its
    /// first round a burst; over HTTP/2, a stream joining the transfer under way, sent with the
    /// connection's next round.
    private func startResponse(_ i: Int, at now: Int64) {
        let c = exchanges[i].connection
        let bytes = exchanges[i].responseBytes
        exchanges[i].received = 0
        exchanges[i].stage = .responding(Outbound(unsent: bytes), reset: nil)
        if pool.joinsTransfer(i, on: c, at: now, roundTrip: roundTripNow(), connections: &connections, exchanges: exchanges) { return }
        connections[c].sender.start(bytes)
        release(on: c, driver: i, at: now)
    }

    /// Responses (and TLS flights) whose queued bytes have all left the buffer at `now`:
    /// delivered if nothing of theirs is left to send and no loss of their connection's is
    /// unrepaired (TCP delivers in order), else waiting for their next round. A connection with
    /// nothing left to send ends its transfer. O(exchanges).
    func emptied(at now: Int64) {
        var i = 0
        while i < exchanges.count {
            let c = exchanges[i].connection
            let outbound: Outbound?
            switch exchanges[i].stage {
            case let .responding(response, _): outbound = response
            case .opening: outbound = connections[c].handshake.flight
            default: outbound = nil
            }
            guard let outbound, outbound.isDrained, connections[c].sender.pendingLoss == .none else {
                i += 1
                continue
            }
            if exchanges[i].payload == .discarded {
                exchanges.remove(at: i)
                continue
            }
            if streamsShareOneByteStream && connections[c].sender.awaitingTimeout != 0 {
                i += 1
                continue
            }
            if connections[c].sender.queuedChunks == 0 && connections[c].sender.unsent == 0 {
                connections[c].sender.finished(at: now)
            }
            let arrives = now + network.oneWayDelay.lowerBound
            if case .opening = exchanges[i].stage {
                connections[c].flightDeparted(arriving: arrives)
            } else {
                exchanges[i].stage = .delivering(arrives: arrives)
            }
            i += 1
        }
    }

    /// Serves the buffer up to `time`, crediting each response (or flight) and its connection's
    /// sender with what of theirs left it. O(chunks served × exchanges).
    func drain(to time: Int64) {
        bottleneck.serve(to: time) { owner, wire, chunkLeft in
            switch owner {
            case let .response(id):
                guard let i = exchanges.firstIndex(where: { $0.id == id }) else { return }
                exchanges[i].received += wire / path.wirePerPayload
                exchanges[i].updateResponse { $0.served(wire, chunkLeft: chunkLeft) }
                connections[exchanges[i].connection].sender.served(wire, chunkLeft: chunkLeft)
            case let .flight(id):
                guard let c = connections.firstIndex(where: { $0.id == id }) else { return }
                connections[c].flightServed(wire, chunkLeft: chunkLeft)
            }
        }
    }
}
