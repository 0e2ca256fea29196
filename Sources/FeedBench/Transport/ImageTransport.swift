/// The image transport seam: how the bytes of a download move once the pipeline has given it a
/// connection. The pipeline keeps everything the app decides — its caches, coalescing, the
/// priority queues and the connection limit, cancellation by the last requester, decoding — and
/// asks its transport only to start a download, to stop one, and what its events mean.
///
/// `SimulatedImageTransport` models the network (round trips, losses and retries, outages, the
/// shared bandwidth); the live one (`FeedLive`'s `HTTPImageTransport`) moves real bytes over HTTP
/// and hands what happens to them to the wall clock's inbox (`EventInbox`) as `TransportEvent`s
/// at their arrival times. Generic code over this protocol is specialised within the module, so
/// the simulated path pays nothing for the seam.
public protocol ImageTransport {
    /// Starts downloading `image` for the pipeline's task `serial` at `now`, `highPriority` when a
    /// visible cell waits for it (HTTP/2 serves such a stream before a prefetch's). Returns
    /// whether the request left the device; when it did not (the network is down), the
    /// transport retries it and reports `.sent` when an attempt does.
    mutating func start<Clock: RunClock<SimulationEvent>>(_ image: ImageDescriptor, serial: Int, highPriority: Bool, at now: Int64,
                                                          clock: inout Clock) -> Bool

    /// Stops the download of `url` (nobody wants it any more); its events no longer count.
    /// Returns the bytes of it that had arrived.
    @discardableResult
    mutating func cancel<Clock: RunClock<SimulationEvent>>(_ url: UInt64, at now: Int64, clock: inout Clock) -> Int64

    /// Stops every download at once (the app was killed or relaunched).
    mutating func cancelAll(at now: Int64)

    /// Handles one of the transport's own events and tells the pipeline what it means.
    mutating func handle<Clock: RunClock<SimulationEvent>>(_ event: TransportEvent, at now: Int64,
                                                           clock: inout Clock) -> TransferNews

    /// Called once the pipeline has acted on `.finished` news: the transport goes on with the
    /// downloads left. (The simulated link schedules its next check here, after whatever the
    /// pipeline scheduled for the finished downloads, so a run's events keep their order.)
    mutating func resume<Clock: RunClock<SimulationEvent>>(at now: Int64, clock: inout Clock)

    /// A launch starts at `start`: the transport takes on that launch's network conditions.
    mutating func startLaunch(_ index: Int, at start: Int64)

    /// Bytes received so far by the downloads under way (their buffers count as app memory).
    var bytesReceived: Int64 { get }

    /// The connection `url`'s download went on, while it is under way or at the check that
    /// finished it; `nil` when the transport does not say (the request log then numbers
    /// connections as slots).
    func connectionUse(_ url: UInt64) -> ConnectionUse?
}

extension ImageTransport {
    public func connectionUse(_ url: UInt64) -> ConnectionUse? { nil }
}

/// A request's connection, as the request log shows it: its number in the order connections
/// were opened, whether this request opened it (paying the handshakes), and whether it went with
/// high priority (a visible cell's, or the API's) or low (a prefetch's).
public struct ConnectionUse: Sendable, Equatable {
    public var connection: Int
    public var opened: Bool
    public var highPriority: Bool

    public init(connection: Int, opened: Bool, highPriority: Bool = true) {
        self.connection = connection
        self.opened = opened
        self.highPriority = highPriority
    }
}

/// An image transport's event on the run's clock. Each names the download it concerns by URL
/// and by the serial number of the pipeline's task, so an event for a cancelled download is
/// recognised and dropped. The simulated transport schedules these as its timers; the live one
/// posts them to the wall clock's inbox when the network reports progress.
public enum TransportEvent: Sendable {
    /// The response to the download's current attempt begins to arrive.
    case responseStarted(url: UInt64, serial: Int)
    /// The current attempt is lost (no connection, a dropped request): retried or given up.
    case attemptLost(url: UInt64, serial: Int)
    /// The current attempt was answered by a live server saying the network is down (`bench
    /// serve` offline): lost without leaving the device, as a simulated attempt made offline.
    case attemptOffline(url: UInt64, serial: Int)
    /// A lost attempt is tried again.
    case retry(url: UInt64, serial: Int)
    /// Bytes have arrived and downloads may have finished; `generation` is what the transport
    /// needs to recognise the check. The live transport posts one when a download's last byte
    /// arrives, tagged with that download's serial; the simulated one looks at its network at
    /// every check (one that finds nothing due does nothing) and tags them 0.
    case progress(generation: Int)
}

/// What a transport's event means for the pipeline's downloads.
public enum TransferNews {
    /// Nothing the pipeline acts on.
    case nothing
    /// An attempt at `url`'s download left the device (counted once per download).
    case sent(UInt64)
    /// `url`'s download gave up after its retries.
    case failed(UInt64)
    /// No attempt of `url`'s download has left the device after all (a live server answered that
    /// the network is down): it is not a request until one does; `gaveUp` when that was its
    /// last attempt.
    case unsent(UInt64, gaveUp: Bool)
    /// These downloads received their last byte, in the order they finished (possibly none).
    case finished([UInt64])
}
