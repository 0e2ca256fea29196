/// What the pipeline reports to its owner: the results row's counters, the request log when the
/// run records one, and the images ready for, or failed for, a waiting display since the owner
/// last took them. Every operation is O(1) (amortized).
struct PipelineOutputs {
    /// Downloads whose first attempt left the device.
    private(set) var imageRequests = 0
    /// Downloads cancelled after they were sent.
    private(set) var cancelledRequests = 0
    private(set) var bytesDownloaded: Int64 = 0
    /// URLs downloaded by tasks the prefetcher started.
    private(set) var prefetchDownloads = Set<UInt64>()
    /// The requests sent, when the run records them (`bench run --requests`).
    var requestLog: RequestRecorder?
    private var ready: [UInt64] = []
    private var failed: [UInt64] = []

    var isRecording: Bool { requestLog != nil }

    /// A download's first attempt left the device.
    mutating func requestSent() {
        imageRequests += 1
    }

    /// A download counted as sent turned out never to have left the device.
    mutating func requestUnsent() {
        imageRequests -= 1
    }

    /// The request log's lowest free image connection, now taken; 0 when not recording.
    /// O(connections).
    mutating func takeConnection() -> Int {
        requestLog?.takeConnection() ?? 0
    }

    /// Request-log connection `connection` is free again.
    mutating func releaseConnection(_ connection: Int) {
        requestLog?.releaseConnection(connection)
    }

    /// A download first sent at `sentAt` on `use` finished at `now`: a request-log line.
    mutating func logDownload(_ image: ImageDescriptor, sentAt: Int64, now: Int64, use: ConnectionUse) {
        requestLog?.download(image, sentAt: sentAt, now: now, use: use)
    }

    /// A download first sent at `sentAt` on `use` was cancelled at `now`, `received` of its
    /// bytes in.
    mutating func downloadCancelled(_ image: ImageDescriptor, sentAt: Int64, now: Int64, use: ConnectionUse, received: Int64) {
        cancelledRequests += 1
        requestLog?.download(image, sentAt: sentAt, now: now, use: use, cancelledAfter: received)
    }

    /// `image`'s data arrived, for a task the prefetcher started or not.
    mutating func downloaded(_ image: ImageDescriptor, startedByPrefetch: Bool) {
        bytesDownloaded += image.encodedBytes
        if startedByPrefetch { prefetchDownloads.insert(image.url) }
    }

    /// `url` was decoded for a waiting display.
    mutating func imageReady(_ url: UInt64) {
        ready.append(url)
    }

    /// `url`'s download failed while a display waited for it.
    mutating func imageFailed(_ url: UInt64) {
        failed.append(url)
    }

    /// The images decoded for a waiting display since the last call, in completion order.
    mutating func takeReady() -> [UInt64] { Self.take(&ready) }

    /// The downloads that failed for a waiting display since the last call.
    mutating func takeFailed() -> [UInt64] { Self.take(&failed) }

    /// What `list` holds, leaving it empty.
    private static func take(_ list: inout [UInt64]) -> [UInt64] {
        // Most calls find nothing: returning the list and then emptying it in place would copy
        // its (shared) buffer every time.
        guard !list.isEmpty else { return [] }
        defer { list = [] }
        return list
    }

    /// Forgets the images not yet taken (the app was killed or relaunched); counters and the
    /// request log are kept.
    mutating func dropUntaken() {
        ready.removeAll()
        failed.removeAll()
    }
}
