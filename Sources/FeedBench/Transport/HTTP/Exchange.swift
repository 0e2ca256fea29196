extension SimulatedNetwork {
    /// Which server a request goes to.
    enum Host: Int, Sendable { case images, api }

    /// Who is told when a response's last byte arrives.
    enum Payload: Hashable, Sendable {
        case image(url: UInt64, serial: Int)
        case api(launch: Int)
        /// A cancelled response whose queued bytes still cross the link.
        case discarded
    }

    /// Message sizes, shared with the ns-3 reference check (`Validation/ns3/replay.cc`).
    enum Sizes {
        static let request = 400.0
        static let responseHeaders = 300.0
        static let clientHello = 517.0
        /// HTTP/2's RST_STREAM: a 9-byte frame header and a 4-byte error code.
        static let resetStream = 13.0
        static let serverFlight = 4_000.0
        /// IPv4 + TCP + timestamps, a segment (and a bare SYN or ACK).
        static let headers = 52.0
    }
}

/// One request and its response on a connection, from the moment the app sends it until its
/// last byte reaches the app (or its cancel, and then until its bytes in the buffer have left).
struct Exchange: Sendable {
    /// Where an exchange is. Times are when the stage's next step happens.
    enum Stage: Sendable {
        /// The request opened its connection and waits for the handshake, whose stages are the
        /// connection's (`Handshake`); its events are this exchange's in the agenda.
        case opening
        /// HTTP/2: another stream's handshake is under way; the request goes when it is done.
        case awaitingConnection
        /// The request is on its way; at `arrives` the server has it and starts its own time.
        case request(arrives: Int64)
        /// The server's own time (the API's latency); at `until` the response starts.
        case serverTime(until: Int64)
        /// The response crosses the downlink. `reset`: HTTP/2 cancelled it, and its RST_STREAM
        /// reaches the server then, until when the server sends on.
        case responding(Outbound, reset: Int64?)
        /// The last byte has left the buffer; at `arrives` the client has it.
        case delivering(arrives: Int64)
    }

    /// In the order exchanges were made (the buffer's chunks name their response by it).
    let id: Int
    var payload: Payload
    var stage: Stage
    /// Whether the stream is urgent (a visible cell's or the API's; HTTP/2 serves it first).
    let urgent: Bool
    /// The connection's slot in the network's table.
    let connection: Int
    /// The server's own time, and the response's bytes with their headers.
    let think: Int64
    let responseBytes: Double
    /// Bytes of the response that have left the buffer.
    var received = 0.0

    typealias Payload = SimulatedNetwork.Payload

    /// The next stage change that waits on a time of the exchange's own (not its connection's).
    /// O(1).
    var wake: Int64? {
        switch stage {
        case .opening, .awaitingConnection: nil
        case let .request(arrives), let .delivering(arrives): arrives
        case let .serverTime(until): until
        case let .responding(_, reset): reset
        }
    }

    /// The response's bytes while it is being sent. O(1).
    var response: Outbound? {
        if case let .responding(outbound, _) = stage { return outbound }
        return nil
    }

    /// Whether the response has started (its bytes count as received). O(1).
    var hasResponse: Bool {
        switch stage {
        case .responding, .delivering: true
        default: false
        }
    }

    /// Changes the response's bytes in place while it is being sent. O(1).
    mutating func updateResponse(_ body: (inout Outbound) -> Void) {
        guard case .responding(var outbound, let reset) = stage else { return }
        body(&outbound)
        stage = .responding(outbound, reset: reset)
    }
}
