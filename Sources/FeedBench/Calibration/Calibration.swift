import Foundation

/// `bench calibrate`: reads captures of a team's traffic — HAR files, `bench serve` logs — and
/// fits the simulator's inputs to them, as a `Workload`:
///
/// - **API** (calls the classifier calls API, answered): latency from HAR `timings.wait` (a
///   serve log's `injected_delay_ms`, the server's own time; `duration_ms` in a log of the
///   earlier 9-column format) as a log-normal by maximum likelihood, given by its mean and
///   p99 (a fixed latency at the median when the fit has no log-normal, e.g. one call); the
///   share of 5xx answers as the failure probability. 429s are counted, not made a rule
///   (a capture cannot show the rule's window); spikes stay 0 (the fitted tail holds them).
/// - **Images** (downloads answered 200): encoded bytes as a 101-point quantile table (0 %…100 %),
///   dimensions from the API's items (`width`, `height`) and from the images' own headers when
///   the capture holds bodies, the 64 most frequent pairs.
/// - **Network**, from the host that served the most image bytes: the round trip from TCP
///   handshakes (`connect` less `ssl`), else the 10th percentile of `wait` (a CDN answers a
///   cached image at once); one-way delays between half its 10th and 90th percentiles; bandwidth
///   as the bytes received over the time anything was being received (overlapping downloads
///   counted once), from transfers of 16 KB or more; connections as the most open at once.
///   A serve log has no split timings, but it has the server's own time and which requests
///   opened a connection: its requests are replayed through the network model
///   (`SimulatedNetwork`, at their logged arrivals, API calls after their server time) and the
///   round trip and bandwidth are the ones whose times match the log's: the round trip that
///   gives the requests on reused connections whose answer fits in the initial window (API
///   calls: no handshake, no slow start) their logged durations at the median, the bandwidth
///   that gives the completed downloads their logged durations in total; three rounds of each.
///   Jitter is not fitted from a log (the one-way delay is fixed). A log of the earlier
///   9-column format: a least-squares line through the image downloads that overlapped no
///   other gives the round trip (its intercept) and the bandwidth (its slope).
///   Loss is not measured (0).
///
/// What a capture cannot give falls back to the built-in model, and `fit` says so (`assumed`).
/// O(requests log requests) time; memory O(requests) for the few numbers kept of each.
public struct Calibration {
    public private(set) var requests: [CapturedRequest] = []
    let sources: CaptureSources

    public init(classifier: RequestClassifier = RequestClassifier()) {
        sources = CaptureSources(classifier: classifier)
    }

    /// Adds a HAR capture, all or nothing: a refused capture adds no request.
    public mutating func addHAR(_ reader: HARReader) throws {
        let before = requests.count
        do {
            _ = try reader.forEachEntry { entry in requests.append(try sources.request(entry, source: reader.path)) }
        } catch {
            requests.removeSubrange(before...)
            throw error
        }
    }

    /// Adds the `bench serve --log` file at `path`, all or nothing.
    public mutating func addLog(path: String) throws {
        try addLog(bytes: ReadableFile.bytes(at: path), source: path)
    }

    /// Adds a `bench serve --log` file's bytes, all or nothing.
    public mutating func addLog(bytes: [UInt8], source: String) throws {
        let serverTimes = RequestLogFile.startsWithCurrentHeader(bytes.prefix(200))
        requests += try RequestLogFile.records(parsing: bytes, source: source).map { sources.request($0, serverTimes: serverTimes) }
    }

    /// The fitted workload. Refuses captures in which no request is an API call or an image.
    /// Memory: the captured requests, plus a few numbers per image download.
    public func workload(source: String) throws -> Workload {
        let calls = requests.filter { $0.kind == .api && $0.status != 0 }
        let downloads = requests.lazy.filter { $0.kind == .image && $0.status == 200 && $0.bodyBytes != nil }
        let downloadBytes = self.downloadBytes
        guard !calls.isEmpty || !downloadBytes.isEmpty else {
            throw InputError(source: source, "expected feed-API calls (JSON) or image downloads (image/*), found none among \(requests.count) requests; give --api and --images patterns")
        }
        var fit = CalibrationFit()
        fit.requests = requests.count
        fit.apiCalls = calls.count
        fit.imageDownloads = downloadBytes.count
        let api = fitAPI(calls, into: &fit)
        let images = try fitImages(downloadBytes, into: &fit, source: source)
        var bytesByHost: [String: Int] = [:]
        if downloadBytes.isEmpty {
            for call in calls { bytesByHost[call.host, default: 0] += call.bodyBytes ?? 1 }
        } else {
            for download in downloads { bytesByHost[download.host, default: 0] += download.bodyBytes! }
        }
        let host = bytesByHost.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.first!.key
        return Workload(network: fitNetwork(host: host, into: &fit), api: api, images: images, fit: fit)
    }

    // MARK: API

    /// The answered (2xx) API calls' latencies in milliseconds: HAR `wait`, a log's server time
    /// (its duration in a log of the earlier format).
    var apiLatencies: [Double] {
        requests.filter { $0.kind == .api && (200..<300).contains($0.status) }.map { $0.serverTime ?? $0.wait ?? $0.duration }
    }

    /// The bytes of the image downloads answered 200.
    var downloadBytes: [Double] {
        requests.filter { $0.kind == .image && $0.status == 200 }.compactMap(\.bodyBytes).map(Double.init)
    }

    func fitAPI(_ calls: [CapturedRequest], into fit: inout CalibrationFit) -> FeedAPIConfiguration {
        var api = FeedAPIConfiguration()
        fit.apiFailures = calls.filter { $0.status >= 500 }.count
        fit.apiRateLimited = calls.filter { $0.status == 429 }.count
        let pages = calls.compactMap(\.items)
        if !pages.isEmpty { fit.itemsPerPage = min(1_000_000, Int(EmpiricalQuantiles(pages.map(Double.init)).quantile(0.5).rounded())) }
        guard !calls.isEmpty else { return api }
        api.failureProbability = Double(fit.apiFailures) / Double(calls.count)
        let latencies = apiLatencies
        if let model = Self.latencyModel(latencies, ks: &fit.apiLatencyKS) {
            api.latency = model
        } else if !latencies.isEmpty, latencies.allSatisfy({ $0 == 0 }),
                  calls.allSatisfy({ $0.serverTime != nil }) {
            // A log's server took no time of its own on any call: that is its latency.
            api.latency = .fixed(0)
        }
        return api
    }

    /// A log-normal by its mean and p99 when one fits the sample, else the median as a fixed
    /// latency; `nil` for an empty sample. Rounded to whole microseconds.
    static func latencyModel(_ milliseconds: [Double], ks: inout Double?) -> LatencyModel? {
        let positive = milliseconds.filter { $0 > 0 && $0.isFinite }
        guard !positive.isEmpty else { return nil }
        let micro = { (ms: Double) in Self.nanoseconds(milliseconds: ms) / 1_000 * 1_000 }
        if let fit = LogNormalFit(positive), fit.p99 <= Self.longestMilliseconds,
           LatencyModel.logNormalParameters(mean: micro(fit.mean), p99: micro(fit.p99)) != nil {
            ks = fit.ksDistance
            return .logNormal(mean: micro(fit.mean), p99: micro(fit.p99))
        }
        return .fixed(micro(EmpiricalQuantiles(positive).quantile(0.5)))
    }

    /// The longest time a fitted model holds: a day, as the conditions' JSON allows.
    static let longestMilliseconds = 86_400_000.0

    /// Milliseconds as nanoseconds, clamped to 0…a day (captures may hold anything).
    static func nanoseconds(milliseconds: Double) -> Int64 {
        guard milliseconds.isFinite, milliseconds > 0 else { return 0 }
        return Int64((min(milliseconds, longestMilliseconds) * 1e6).rounded())
    }

    // MARK: Images

    func fitImages(_ downloadBytes: [Double], into fit: inout CalibrationFit, source: String) throws -> MeasuredImageSizes {
        var bytes = downloadBytes
        if bytes.isEmpty {
            // The built-in photo feed's sizes.
            let catalog = ImageCatalog(seed: 0)
            bytes = (0..<1_000).map { Double(catalog.descriptor(UInt64($0)).encodedBytes) }
        } else if let logNormal = LogNormalFit(bytes) {
            fit.imageBytesKS = logNormal.ksDistance
        }
        let quantiles = EmpiricalQuantiles(bytes)
        let table = (0...100).map { Int64(min(Double(MeasuredImageSizes.maximumBytes), max(1, quantiles.quantile(Double($0) / 100).rounded()))) }

        let pairs = requests.flatMap(\.dimensions).filter { (1...MeasuredImageSizes.maximumSide).contains($0.width) && (1...MeasuredImageSizes.maximumSide).contains($0.height) }
        var counts: [[Int]: Int] = [:]
        for pair in pairs { counts[[pair.width, pair.height], default: 0] += 1 }
        if counts.isEmpty {
            let catalog = ImageCatalog(seed: 0)
            for id in 0..<1_000 {
                let image = catalog.descriptor(UInt64(id))
                counts[[image.pixelWidth, image.pixelHeight], default: 0] += 1
            }
        } else {
            let api = pairs.contains { !$0.fromHeader }, headers = pairs.contains { $0.fromHeader }
            fit.dimensionsFrom = api && headers ? "api+headers" : api ? "api" : "headers"
        }
        let top = counts.sorted { a, b in a.value != b.value ? a.value > b.value : a.key.lexicographicallyPrecedes(b.key) }.prefix(64)
        return try MeasuredImageSizes(byteQuantiles: table, dimensions: top.map { .init(width: $0.key[0], height: $0.key[1], count: $0.value) },
                                      source: source)
    }

    // MARK: Network

    /// The network `host` was reached over (see the type's documentation).
    func fitNetwork(host: String, into fit: inout CalibrationFit) -> NetworkProfile {
        var network = NetworkProfile.wifi
        network.name = "calibrated"
        fit.host = host
        let mine = requests.lazy.filter { $0.host == host && $0.status != 0 }
        // The HTTP version most of its requests went over (the preset's when the capture is silent).
        let versions = mine.compactMap(\.http)
        let http2 = versions.filter { $0 == .http2 }.count
        if !versions.isEmpty { network.http = 2 * http2 > versions.count ? .http2 : .http11 }
        let images = mine.filter { $0.kind == .image && $0.status == 200 && $0.bodyBytes != nil }

        var roundTrips = Array(mine.compactMap(\.connect))
        if !roundTrips.isEmpty {
            fit.roundTripFrom = "connect"
        } else if case let waits = Array(images.compactMap(\.wait).filter({ $0 > 0 })), !waits.isEmpty {
            roundTrips = [EmpiricalQuantiles(waits).quantile(0.1)]
            fit.roundTripFrom = "wait"
        }
        // Transfers of 16 KB or more (all of them when there are none): bits over busy time.
        var transfers = mine.filter { ($0.wireBytes ?? 0) >= 16_000 && $0.receiving != nil }.map { ($0.receiving!, $0.wireBytes!) }
        if transfers.isEmpty { transfers = mine.filter { ($0.wireBytes ?? 0) > 0 && $0.receiving != nil }.map { ($0.receiving!, $0.wireBytes!) } }
        let spansReceiving = Array(transfers.map(\.0))
        let busy = Self.unionLength(spansReceiving)
        if busy >= 1 {
            let bits = Double(transfers.reduce(0) { $0 + $1.1 }) * 8
            network.bitsPerSecond = Self.clampedBandwidth(bits / (busy / 1_000))
            fit.bandwidthFrom = "receive"
        } else if roundTrips.isEmpty, let replayed = Self.replayFit(Array(mine), base: network) {
            // A serve log of the current format: the network model's times matched to the log's.
            network = replayed
            fit.bandwidthFrom = "replay"
            fit.roundTripFrom = "replay"
        } else if roundTrips.isEmpty, let line = Self.transferLine(Array(images)) {
            // A serve log: duration = round trip + bytes × slope.
            network.bitsPerSecond = Self.clampedBandwidth(8_000 / line.msPerByte)
            roundTrips = line.roundTrips
            fit.bandwidthFrom = "duration"
            fit.roundTripFrom = "duration"
        }
        if !roundTrips.isEmpty {
            let quantiles = EmpiricalQuantiles(roundTrips)
            let half = { (ms: Double) in Self.nanoseconds(milliseconds: ms / 2) / 1_000 * 1_000 }  // in whole µs
            network.oneWayDelay = half(quantiles.quantile(0.1))...half(quantiles.quantile(0.9))
        }
        // Connections: each one's span from its first request to its last; requests without a
        // connection id count as one each.
        var spans: [Range<Double>] = []
        var byConnection: [String: Range<Double>] = [:]
        for request in mine {
            let span = request.start..<(request.start + max(request.duration, 0.001))
            if let key = request.connection {
                byConnection[key] = byConnection[key].map { min($0.lowerBound, span.lowerBound)..<max($0.upperBound, span.upperBound) } ?? span
            } else {
                spans.append(span)
            }
        }
        spans += byConnection.values
        network.connectionsPerHost = min(1_000, max(1, Self.mostAtOnce(spans)))
        // A capture times what came down: the uplink is taken to be the downlink's equal.
        network.uplinkBitsPerSecond = network.bitsPerSecond
        network.uplinkDelay = network.oneWayDelay.lowerBound
        return network
    }

    static func clampedBandwidth(_ bitsPerSecond: Double) -> Int64 {
        guard bitsPerSecond.isFinite else { return 100_000_000_000 }
        return Int64(min(100_000_000_000, max(1_000, bitsPerSecond.rounded())))
    }

    /// The total length of the union of `spans`. O(n log n).
    static func unionLength(_ spans: [Range<Double>]) -> Double {
        var total = 0.0
        var current: Range<Double>?
        for span in spans.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let open = current, span.lowerBound <= open.upperBound {
                current = open.lowerBound..<max(open.upperBound, span.upperBound)
            } else {
                if let open = current { total += open.upperBound - open.lowerBound }
                current = span
            }
        }
        if let open = current { total += open.upperBound - open.lowerBound }
        return total
    }

    /// The most spans open at one time. O(n log n).
    static func mostAtOnce(_ spans: [Range<Double>]) -> Int {
        var edges: [(time: Double, step: Int)] = []
        for span in spans {
            edges.append((span.lowerBound, 1))
            edges.append((span.upperBound, -1))
        }
        // Closings first at a tie: spans that touch do not overlap.
        edges.sort { $0.time != $1.time ? $0.time < $1.time : $0.step < $1.step }
        var open = 0, most = 0
        for (_, step) in edges {
            open += step
            most = max(most, open)
        }
        return most
    }

    /// The least-squares line duration = round trip + bytes × msPerByte through the downloads
    /// that overlapped no other (all of them when fewer than 3 did), and each one's round trip
    /// (its duration less its bytes' time); `nil` when the sizes do not vary or the slope is
    /// not positive.
    static func transferLine(_ downloads: [CapturedRequest]) -> (msPerByte: Double, roundTrips: [Double])? {
        let sorted = downloads.sorted { $0.start < $1.start }
        var alone: [CapturedRequest] = []
        var latestEnd = -Double.infinity
        for (i, request) in sorted.enumerated() {
            let end = request.start + request.duration
            let next = i + 1 < sorted.count ? sorted[i + 1].start : .infinity
            if latestEnd <= request.start && end <= next { alone.append(request) }
            latestEnd = max(latestEnd, end)
        }
        let points = (alone.count >= 3 ? alone : sorted).map { (x: Double($0.bodyBytes ?? 0), y: $0.duration) }
        guard points.count >= 2 else { return nil }
        let meanX = points.reduce(0) { $0 + $1.x } / Double(points.count), meanY = points.reduce(0) { $0 + $1.y } / Double(points.count)
        let sxx = points.reduce(0) { $0 + ($1.x - meanX) * ($1.x - meanX) }, sxy = points.reduce(0) { $0 + ($1.x - meanX) * ($1.y - meanY) }
        guard sxx > 0, sxy > 0 else { return nil }
        let slope = sxy / sxx
        return (slope, points.map { $0.y - slope * $0.x })
    }

    // MARK: Replaying a serve log

    /// The network, from `base` (its buffer, windows, TLS, timeouts), whose round trip and
    /// bandwidth give `requests` — one host's, from a serve log with server times — the
    /// durations the log has when replayed through the network model (see the type's
    /// documentation); `nil` when the log has no server times or nothing to time. The uplink is
    /// taken to be the downlink's equal, the delay split evenly. O((rounds × steps + 8 × (25 + steps)) ×
    /// replay), a replay being O(events × exchanges) as in a simulated run.
    static func replayFit(_ requests: [CapturedRequest], base: NetworkProfile) -> NetworkProfile? {
        let crossing = requests.indices.filter { Self.crossesNetwork(requests[$0]) }
        guard !crossing.isEmpty, crossing.allSatisfy({ requests[$0].serverTime != nil && requests[$0].opened != nil }) else { return nil }
        let answered = crossing.filter { requests[$0].status != 0 }
        // The round trip's sample: answers on reused connections that fit in the initial window
        // (one round: no handshake, no slow start), else any on reused connections, else any.
        let window = base.initialWindowSegments * base.maxSegmentBytes - Int(SimulatedNetwork.Sizes.responseHeaders)
        let reused = answered.filter { requests[$0].opened == false }
        let small = reused.filter { (requests[$0].responseBytes ?? 0) <= window }
        let timing = small.count >= 3 ? small : !reused.isEmpty ? reused : answered
        // The bandwidth's sample: the completed downloads, else every answer.
        let downloads = answered.filter { requests[$0].kind == .image && requests[$0].status == 200 }
        let transfers = downloads.isEmpty ? answered : downloads
        guard !timing.isEmpty else { return nil }

        let origin = crossing.map { requests[$0].start }.min()!
        func network(roundTrip: Double, bitsPerSecond: Double) -> NetworkProfile {
            var network = base
            let oneWay = Self.nanoseconds(milliseconds: roundTrip / 2) / 1_000 * 1_000
            network.oneWayDelay = oneWay...oneWay
            network.uplinkDelay = oneWay
            network.bitsPerSecond = Self.clampedBandwidth(bitsPerSecond)
            network.uplinkBitsPerSecond = network.bitsPerSecond
            return network
        }
        func durations(roundTrip: Double, bitsPerSecond: Double) -> [Int: Double] {
            Self.replay(requests, crossing, origin: origin, on: network(roundTrip: roundTrip, bitsPerSecond: bitsPerSecond))
        }
        // A first round trip: the sample's 10th percentile less the server's time.
        var roundTrip = EmpiricalQuantiles(timing.map { max(0, requests[$0].duration - requests[$0].serverTime!) }).quantile(0.1)
        var bitsPerSecond = 10_000_000.0
        let logged = transfers.reduce(0.0) { $0 + requests[$1].duration }
        let longest = timing.map { requests[$0].duration }.max()!
        // The round trip at which the sample's logged times exceed the replay's as often as they
        // fall short (more round trip, more time): bisection, to a microsecond.
        func fitRoundTrip() {
            var (shortest, longer) = (0.0, max(longest, 0.001))
            while longer - shortest > 0.001 {
                let middle = (shortest + longer) / 2
                let times = durations(roundTrip: middle, bitsPerSecond: bitsPerSecond)
                let residuals = timing.map { requests[$0].duration - (times[$0] ?? .infinity) }
                if EmpiricalQuantiles(residuals).quantile(0.5) > 0 { shortest = middle } else { longer = middle }
            }
            roundTrip = (shortest + longer) / 2
        }
        for _ in 0..<3 {
            // The bandwidth whose replay gives the transfers their logged time in total (more
            // bandwidth, less time): bisection on its logarithm, to 0.1 %.
            var (low, high) = (log(1_000.0), log(100_000_000_000.0))
            while high - low > 0.001 {
                let middle = (low + high) / 2
                let times = durations(roundTrip: roundTrip, bitsPerSecond: exp(middle))
                let total = transfers.reduce(0.0) { $0 + (times[$1] ?? .infinity) }
                if total > logged { low = middle } else { high = middle }
            }
            bitsPerSecond = exp((low + high) / 2)
            fitRoundTrip()
        }
        // Where losses come and go the total is not monotone in the bandwidth, and where the
        // transfers are window-bound it hardly moves with it, so the bisection may stop at
        // another bandwidth of about the same total: of the bandwidths within 24 % of it (steps
        // of 2 %), then within 3 % (steps of 0.25 %), the one whose replay times each transfer
        // best is kept, and the search moves on around it while that one is not the middle (a
        // few times at most), the round trip refitted.
        for step in [0.02, 0.0025] {
            for _ in 0..<4 {
                let nearby = (-12...12).map { offset in
                    let candidate = bitsPerSecond * (1 + Double(offset) * step)
                    return (offset, candidate, Self.squaredLogError(durations(roundTrip: roundTrip, bitsPerSecond: candidate), transfers, requests))
                }
                let best = nearby.min { $0.2 < $1.2 }!
                if best.0 == 0 { break }
                bitsPerSecond = best.1
                fitRoundTrip()
            }
        }
        return network(roundTrip: roundTrip, bitsPerSecond: bitsPerSecond)
    }

    /// The sum over `indices` of the squared logarithm of replayed over logged duration
    /// (a request the replay does not finish counts as infinitely far). O(indices).
    static func squaredLogError(_ times: [Int: Double], _ indices: [Int], _ requests: [CapturedRequest]) -> Double {
        indices.reduce(0.0) { total, index in
            guard let time = times[index], time > 0, requests[index].duration > 0 else { return .infinity }
            let ratio = log(time / requests[index].duration)
            return total + ratio * ratio
        }
    }

    /// Whether a logged request crossed the network model: an API call the server answered
    /// (200, 429, 500: not a timeout, an offline 503 or a refused query), an image it answered
    /// (200, 206, 304, 416) or whose client gave up on it (status 0).
    static func crossesNetwork(_ request: CapturedRequest) -> Bool {
        switch request.kind {
        case .api: return [200, 429, 500].contains(request.status)
        case .image: return [0, 200, 206, 304, 416].contains(request.status) && request.responseBytes != nil
        case .other: return false
        }
    }

    /// The durations in milliseconds the network model gives the requests at `indices` of
    /// `requests` (sent at their start less `origin`, API calls after their server time, the
    /// abandoned ones cancelled when their client gave up), by index; an abandoned request has
    /// none. One replay, drawing from seed 1. O(events × exchanges).
    static func replay(_ requests: [CapturedRequest], _ indices: [Int], origin: Double, on profile: NetworkProfile) -> [Int: Double] {
        let nanoseconds = { (ms: Double) in Int64(((ms - origin) * 1e6).rounded()) }
        var events: [(time: Int64, index: Int, send: Bool)] = []
        for index in indices {
            events.append((nanoseconds(requests[index].start), index, true))
            if requests[index].status == 0 { events.append((nanoseconds(requests[index].start + requests[index].duration), index, false)) }
        }
        events.sort { ($0.time, $0.send ? 1 : 0, $0.index) < ($1.time, $1.send ? 1 : 0, $1.index) }
        let network = SimulatedNetwork(network: profile, seed: 1)
        var durations: [Int: Double] = [:]
        func run(until time: Int64) {
            while let next = network.nextTime(), next <= time {
                for case let .image(_, index) in network.takeDelivered(at: next) {
                    durations[index] = Double(next) / 1e6 + origin - requests[index].start
                }
            }
        }
        for event in events {
            run(until: event.time)
            let request = requests[event.index]
            let payload = SimulatedNetwork.Payload.image(url: UInt64(event.index), serial: event.index)
            if event.send {
                network.send(payload, to: request.kind == .api ? .api : .images, responseBytes: Int64(request.responseBytes ?? 0),
                             think: Self.nanoseconds(milliseconds: request.serverTime ?? 0), at: event.time)
            } else {
                network.cancel(payload, at: event.time)
            }
        }
        run(until: .max)
        return durations
    }
}
