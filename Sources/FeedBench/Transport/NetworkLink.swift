/// The downlink as a fluid: active transfers share the bandwidth equally (processor sharing),
/// so each one's finish time moves whenever a transfer starts or ends. The link tells when the
/// next transfer finishes; the simulator schedules one check for that instant, tagged with the
/// link's `generation` so checks made stale by a later change are ignored.
///
/// At most `connectionsPerHost` transfers are active, so the linear scans here are O(6).
struct NetworkLink {
    struct Transfer {
        var url: UInt64
        var total: Double
        var remaining: Double
    }

    let bytesPerNanosecond: Double
    var transfers: [Transfer] = []
    var lastUpdate: Int64 = 0
    /// Increases with every change; a scheduled check carries the value it was made with.
    private(set) var generation = 0

    init(network: NetworkProfile) {
        bytesPerNanosecond = network.bytesPerSecond / 1e9
    }

    /// Moves every transfer forward to `now` at its share of the bandwidth.
    mutating func advance(to now: Int64) {
        if !transfers.isEmpty, now > lastUpdate {
            let progress = bytesPerNanosecond / Double(transfers.count) * Double(now - lastUpdate)
            for i in transfers.indices { transfers[i].remaining -= progress }
        }
        lastUpdate = now
    }

    mutating func start(_ url: UInt64, bytes: Int64, at now: Int64) {
        advance(to: now)
        transfers.append(Transfer(url: url, total: Double(bytes), remaining: Double(bytes)))
        generation += 1
    }

    /// Stops `url`'s transfer at `now`; returns the bytes it had received.
    @discardableResult
    mutating func cancel(_ url: UInt64, at now: Int64) -> Int64 {
        advance(to: now)
        guard let index = transfers.firstIndex(where: { $0.url == url }) else { return 0 }
        let transfer = transfers.remove(at: index)
        generation += 1
        return Int64(min(transfer.total, transfer.total - transfer.remaining))
    }

    /// Removes and returns the transfers finished by `now` (in start order).
    mutating func takeFinished(at now: Int64) -> [UInt64] {
        advance(to: now)
        // A transfer within a byte of done is done: the check was scheduled for its finish.
        let finished = transfers.filter { $0.remaining < 1 }.map(\.url)
        if !finished.isEmpty {
            transfers.removeAll { $0.remaining < 1 }
            generation += 1
        }
        return finished
    }

    /// When the first active transfer will finish at the current sharing, if any.
    func nextFinish() -> Int64? {
        guard let least = transfers.map(\.remaining).min() else { return nil }
        let rate = bytesPerNanosecond / Double(transfers.count)
        return lastUpdate + Int64((max(0, least) / rate).rounded(.up))
    }

    /// Bytes received so far by the transfers under way (their buffers count as app memory).
    var bytesReceived: Int64 { Int64(transfers.reduce(0) { $0 + min($1.total, $1.total - $1.remaining) }) }
}
