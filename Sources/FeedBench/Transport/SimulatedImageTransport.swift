/// The network as the simulation models it (DESIGN.md §1.5), behind the image transport seam:
/// each attempt is a round trip drawn from the network's one-way delay, or a loss noticed after
/// the retry timeout; a lost attempt is retried up to `maxRetries` times; while the network is
/// down an attempt fails at once and is retried after the timeout; the response's bytes share the
/// downlink with the other transfers (`NetworkLink`). Draws come from the run's `AttemptDraws`, in
/// the order the attempts are made.
///
/// At most the network's connections per host download at once, so the linear scans are O(6).
struct SimulatedImageTransport: ImageTransport {
    /// A download the pipeline has started and not yet been told is over.
    struct Download {
        var url: UInt64
        var serial: Int
        var bytes: Int64
        /// Attempts lost so far.
        var attempt = 0
        /// Whether the response is arriving (on the link); before that, an attempt is under way.
        var transferring = false
    }

    let network: NetworkProfile
    /// The run's outages, made absolute at each launch in `offline`.
    let outages: OfflineSchedule
    var link: NetworkLink
    var draws: AttemptDraws
    /// Absolute times when the network is down during the current launch.
    var offline: [Range<Int64>] = []
    /// The downloads under way, in the order they started.
    var downloads: [Download] = []

    init(network: NetworkProfile, outages: OfflineSchedule = OfflineSchedule(), seed: UInt64) {
        self.network = network
        self.outages = outages
        link = NetworkLink(network: network)
        draws = AttemptDraws(seed: seed)
    }

    func isOffline(at time: Int64) -> Bool { offline.contains { $0.contains(time) } }

    mutating func startLaunch(_ index: Int, at start: Int64) {
        offline = outages.absoluteIntervals(launch: index, start: start)
    }

    mutating func start<Clock: RunClock<SimulationEvent>>(_ image: ImageDescriptor, serial: Int, at now: Int64,
                                                          clock: inout Clock) -> Bool {
        downloads.append(Download(url: image.url, serial: serial, bytes: image.encodedBytes))
        return sendAttempt(downloads[downloads.count - 1], at: now, clock: &clock)
    }

    /// One attempt: a round trip to the first byte, or a loss noticed after the retry timeout.
    /// Returns whether it left the device.
    mutating func sendAttempt<Clock: RunClock<SimulationEvent>>(_ download: Download, at now: Int64, clock: inout Clock) -> Bool {
        let (url, serial) = (download.url, download.serial)
        if isOffline(at: now) {
            // No connection: the attempt fails at once and is retried after the timeout.
            clock.schedule(.pipeline(.transport(.attemptLost(url: url, serial: serial))), after: 0)
            return false
        }
        switch draws.next(on: network) {
        case .lost:
            clock.schedule(.pipeline(.transport(.attemptLost(url: url, serial: serial))), after: network.retryTimeout)
        case let .roundTrip(roundTrip):
            clock.schedule(.pipeline(.transport(.responseStarted(url: url, serial: serial))), after: roundTrip)
        }
        return true
    }

    @discardableResult
    mutating func cancel<Clock: RunClock<SimulationEvent>>(_ url: UInt64, at now: Int64, clock: inout Clock) -> Int64 {
        guard let index = downloads.firstIndex(where: { $0.url == url }), downloads.remove(at: index).transferring else { return 0 }
        let received = link.cancel(url, at: now)
        scheduleCheck(clock: &clock)
        return received
    }

    mutating func cancelAll(at now: Int64) {
        for url in link.transfers.map(\.url) { link.cancel(url, at: now) }
        downloads.removeAll(keepingCapacity: true)
    }

    /// The index of the download `serial` of `url` while an attempt of it is under way.
    func attempting(_ url: UInt64, serial: Int) -> Int? {
        downloads.firstIndex { $0.url == url && $0.serial == serial && !$0.transferring }
    }

    mutating func handle<Clock: RunClock<SimulationEvent>>(_ event: TransportEvent, at now: Int64,
                                                           clock: inout Clock) -> TransferNews {
        switch event {
        case let .responseStarted(url, serial):
            guard let index = attempting(url, serial: serial) else { return .nothing }
            downloads[index].transferring = true
            link.start(url, bytes: downloads[index].bytes, at: now)
            scheduleCheck(clock: &clock)
            return .nothing
        case let .attemptLost(url, serial), let .attemptOffline(url, serial):
            guard let index = attempting(url, serial: serial) else { return .nothing }
            downloads[index].attempt += 1
            if downloads[index].attempt <= network.maxRetries {
                let retryAt = now + (isOffline(at: now) ? network.retryTimeout : 0)
                clock.schedule(.pipeline(.transport(.retry(url: url, serial: serial))), at: retryAt)
                return .nothing
            }
            downloads.remove(at: index)
            return .failed(url)
        case let .retry(url, serial):
            guard let index = attempting(url, serial: serial) else { return .nothing }
            return sendAttempt(downloads[index], at: now, clock: &clock) ? .sent(url) : .nothing
        case let .progress(generation):
            guard generation == link.generation else { return .nothing }
            let finished = link.takeFinished(at: now)
            if !finished.isEmpty { downloads.removeAll { finished.contains($0.url) } }
            return .finished(finished)
        }
    }

    mutating func resume<Clock: RunClock<SimulationEvent>>(at now: Int64, clock: inout Clock) {
        scheduleCheck(clock: &clock)
    }

    /// Schedules a look at the link for when its first transfer will finish, if any.
    func scheduleCheck<Clock: RunClock<SimulationEvent>>(clock: inout Clock) {
        if let finish = link.nextFinish() {
            clock.schedule(.pipeline(.transport(.progress(generation: link.generation))), at: max(finish, clock.now))
        }
    }

    var bytesReceived: Int64 { link.bytesReceived }
}
