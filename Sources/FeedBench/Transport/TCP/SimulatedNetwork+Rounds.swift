/// A connection's rounds, as the network drives them: its sender says what the window lets out,
/// the pool shares it among the responses, the bottleneck's door takes its toll, the pool queues
/// what survives, and the sender learns the outcome; a round trip later it learns how the round
/// went, and the next one goes.
extension SimulatedNetwork {
    /// Releases what the window allows of connection `c`'s bytes into the buffer at `now`, for
    /// exchange `driver`'s event — shared among its responses by the pool — losing what overflows
    /// the buffer and what random loss strikes, and sets its next round. O(streams log streams).
    func release(on c: Int, driver: Int, at now: Int64) {
        let room = connections[c].sender.room(wirePerPayload: path.wirePerPayload)
        let roundTrip = roundTripNow()
        let bytes = pool.share(connections[c].sender.sendable(within: room), on: c, at: now, roundTrip: roundTrip,
                               connections: connections, exchanges: exchanges, wirePerPayload: path.wirePerPayload)
        // A transfer's first round is a burst: the server sends its window at once. It meets what
        // has reached the buffer, not the rest of the clocked rounds still arriving (lte's
        // browsing: without it, ns-3's median download is 0.89 of the model's; `TCPSender.Arrival`).
        let burst = !connections[c].sender.clocked
        let queuedBefore = burst ? arrivedWire(at: now) : bottleneck.queuedWire
        guard connections[c].sender.beginRound(bytes, room: room, burst: burst, at: now, roundTrip: roundTrip) else { return }
        let loss = bottleneck.loss(ofRound: bytes, at: now, burst: burst, slowStart: connections[c].sender.window.inSlowStart,
                                   queuedBefore: queuedBefore, segment: path.segment, baseRoundTrip: network.baseRoundTrip,
                                   randomLoss: network.loss, drawing: &generator)
        pool.queue(bytes, loss: loss, on: c, driver: driver, waitingForTimer: connections[c].sender.timeoutAt != nil,
                   connections: &connections, exchanges: &exchanges, bottleneck: &bottleneck, wirePerPayload: path.wirePerPayload)
        connections[c].sender.roundSent(bytes, loss: loss, burst: burst, at: now, roundTrip: roundTrip, path: path)
    }

    /// A round trip of connection `c` has passed, or its retransmission timer fired, at `now`
    /// (exchange `driver`'s event): its sender learns how the last round went, and the next
    /// round's bytes are released. O(streams log streams).
    func round(on c: Int, driver: Int, at now: Int64) {
        if connections[c].sender.timerFired(by: now) {
            connections[c].sender.fireTimer(at: now, keepingThreshold: network.recoveryTimeoutKeepsThreshold)
            pool.timerFired(on: c, connections: &connections, exchanges: &exchanges)
            release(on: c, driver: driver, at: now)
            return
        }
        // Fast retransmit's retransmissions meet the buffer as it is now (or as slow start's last
        // acknowledgements refilled it).
        let met = connections[c].sender.pendingLoss == .fastRecovery ? arrivedWire(at: now) : 0
        let (doomed, lost) = connections[c].sender.endRoundTrip(at: now, bufferMet: met, roundTrip: roundTripNow(),
                                                                  keepingThreshold: network.recoveryTimeoutKeepsThreshold, path: path)
        if doomed > 0 { pool.retransmissionsLost(doomed, of: lost, on: c, connections: &connections, exchanges: &exchanges) }
        release(on: c, driver: driver, at: now)
        connections[c].sender.keepNextRoundWithinTimer()
        // A stream whose bytes had all left waited for the repair (head-of-line blocking).
        if streamsShareOneByteStream { emptied(at: now) }
    }

    /// The wire bytes in the buffer at `now` less what the clocked rounds queued at their start
    /// have not delivered to it yet (each no more than it still has queued). O(exchanges).
    func arrivedWire(at now: Int64) -> Double {
        max(0, pool.arrived(bottleneck.queuedWire, at: now, connections: connections, exchanges: exchanges))
    }
}
