/// HTTP/2's connection to a host: one, carrying every response on it as a stream (URLSession
/// ignores `connectionsPerHost` over HTTP/2). A request made while the handshake is under way
/// goes when it is done; each round's bytes are shared among the streams with bytes to send
/// (`StreamScheduler`), each within its flow-control window (`streamWindowBytes` unread) and all
/// of them within the connection's (`connectionWindowBytes`); a loss holds back every stream's
/// delivery until it is repaired (TCP's head-of-line blocking); a cancel resets its stream and
/// keeps the connection: the server sends the stream's bytes until the RST_STREAM crosses the
/// uplink, and its queued bytes still drain. The sender's counts are its streams' sums, which
/// this type alone keeps in step.
final class HTTP2Connections: ConnectionPool {
    let idleTimeout: Int64
    let restartAfterIdle: Bool
    let streamWindow: Double
    let connectionWindow: Double
    /// Shares each round (its storage reused).
    private var scheduler = StreamScheduler()

    init(network: NetworkProfile) {
        idleTimeout = network.idleTimeout
        restartAfterIdle = network.slowStartAfterIdle
        streamWindow = Double(network.streamWindowBytes)
        connectionWindow = Double(network.connectionWindowBytes)
    }

    var streamsShareOneByteStream: Bool { true }

    /// The host's open connection, busy or not; else as HTTP/1.1 would.
    func acquire(_ host: SimulatedNetwork.Host, at now: Int64, connections: inout [TCPConnection], exchanges: [Exchange],
                 open: (_ slot: Int) -> TCPConnection) -> (slot: Int, opened: Bool) {
        if let busy = connections.indices.first(where: { connections[$0].host == host && !connections[$0].isClosed && !connections[$0].isIdle }) {
            connections[busy].join()
            return (busy, false)
        }
        return idleOrNew(host, at: now, idleTimeout: idleTimeout, restartAfterIdle: restartAfterIdle, connections: &connections,
                         exchanges: exchanges, open: open)
    }

    /// Cancelling resets the stream and keeps the connection. A stream cancelled while it opens
    /// the connection hands the handshake to the first stream waiting on it, which takes its place
    /// among the exchanges (so the handshake's events keep their order); with none waiting the
    /// connection is abandoned, as HTTP/1.1's is.
    func cancel(_ index: Int, at now: Int64, connections: inout [TCPConnection], exchanges: inout [Exchange],
                resetArrives: (_ connection: Int) -> Int64) -> Bool {
        let c = exchanges[index].connection
        connections[c].release(at: now)
        switch exchanges[index].stage {
        case .opening:
            if let next = exchanges.indices.first(where: { exchanges[$0].connection == c && isAwaiting(exchanges[$0].stage) }) {
                var waiting = exchanges.remove(at: next)
                waiting.stage = .opening
                exchanges[index] = waiting
                return false
            }
            if connections[c].handshake.flight != nil {
                connections[c].updateFlight { $0.unsent = 0; $0.awaitingTimeout = 0 }
                responsesChanged(on: c, connections: &connections, exchanges: exchanges)
            }
            // Nobody waits for the connection: it is abandoned.
            connections[c].close()
            connections[c].sender.stop()
        case let .responding(outbound, _):
            // The client's RST_STREAM crosses the uplink; the server sends on until it arrives,
            // and what it sent is not the app's.
            exchanges[index].payload = .discarded
            exchanges[index].stage = .responding(outbound, reset: resetArrives(c))
            return false
        default:
            break
        }
        return true
    }

    private func isAwaiting(_ stage: Exchange.Stage) -> Bool {
        if case .awaitingConnection = stage { return true }
        return false
    }

    func share(_ bytes: Double, on c: Int, at now: Int64, roundTrip: Int64, connections: [TCPConnection], exchanges: [Exchange],
               wirePerPayload: Double) -> Double {
        scheduler.startRound()
        for j in exchanges.indices where exchanges[j].connection == c {
            let exchange = exchanges[j]
            let outbound: Outbound
            var beforeReset: Double?
            switch exchange.stage {
            case let .responding(response, reset):
                outbound = response
                if exchange.payload == .discarded {
                    beforeReset = min(1, Double(max(0, (reset ?? .max) - now)) / Double(max(1, roundTrip)))
                }
            case .opening:
                guard let flight = connections[c].handshake.flight else { continue }
                outbound = flight
            default:
                continue
            }
            let sendable = min(outbound.unsent - outbound.awaitingTimeout, streamWindow - outbound.queuedWire / wirePerPayload)
            scheduler.demand(.init(stream: j, id: exchange.id, urgent: exchange.urgent, bytes: sendable, beforeReset: beforeReset))
        }
        return scheduler.share(bytes, room: connectionWindow - connections[c].sender.queuedWire / wirePerPayload)
    }

    /// Each stream loses its part of the round's loss in proportion to its share (the last one
    /// what is left), and its surviving bytes join the buffer as a chunk of its own.
    func queue(_ bytes: Double, loss: RoundLoss, on c: Int, driver: Int, waitingForTimer: Bool, connections: inout [TCPConnection],
               exchanges: inout [Exchange], bottleneck: inout Bottleneck, wirePerPayload: Double) {
        let lost = loss.wire / wirePerPayload
        updateOutbounds(on: c, connections: &connections, exchanges: &exchanges) { $0.lostInRound = 0 }
        var lostLeft = lost
        let shares = scheduler.shares
        for (m, part) in shares.enumerated() {
            let partLost = m == shares.count - 1 ? min(part.bytes, lostLeft) : lost * part.bytes / bytes
            lostLeft -= partLost
            let wire = (part.bytes - partLost) * wirePerPayload
            let owner: Bottleneck.Owner = exchanges[part.stream].response != nil
                ? .response(exchange: exchanges[part.stream].id) : .flight(connection: connections[c].id)
            let update = { (outbound: inout Outbound) in
                outbound.unsent -= part.bytes - partLost
                outbound.lostInRound = partLost
                if waitingForTimer { outbound.awaitingTimeout += partLost }
                if part.bytes - partLost > 0 { outbound.queued(wire) }
            }
            if case .opening = exchanges[part.stream].stage { connections[c].updateFlight(update) } else { exchanges[part.stream].updateResponse(update) }
            if part.bytes - partLost > 0 {
                bottleneck.enqueue(wire, of: owner)
                connections[c].sender.queuedChunk()
            }
        }
        responsesChanged(on: c, connections: &connections, exchanges: exchanges)
    }

    /// Streams share their connection's rounds: each connection counts once, in the table's order.
    func arrived(_ queued: Double, at now: Int64, connections: [TCPConnection], exchanges: [Exchange]) -> Double {
        var arrived = queued
        for connection in connections {
            arrived -= min(connection.sender.queuedWire, connection.sender.arrival.pending(at: now))
        }
        return arrived
    }

    /// The sender owes its streams' sums (a stream's own count reaches exactly 0 when it is all
    /// sent), the TLS flight's with them while it is sent.
    func responsesChanged(on c: Int, connections: inout [TCPConnection], exchanges: [Exchange]) {
        var unsent = 0.0, awaiting = 0.0
        for exchange in exchanges where exchange.connection == c {
            let outbound: Outbound
            switch exchange.stage {
            case let .responding(response, _): outbound = response
            case .opening:
                guard let flight = connections[c].handshake.flight else { continue }
                outbound = flight
            default: continue
            }
            unsent += outbound.unsent
            awaiting += outbound.awaitingTimeout
        }
        connections[c].sender.owe(unsent, awaitingTimeout: awaiting)
    }

    func timerFired(on c: Int, connections: inout [TCPConnection], exchanges: inout [Exchange]) {
        updateOutbounds(on: c, connections: &connections, exchanges: &exchanges) { $0.awaitingTimeout = 0 }
    }

    func retransmissionsLost(_ doomed: Double, of lost: Double, on c: Int, connections: inout [TCPConnection],
                             exchanges: inout [Exchange]) {
        updateOutbounds(on: c, connections: &connections, exchanges: &exchanges) { $0.awaitingTimeout += $0.lostInRound * doomed / lost }
        responsesChanged(on: c, connections: &connections, exchanges: exchanges)
    }

    /// A stream starting while the connection's transfer is under way sends with its next round.
    func joinsTransfer(_ i: Int, on c: Int, at now: Int64, roundTrip: Int64, connections: inout [TCPConnection],
                       exchanges: [Exchange]) -> Bool {
        guard connections[c].sender.isUnderWay else { return false }
        responsesChanged(on: c, connections: &connections, exchanges: exchanges)
        connections[c].sender.joined(at: now, roundTrip: roundTrip)
        return true
    }

    /// Calls `body` on the bytes of every stream of connection `c` being sent, and its TLS
    /// flight's. O(exchanges).
    private func updateOutbounds(on c: Int, connections: inout [TCPConnection], exchanges: inout [Exchange],
                                 _ body: (inout Outbound) -> Void) {
        for j in exchanges.indices where exchanges[j].connection == c {
            switch exchanges[j].stage {
            case .responding: exchanges[j].updateResponse(body)
            case .opening: connections[c].updateFlight(body)
            default: break
            }
        }
    }
}
