/// Where a connection's opening is: TCP's handshake (the SYN up, the SYN-ACK down), then with TLS
/// 1.3 one more round trip (the 517-byte ClientHello up, the server's 4,000-byte flight down),
/// then established, when requests go at once. The client's Finished rides with its first
/// request. Times are when the stage's message reaches the other end.
enum Handshake: Sendable, Equatable {
    /// The SYN, sent at `sentAt`, is on its way; at `arrives` the server has it.
    case synSent(sentAt: Int64, arrives: Int64)
    /// The SYN-ACK is on its way; at `arrives` the client has it, a round trip after `sentAt`.
    case synAckSent(sentAt: Int64, arrives: Int64)
    /// The ClientHello is on its way; at `arrives` the server starts its flight.
    case helloSent(arrives: Int64)
    /// The server's TLS flight crosses the downlink, sent as any of the connection's bytes.
    case serverFlight(Outbound)
    /// The flight's last byte has left the buffer; at `arrives` the client has it.
    case flightArriving(arrives: Int64)
    /// Open: requests go at once.
    case established

    /// When the stage next changes by itself; `nil` while the flight is being sent (its rounds
    /// move it) and once established. O(1).
    var nextChange: Int64? {
        switch self {
        case let .synSent(_, arrives), let .synAckSent(_, arrives), let .helloSent(arrives), let .flightArriving(arrives): arrives
        case .serverFlight, .established: nil
        }
    }

    /// The flight's bytes while it is being sent. O(1).
    var flight: Outbound? {
        if case let .serverFlight(flight) = self { return flight }
        return nil
    }

    /// Changes the flight's bytes in place, if the flight is being sent. O(1).
    mutating func updateFlight(_ body: (inout Outbound) -> Void) {
        guard case var .serverFlight(flight) = self else { return }
        body(&flight)
        self = .serverFlight(flight)
    }
}
