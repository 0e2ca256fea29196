/// What a connection's sender owes one byte stream of its own — a response, or the server's TLS
/// flight — and where those bytes are: not yet queued (`unsent`), of those the ones whose
/// retransmissions were lost and wait for the timer, what the last round lost of it, and its
/// chunks in the bottleneck with their wire bytes. Payload bytes unless named `Wire`.
///
/// Over HTTP/1.1 a connection carries one at a time and its sender's counts are this stream's;
/// over HTTP/2 the sender's counts are its streams' sums (`HTTP2Connections`), and the windows
/// of flow control read each stream's queued bytes.
struct Outbound: Sendable, Equatable {
    var unsent: Double
    var awaitingTimeout = 0.0
    var lostInRound = 0.0
    var queuedChunks = 0
    var queuedWire = 0.0

    init(unsent: Double) {
        self.unsent = unsent
    }

    /// Whether nothing of it is left to send and none of its bytes is queued. O(1).
    var isDrained: Bool { queuedChunks == 0 && unsent == 0 }

    /// A chunk of `wire` bytes of it joined the buffer. O(1).
    mutating func queued(_ wire: Double) {
        queuedChunks += 1
        queuedWire += wire
    }

    /// `wire` bytes of its oldest queued chunk have left the buffer; `chunkLeft` when that was the
    /// chunk's last. O(1).
    mutating func served(_ wire: Double, chunkLeft: Bool) {
        if chunkLeft { queuedChunks -= 1 }
        queuedWire = queuedChunks == 0 ? 0 : max(0, queuedWire - wire)
    }
}
