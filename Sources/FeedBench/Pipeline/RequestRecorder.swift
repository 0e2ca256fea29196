/// The requests a run sends over the network, as `bench serve` would log them
/// (`bench run --requests FILE`, in `RequestLogFile`'s columns), so a simulated session and an
/// app's session against the server can be compared request for request.
///
/// - An image download is a line when its last byte arrives: `GET /images/{id}.jpg` (with
///   `?w=N` when the run asks for images N pixels wide), 200, the
///   image's bytes, timed from its first attempt leaving the device. A download cancelled after
///   it was sent is a line when it is cancelled, status 499 and the bytes received until then,
///   as the server logs a client that closed; downloads abandoned after their retries and those
///   still under way when the session ends have no line.
/// - A feed API call is a line when its answer arrives: `GET /v1/images/search?limit=10&page=N`
///   where N is the run's N-th call (the page `bench serve` answers with the same feed), with
///   its status (200, 500, 504, 429) and the bytes of `FeedAPIBody` for a server at
///   `FeedAPIBody.defaultAuthority`. Calls made while offline never reach a server.
/// - Times are from the run's start. `duration_ms` is what the app waited: handshakes, the
///   uplink, the shared downlink and the server's own time; `injected_delay_ms` is the server's
///   own time alone (the API's modelled latency; 0 for images). Connections are numbered as
///   the simulated network opened them, and `new_connection` marks the request that opened
///   one; a transport that does not say (a test's) gets slot numbers: image connections 1… up
///   to the per-host limit (the lowest free one), API calls the next number. `protocol` is the
///   network's HTTP version as ALPN names it (`http/1.1`, `h2`); `priority` is the one the
///   request went with: `high` (a visible cell's image, the API's call) or `low` (a prefetch's);
///   `sent_ms` is `time_ms` to the nanosecond, when the request went onto the network.
///
/// Recording costs O(1) per request and is off unless asked for.
struct RequestRecorder {
    private(set) var records: [RequestLogFile.Record] = []
    /// Whether image connection i + 1 is in use.
    var inUse: [Bool]
    /// The time the run started: records count from it.
    let origin: Int64
    /// Every request's `protocol`.
    let httpProtocol: String
    /// The width images are asked at (`ImageWidth.imagePath`); `nil`: the original.
    let imageWidth: Int?

    init(connections: Int, origin: Int64, httpProtocol: String = RequestLogFile.http11, imageWidth: Int? = nil) {
        inUse = [Bool](repeating: false, count: connections)
        self.origin = origin
        self.httpProtocol = httpProtocol
        self.imageWidth = imageWidth
    }

    /// The number of the lowest free image connection, now taken. O(connections).
    mutating func takeConnection() -> Int {
        let index = inUse.firstIndex(of: false) ?? inUse.count
        if index == inUse.count { inUse.append(true) } else { inUse[index] = true }
        return index + 1
    }

    mutating func releaseConnection(_ number: Int) {
        if number >= 1 && number <= inUse.count { inUse[number - 1] = false }
    }

    /// A download first sent at `sentAt` on `use` ended at `now`: it finished, or it was
    /// cancelled when `cancelledAfter` of its bytes had arrived.
    mutating func download(_ image: ImageDescriptor, sentAt: Int64, now: Int64, use: ConnectionUse, cancelledAfter received: Int64? = nil) {
        records.append(RequestLogFile.Record(
            time: sentAt - origin, method: "GET", path: ImageWidth.imagePath(image.url, pixels: imageWidth), status: received == nil ? 200 : RequestLogFile.clientClosed,
            bytes: received ?? image.encodedBytes, objectBytes: image.encodedBytes, injectedDelay: 0, duration: now - sentAt,
            connection: use.connection, newConnection: use.opened, httpProtocol: httpProtocol,
            priority: use.highPriority ? RequestLogFile.highPriority : RequestLogFile.lowPriority, sent: sentAt - origin))
    }

    /// The `call`-th API call, sent at `sentAt` on `use` (slot numbering when `nil`), answered at
    /// `now` after `serverTime` of the API's own.
    mutating func apiCall(_ call: Int, sentAt: Int64, now: Int64, serverTime: Int64, outcome: FeedAPIResponse.Outcome, use: ConnectionUse?) {
        let (status, body) = FeedAPIBody.response(outcome)
        let use = use ?? ConnectionUse(connection: inUse.count + 1, opened: false)
        records.append(RequestLogFile.Record(
            time: sentAt - origin, method: "GET", path: "/v1/images/search?limit=\(FeedAPIConfiguration.pageSize)&page=\(call)", status: status,
            bytes: Int64(body.utf8.count), objectBytes: nil, injectedDelay: serverTime, duration: now - sentAt,
            connection: use.connection, newConnection: use.opened, httpProtocol: httpProtocol, priority: RequestLogFile.highPriority,
            sent: sentAt - origin))
    }
}
