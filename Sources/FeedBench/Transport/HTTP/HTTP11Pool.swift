/// HTTP/1.1's connections to a host: each carries one response at a time (URLSession opens up to
/// `connectionsPerHost`, the pipeline keeps that limit), an idle one is reused until the idle
/// timeout, and a response cancelled mid-transfer closes its connection — the next request opens
/// a new one. A connection's only response owns its sender's bytes, so the sender's counts are
/// that response's (or, while it opens, its TLS flight's).
final class HTTP11Pool: ConnectionPool {
    let idleTimeout: Int64
    let restartAfterIdle: Bool

    init(network: NetworkProfile) {
        idleTimeout = network.idleTimeout
        restartAfterIdle = network.slowStartAfterIdle
    }

    var streamsShareOneByteStream: Bool { false }

    func acquire(_ host: SimulatedNetwork.Host, at now: Int64, connections: inout [TCPConnection], exchanges: [Exchange],
                 open: (_ slot: Int) -> TCPConnection) -> (slot: Int, opened: Bool) {
        idleOrNew(host, at: now, idleTimeout: idleTimeout, restartAfterIdle: restartAfterIdle, connections: &connections,
                  exchanges: exchanges, open: open)
    }

    /// Cancelling closes the connection; a response (or flight) being sent stops there, and what
    /// of it is queued still drains.
    func cancel(_ index: Int, at now: Int64, connections: inout [TCPConnection], exchanges: inout [Exchange],
                resetArrives: (_ connection: Int) -> Int64) -> Bool {
        let c = exchanges[index].connection
        connections[c].close()
        switch exchanges[index].stage {
        case .responding:
            exchanges[index].updateResponse { $0.unsent = 0 }
            connections[c].sender.stop()
        case .opening where connections[c].handshake.flight != nil:
            connections[c].updateFlight { $0.unsent = 0 }
            connections[c].sender.stop()
        default:
            break
        }
        return true
    }

    /// The connection's one response (or flight) takes the whole round.
    func share(_ bytes: Double, on c: Int, at now: Int64, roundTrip: Int64, connections: [TCPConnection], exchanges: [Exchange],
               wirePerPayload: Double) -> Double {
        bytes
    }

    func queue(_ bytes: Double, loss: RoundLoss, on c: Int, driver: Int, waitingForTimer: Bool, connections: inout [TCPConnection],
               exchanges: inout [Exchange], bottleneck: inout Bottleneck, wirePerPayload: Double) {
        let lost = loss.wire / wirePerPayload
        let wire = bytes * wirePerPayload - loss.wire
        var owed: Double
        if exchanges[driver].response != nil {
            exchanges[driver].updateResponse { $0.unsent -= bytes - lost; if wire > 0 { $0.queued(wire) } }
            owed = exchanges[driver].response!.unsent
            if wire > 0 { bottleneck.enqueue(wire, of: .response(exchange: exchanges[driver].id)) }
        } else {
            connections[c].updateFlight { $0.unsent -= bytes - lost; if wire > 0 { $0.queued(wire) } }
            owed = connections[c].handshake.flight!.unsent
            if wire > 0 { bottleneck.enqueue(wire, of: .flight(connection: connections[c].id)) }
        }
        if wire > 0 { connections[c].sender.queuedChunk() }
        connections[c].sender.owe(owed)
    }

    /// Each exchange's connection is its own: counted once, in the exchanges' order.
    func arrived(_ queued: Double, at now: Int64, connections: [TCPConnection], exchanges: [Exchange]) -> Double {
        var arrived = queued
        for exchange in exchanges {
            let sender = connections[exchange.connection].sender
            arrived -= min(sender.queuedWire, sender.arrival.pending(at: now))
        }
        return arrived
    }

    func responsesChanged(on c: Int, connections: inout [TCPConnection], exchanges: [Exchange]) {}

    func timerFired(on c: Int, connections: inout [TCPConnection], exchanges: inout [Exchange]) {}

    func retransmissionsLost(_ doomed: Double, of lost: Double, on c: Int, connections: inout [TCPConnection],
                             exchanges: inout [Exchange]) {}

    func joinsTransfer(_ i: Int, on c: Int, at now: Int64, roundTrip: Int64, connections: inout [TCPConnection],
                       exchanges: [Exchange]) -> Bool {
        false
    }
}
