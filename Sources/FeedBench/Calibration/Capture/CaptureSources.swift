import Foundation

/// Turns what capture tools record into `CapturedRequest`s: HAR entries (`bench calibrate
/// --har`) and `bench serve` log lines (`--log`).
struct CaptureSources {
    let classifier: RequestClassifier

    /// A HAR entry; `source` names the file in the refusal of an unreadable `startedDateTime`.
    func request(_ entry: HAREntry, source: String) throws -> CapturedRequest {
        guard let start = Timestamp.milliseconds(entry.startedDateTime) else {
            throw InputError(source: source, line: entry.line, field: "log.entries[\(entry.index)].startedDateTime",
                             "expected an ISO 8601 date and time, found \(InputError.quote(entry.startedDateTime))")
        }
        let timings = entry.timings
        let handshake = timings.connect.map { $0 - max(timings.ssl ?? 0, 0) }
        var request = CapturedRequest(
            kind: classifier.kind(url: entry.url, contentType: entry.contentType), start: start,
            host: URL(string: entry.url)?.host ?? "", status: entry.status,
            bodyBytes: [entry.contentSize, entry.bodySize, entry.decodedContent?.count].compactMap { $0 }.first { $0 > 0 },
            wireBytes: entry.transferredBytes,
            connect: handshake.flatMap { $0 > 0 ? $0 : nil }, wait: timings.wait, receive: timings.receive,
            duration: entry.time, connection: entry.connection)
        request.http = Self.httpVersion(entry.httpVersion)
        if request.kind == .api, let body = entry.decodedContent { Self.readPage(body, into: &request) }
        if request.kind == .image, let body = entry.decodedContent, let header = ImageHeader.read(body) {
            request.dimensions = [.init(width: header.width, height: header.height, fromHeader: true)]
        }
        return request
    }

    /// A `bench serve` log line: the API's route and `/images/{id}.jpg` (or the patterns), the
    /// whole image's size as the body, the time from going onto the server's network model
    /// (`sent_ms`; its arrival in a log without it) to the last byte. A request the
    /// client gave up on (499) is an aborted one, status 0 as in a HAR. `serverTimes`: the log
    /// is of the current format, whose `injected_delay_ms` is the server's own time and whose
    /// `new_connection` is recorded (in the earlier one, a simulated run's log put the whole
    /// duration in the first, and the second was guessed).
    func request(_ record: RequestLogFile.Record, serverTimes: Bool = true) -> CapturedRequest {
        let kind: CapturedRequest.Kind
        if let api = classifier.api, RequestClassifier.matches(record.path, api) {
            kind = .api
        } else if let images = classifier.images, RequestClassifier.matches(record.path, images) {
            kind = .image
        } else if classifier.api == nil, record.path.hasPrefix("/v1/images/search") {
            kind = .api
        } else if classifier.images == nil, RequestLogFile.imageID(path: record.path) != nil {
            kind = .image
        } else {
            kind = .other
        }
        let abandoned = record.status == RequestLogFile.clientClosed
        // Timed from when it went onto the server's network model, as a replay sends it.
        let held = record.sentOrArrival - record.time
        var request = CapturedRequest(kind: kind, start: Double(record.sentOrArrival) / 1e6, host: "bench serve",
                               status: abandoned ? 0 : record.status,
                               bodyBytes: record.status == 200 && record.bytes > 0 ? Int(record.bytes) : nil, wireBytes: Int(record.bytes),
                               duration: Double(record.duration - held) / 1e6, connection: record.connection.map(String.init),
                               serverTime: serverTimes ? Double(record.injectedDelay) / 1e6 : nil,
                               opened: serverTimes ? record.newConnection : nil,
                               responseBytes: Int(abandoned ? record.objectBytes ?? record.bytes : record.bytes))
        request.http = Self.httpVersion(record.httpProtocol)
        return request
    }

    /// A capture's name for an HTTP version — a HAR's `HTTP/1.1`, `h2` or `http/2.0`, a serve
    /// log's ALPN name — as `NetworkProfile.http` names it; nil for anything else (HTTP/3, none).
    static func httpVersion(_ name: String) -> HTTPVersion? {
        switch name.lowercased() {
        case RequestLogFile.http11, "http/1.0": return .http11
        case RequestLogFile.http2, "http/2", "http/2.0": return .http2
        default: return nil
        }
    }

    /// A page's item count and the width × height of items that give them: the top-level array,
    /// or the first array of objects in a top-level object (`{"data": [...]}`).
    static func readPage(_ body: [UInt8], into request: inout CapturedRequest) {
        guard let value = try? JSONSerialization.jsonObject(with: Data(body)) else { return }
        let items: [Any]
        if let array = value as? [Any] {
            items = array
        } else if let object = value as? [String: Any],
                  let first = object.keys.sorted().lazy.compactMap({ object[$0] as? [Any] }).first(where: { $0.first is [String: Any] }) {
            items = first
        } else {
            return
        }
        request.items = items.count
        for case let item as [String: Any] in items {
            // Doubles first: a side as large as 1e300 must not trap on the way to an Int.
            let sides = MeasuredImageSizes.maximumSide
            guard let width = (item["width"] as? NSNumber)?.doubleValue, let height = (item["height"] as? NSNumber)?.doubleValue,
                  (1...Double(sides)).contains(width), (1...Double(sides)).contains(height) else { continue }
            request.dimensions.append(.init(width: Int(width), height: Int(height), fromHeader: false))
        }
    }
}
