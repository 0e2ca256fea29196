/// HTTP/2's share of one connection's round among its streams (RFC 9113 flow control, RFC 9218
/// urgency): the urgent streams (a visible cell's, the API's) before the others; within an
/// urgency equally, a stream that needs less than its share giving the rest to the others; none
/// beyond what it may send (its flow-control window less what of it is still queued, as the
/// caller says in its demand), and all together not beyond the connection's room. A reset stream
/// whose RST_STREAM has not reached the server yet gets only the part of its equal share that
/// leaves before it does.
///
/// It keeps its last shares (and reuses their storage: a round allocates nothing).
struct StreamScheduler: Sendable {
    /// A stream's claim on a round.
    struct Demand: Sendable, Equatable {
        /// Whom the share is for (the caller's index), and the stream's id (ties go to the lower).
        var stream: Int
        var id: Int
        var urgent: Bool
        /// What it may send: its bytes owed within its flow-control window.
        var bytes: Double
        /// A reset stream's share of the round that leaves before its RST_STREAM reaches the
        /// server, 0–1 (1 once it has); `nil` for a stream not reset.
        var beforeReset: Double?
    }

    /// The demands of the round being shared, in the streams' order (`demand`), then the
    /// streams' parts of it once shared, in the order they were given (urgent first, then the
    /// smallest need, then the lower id). Streams given nothing may be left out.
    private(set) var shares: [Demand] = []
    /// The demands as made, while a reset stream's share is worked out.
    private var demands: [Demand] = []

    /// A new round's demands follow (`demand`), then `share`. O(1).
    mutating func startRound() {
        shares.removeAll(keepingCapacity: true)
    }

    /// A stream's claim on the round being shared, in the streams' order; only positive claims
    /// count. O(1) amortized.
    mutating func demand(_ demand: Demand) {
        if demand.bytes > 0 { shares.append(demand) }
    }

    /// Shares up to `bytes` among the round's demands, within `room`, the connection's window
    /// left. Returns the bytes given; each stream's part is in `shares`. O(streams log streams).
    mutating func share(_ bytes: Double, room: Double) -> Double {
        let allowed = max(0, min(bytes, room))
        guard shares.contains(where: { $0.beforeReset != nil }) else { return distribute(allowed) }
        // A reset stream's equal share, then the part of it that leaves before the reset arrives.
        demands.removeAll(keepingCapacity: true)
        demands.append(contentsOf: shares)
        _ = distribute(allowed)
        swap(&shares, &demands)
        for m in shares.indices {
            guard let before = shares[m].beforeReset else { continue }
            let equal = demands.first { $0.stream == shares[m].stream }?.bytes ?? 0
            shares[m].bytes = min(shares[m].bytes, equal * before)
        }
        shares.removeAll { $0.bytes <= 0 }
        return distribute(allowed)
    }

    /// Gives `bytes` to `shares` by their needs — urgent first, then the smallest need first (the
    /// lower id on a tie), so that a stream wanting less than an equal share takes only what it
    /// wants — leaving each one's part in `shares`; returns the sum given. O(streams log streams).
    private mutating func distribute(_ bytes: Double) -> Double {
        shares.sort { a, b in
            if a.urgent != b.urgent { return a.urgent }
            return a.bytes != b.bytes ? a.bytes < b.bytes : a.id < b.id
        }
        var left = bytes, k = 0
        while k < shares.count {
            // The streams of this urgency still to be given their share.
            var end = k
            while end < shares.count && shares[end].urgent == shares[k].urgent { end += 1 }
            for m in k..<end {
                let equal = left / Double(end - m)
                let given = shares[m].bytes <= equal ? shares[m].bytes : equal
                shares[m].bytes = given
                left -= given
            }
            k = end
        }
        return bytes - left
    }
}
