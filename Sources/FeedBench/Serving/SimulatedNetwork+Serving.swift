/// What `bench serve` asks of the simulation's network (`ServedNetwork`): how far a response has
/// come and when its bytes will reach the client, as the buffer stands at its last update (exact
/// until the next check: between two events only the chunk at the head of the buffer moves).
extension SimulatedNetwork {
    /// When the downlink's bottleneck serves what it holds (a fixed rate or a recording). O(1).
    var downlinkSchedule: ServiceSchedule { bottleneck.schedule }

    /// Payload bytes received so far by the image responses under way. O(exchanges).
    var imageBytesReceived: Int64 {
        Int64(exchanges.reduce(0.0) { total, exchange in
            guard case .image = exchange.payload, exchange.hasResponse else { return total }
            return total + min(exchange.received, exchange.responseBytes)
        })
    }

    /// The bytes of each response under way that have left the buffer (headers included), by
    /// payload, in the exchanges' order. O(exchanges).
    var responsesReceived: [(payload: Payload, received: Double)] {
        exchanges.filter(\.hasResponse).map { ($0.payload, $0.received) }
    }

    /// The bytes of the response of `payload` (its headers included) that will have left the
    /// buffer by `time`, as the buffer stands at its last update (exact until the next check);
    /// 0 before the response starts, `nil` when the exchange is over. O(chunks).
    func departed(_ payload: Payload, by time: Int64) -> Double? {
        guard let exchange = exchanges.first(where: { $0.payload == payload }) else { return nil }
        guard exchange.hasResponse else { return 0 }
        var budget = bottleneck.budget(to: time)
        var departed = exchange.received
        let owner = Bottleneck.Owner.response(exchange: exchange.id)
        for chunk in bottleneck.chunks where budget > 0 {
            if chunk.owner == owner { departed += min(budget, chunk.wire) / path.wirePerPayload }
            budget -= chunk.wire
        }
        return min(departed, exchange.responseBytes)
    }

    /// When `bytes` of the response of `payload` (its headers included) will have reached the
    /// client, as the buffer stands at its last update; when that is not known yet, a moment not
    /// after it at which it becomes known: the exchange's next stage change or round, or the last
    /// queued byte sent for it (its response's, or its connection's TLS flight's while it opens
    /// it) leaving. Bytes queued after the exchange's own never overtake them, so the answer holds
    /// whatever is sent meanwhile (`ServedNetwork` paces `bench serve` by it). `nil` when the
    /// exchange is over. O(chunks).
    func arrival(of payload: Payload, reaching bytes: Double) -> Int64? {
        guard let i = exchanges.firstIndex(where: { $0.payload == payload }) else { return nil }
        let exchange = exchanges[i]
        let delay = network.oneWayDelay.lowerBound
        if case let .delivering(arrives) = exchange.stage { return arrives }
        let responding = exchange.response != nil
        if responding && exchange.received >= bytes { return bottleneck.servedTo + delay }
        let next = min(nextEvent(of: i), connections[exchange.connection].sender.nextRound ?? .max)
        let owner: Bottleneck.Owner
        if case .opening = exchange.stage {
            owner = .flight(connection: connections[exchange.connection].id)
        } else {
            owner = .response(exchange: exchange.id)
        }
        var departed = exchange.received
        var ahead = 0.0
        var lastQueued: Double?
        for chunk in bottleneck.chunks {
            if chunk.owner == owner {
                let needed = (bytes - departed) * path.wirePerPayload
                if responding && needed <= chunk.wire { return min(next, bottleneck.departure(after: ahead + needed) + delay) }
                departed += chunk.wire / path.wirePerPayload
                lastQueued = ahead + chunk.wire
            }
            ahead += chunk.wire
        }
        return min(next, lastQueued.map { bottleneck.departure(after: $0) } ?? .max)
    }
}
