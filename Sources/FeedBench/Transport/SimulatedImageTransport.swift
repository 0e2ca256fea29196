/// The image host as the simulation models it, behind the image transport seam: downloads are
/// requests on the run's `SimulatedNetwork` (connections, handshakes, congestion windows, the
/// shared bottleneck, TCP's loss recovery). While the network is down (an outage) an attempt
/// fails at once without leaving the device and is retried after the network's retry timeout, up
/// to `maxRetries` times; then the download fails.
///
/// At most the network's requests per host download at once (6 connections over HTTP/1.1, up to
/// the server's stream limit over HTTP/2), so the linear scans are O(requests per host).
struct SimulatedImageTransport: ImageTransport {
    /// A download the pipeline has started and not yet been told is over.
    struct Download {
        var image: ImageDescriptor
        var serial: Int
        /// Whether a visible cell waits for it (its HTTP/2 stream's urgency).
        var highPriority: Bool
        /// Attempts failed so far (outages).
        var attempt = 0
        /// Whether its request is on the network.
        var sent = false
        /// The connection it went on, and whether it opened it (the request log's columns).
        var connection = ConnectionUse(connection: 0, opened: false)
    }

    let network: SimulatedNetwork
    /// The run's outages, made absolute at each launch in `offline`.
    let outages: OfflineSchedule
    /// Absolute times when the network is down during the current launch.
    var offline: [Range<Int64>] = []
    /// The downloads under way, in the order they started.
    var downloads: [Download] = []

    init(network: SimulatedNetwork, outages: OfflineSchedule = OfflineSchedule()) {
        self.network = network
        self.outages = outages
    }

    /// A transport with a network of its own (the pipeline on its own, as its tests drive it).
    init(network: NetworkProfile, outages: OfflineSchedule = OfflineSchedule(), seed: UInt64) {
        self.init(network: SimulatedNetwork(network: network, seed: seed), outages: outages)
    }

    func isOffline(at time: Int64) -> Bool { offline.contains { $0.contains(time) } }

    mutating func startLaunch(_ index: Int, at start: Int64) {
        offline = outages.absoluteIntervals(launch: index, start: start)
    }

    mutating func start<Clock: RunClock<SimulationEvent>>(_ image: ImageDescriptor, serial: Int, highPriority: Bool, at now: Int64,
                                                          clock: inout Clock) -> Bool {
        downloads.append(Download(image: image, serial: serial, highPriority: highPriority))
        return sendAttempt(downloads.count - 1, at: now, clock: &clock)
    }

    /// Sends download `index`'s request, or fails it at once while the network is down. Returns
    /// whether it left the device.
    mutating func sendAttempt<Clock: RunClock<SimulationEvent>>(_ index: Int, at now: Int64, clock: inout Clock) -> Bool {
        let download = downloads[index]
        if isOffline(at: now) {
            clock.schedule(.pipeline(.transport(.attemptLost(url: download.image.url, serial: download.serial))), after: 0)
            return false
        }
        let use = network.send(.image(url: download.image.url, serial: download.serial), to: .images,
                               responseBytes: download.image.encodedBytes, urgent: download.highPriority, at: now)
        downloads[index].sent = true
        downloads[index].connection = ConnectionUse(connection: use.connection, opened: use.opened, highPriority: download.highPriority)
        network.scheduleCheck(clock: &clock)
        return true
    }

    @discardableResult
    mutating func cancel<Clock: RunClock<SimulationEvent>>(_ url: UInt64, at now: Int64, clock: inout Clock) -> Int64 {
        guard let index = downloads.firstIndex(where: { $0.image.url == url }) else { return 0 }
        let download = downloads.remove(at: index)
        guard download.sent else { return 0 }
        let received = network.cancel(.image(url: url, serial: download.serial), at: now)
        network.scheduleCheck(clock: &clock)
        return received
    }

    mutating func cancelAll(at now: Int64) {
        network.reset(at: now)
        downloads.removeAll(keepingCapacity: true)
    }

    /// The index of the download `serial` of `url` while it waits to be sent again.
    func unsent(_ url: UInt64, serial: Int) -> Int? {
        downloads.firstIndex { $0.image.url == url && $0.serial == serial && !$0.sent }
    }

    mutating func handle<Clock: RunClock<SimulationEvent>>(_ event: TransportEvent, at now: Int64,
                                                           clock: inout Clock) -> TransferNews {
        switch event {
        case .responseStarted:
            return .nothing
        case let .attemptLost(url, serial), let .attemptOffline(url, serial):
            guard let index = unsent(url, serial: serial) else { return .nothing }
            downloads[index].attempt += 1
            if downloads[index].attempt <= network.network.maxRetries {
                let retryAt = now + (isOffline(at: now) ? network.network.retryTimeout : 0)
                clock.schedule(.pipeline(.transport(.retry(url: url, serial: serial))), at: retryAt)
                return .nothing
            }
            downloads.remove(at: index)
            return .failed(url)
        case let .retry(url, serial):
            guard let index = unsent(url, serial: serial) else { return .nothing }
            return sendAttempt(index, at: now, clock: &clock) ? .sent(url) : .nothing
        case .progress:
            network.checked(at: now)
            var finished: [UInt64] = []
            for payload in network.takeDelivered(at: now) {
                switch payload {
                case let .image(url, serial):
                    guard let index = downloads.firstIndex(where: { $0.image.url == url && $0.serial == serial }) else { continue }
                    finished.append(url)
                    lastFinished[url] = downloads.remove(at: index).connection
                case let .api(launch):
                    clock.schedule(.apiResponse(launch: launch), at: now)
                case .discarded:
                    break
                }
            }
            return .finished(finished)
        }
    }

    /// The connections of the downloads that finished at the last check, for the request log.
    var lastFinished: [UInt64: ConnectionUse] = [:]

    mutating func resume<Clock: RunClock<SimulationEvent>>(at now: Int64, clock: inout Clock) {
        lastFinished.removeAll(keepingCapacity: true)
        network.scheduleCheck(clock: &clock)
    }

    func connectionUse(_ url: UInt64) -> ConnectionUse? {
        lastFinished[url] ?? downloads.first { $0.image.url == url }?.connection
    }

    var bytesReceived: Int64 { network.imageBytesReceived }
}
