#if HTTP
import FeedBench

/// The image transport over real HTTP: a download is `GET /images/{id}.jpg` (`bench serve`'s URL
/// for a catalogue image; `?w=N` for one asked N pixels wide) on one of the pipeline's connections, which still decides what starts,
/// in which priority and within which connection limit. Its bytes are counted as they arrive
/// (`bytesReceived`); when the last one has, the transport posts `.progress` tagged with the
/// download's serial. A 5xx or a lost request is a lost attempt; an answer that the network
/// is down (`bench serve` offline) is a lost attempt that never left the device (`.unsent`); each is retried after the network's retry timeout up to its retries, as in simulation. A body
/// that is not the catalogue image's exact bytes, or another status, stops the run.
struct HTTPImageTransport: ImageTransport {
    /// A download under way: the pipeline's task, the HTTP request, the attempts lost so far.
    struct Download {
        var serial: Int
        var bytes: Int64
        var request: Int
        var attempt = 0
        /// Whether an attempt has reached the server (any answer but offline, or lost on the way).
        var reached = false
        /// Whether it went with high priority (a visible cell's image).
        var highPriority = false
    }

    let http: LiveHTTP
    let inbox: EventInbox
    let network: NetworkProfile
    /// The width images are asked at; `nil`: the original.
    let imageWidth: Int?
    /// The downloads under way, by image.
    var downloads: [UInt64: Download] = [:]

    /// Over HTTP/2 the download's priority goes as RFC 9218's `priority` header, as `bench
    /// serve` reads it: `u=1` (a visible cell's image) or `u=4` (a prefetch's). HTTP/1.1 has
    /// no priorities: there `highPriority` orders nothing.
    mutating func start<Clock: RunClock<SimulationEvent>>(_ image: ImageDescriptor, serial: Int, highPriority: Bool, at now: Int64,
                                                          clock: inout Clock) -> Bool {
        downloads[image.url] = Download(serial: serial, bytes: image.encodedBytes, request: 0, highPriority: highPriority)
        send(image.url)
        return true
    }

    /// Sends an attempt at `url`'s download.
    mutating func send(_ url: UInt64) {
        guard let download = downloads[url] else { return }
        let path = ImageWidth.imagePath(url, pixels: imageWidth)
        let (http, inbox, serial, expected) = (http, inbox, download.serial, download.bytes)
        let priority = network.multiplexes ? [(name: "priority", value: download.highPriority ? "u=1" : "u=4")] : []
        inbox.expect()
        downloads[url]?.request = http.get(path, keepsBody: false, headers: priority) { answer in
            switch answer {
            case let .reply(200, _, bytes) where bytes == expected:
                inbox.post(.pipeline(.transport(.progress(generation: serial))))
            case .reply(500...599, _, _), .lost:
                inbox.post(.pipeline(.transport(.attemptLost(url: url, serial: serial))))
            case .offline:
                inbox.post(.pipeline(.transport(.attemptOffline(url: url, serial: serial))))
            case let .reply(status, _, bytes):
                http.refuse(path, "expected the catalogue image \(url) of bench serve: a JPEG of \(expected) bytes, found HTTP status \(status) with \(bytes) bytes")
                inbox.forgo()
            case .none:
                inbox.forgo()
            }
        }
    }

    mutating func cancel<Clock: RunClock<SimulationEvent>>(_ url: UInt64, at now: Int64, clock: inout Clock) -> Int64 {
        guard let download = downloads.removeValue(forKey: url) else { return 0 }
        return http.cancel(download.request)
    }

    mutating func cancelAll(at now: Int64) {
        for download in downloads.values { http.cancel(download.request) }
        downloads.removeAll()
    }

    mutating func handle<Clock: RunClock<SimulationEvent>>(_ event: TransportEvent, at now: Int64,
                                                           clock: inout Clock) -> TransferNews {
        switch event {
        case let .progress(serial):
            guard let (url, _) = downloads.first(where: { $0.value.serial == serial }) else { return .nothing }
            downloads[url] = nil
            return .finished([url])
        case let .attemptLost(url, serial), let .attemptOffline(url, serial):
            guard downloads[url]?.serial == serial else { return .nothing }
            if case .attemptLost = event { downloads[url]!.reached = true }
            downloads[url]!.attempt += 1
            let gaveUp = downloads[url]!.attempt > network.maxRetries
            let reached = downloads[url]!.reached
            if gaveUp {
                downloads[url] = nil
            } else {
                clock.schedule(.pipeline(.transport(.retry(url: url, serial: serial))), at: now + network.retryTimeout)
            }
            return reached ? (gaveUp ? .failed(url) : .nothing) : .unsent(url, gaveUp: gaveUp)
        case let .retry(url, serial):
            guard downloads[url]?.serial == serial else { return .nothing }
            send(url)
            return .sent(url)
        case .responseStarted:
            // Never posted: a live download is one event, when its last byte has arrived.
            return .nothing
        }
    }

    /// Nothing to do: every download under way moves on its own.
    mutating func resume<Clock: RunClock<SimulationEvent>>(at now: Int64, clock: inout Clock) {}

    /// Nothing to do: the network's conditions are the server's.
    mutating func startLaunch(_ index: Int, at start: Int64) {}

    var bytesReceived: Int64 { http.bytesInFlight }
}
#endif
