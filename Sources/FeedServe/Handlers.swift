#if HTTP
import FeedBench
import Foundation
import Hummingbird

/// The server's routes (see `FeedServer`).
struct Handlers: Sendable {
    let state: ServeState

    /// Images a page may hold, and the pages a client may ask for.
    static let limits = 1...FeedAPIConfiguration.pageSize
    static let pages = 1...100_000

    // MARK: Feed API

    @Sendable func search(_ request: Request, context: ServeContext) async throws -> Response {
        let arrived = state.now
        let query = request.uri.queryParameters
        guard let limit = Self.integer(query["limit"], default: FeedAPIConfiguration.pageSize, in: Self.limits) else {
            return respond(request, context, Self.error(.badRequest, "limit: expected a whole number in 1…10"), arrived: arrived)
        }
        guard let page = Self.integer(query["page"], default: 1, in: Self.pages) else {
            return respond(request, context, Self.error(.badRequest, "page: expected a whole number in 1…100000"), arrived: arrived)
        }
        // The client's earlier requests enter the model first (`RequestOrder`), and this call
        // draws its latency and fault in that order.
        let number = Self.number(request)
        await state.order.turn(number, client: context.client, eventLoop: context.eventLoop)
        defer { state.order.done(number, client: context.client) }
        let drawn = state.inner.withLock { shared -> (call: FeedAPIResponse, images: [ImageDescriptor], now: Int64, clears: Int64, network: ServedNetwork)? in
            guard !shared.conditions.offline else { return nil }
            let now = state.now
            return (shared.api.requestPage(at: now), shared.pages.page(page), now, shared.api.rateLimitClears(after: now), shared.network)
        }
        guard let (call, images, now, clears, network) = drawn else {
            return respond(request, context, Self.offline(), arrived: arrived)
        }
        let delay = max(0, call.completesAt - now)
        let response: Response
        switch call.outcome {
        case .page:
            response = Self.json(.ok, FeedAPIBody.page(images.prefix(limit), origin: state.scheme + "://" + (request.head.authority ?? "localhost")))
        case let .failure(failure):
            let (status, message) = FeedAPIBody.failure(failure)
            var failed = Self.error(HTTPResponse.Status(code: status), message)
            if failure == .rateLimited { failed.headers[.retryAfter] = String(max(1, (clears + 999_999_999) / 1_000_000_000)) }
            response = failed
        }
        if state.pace == .none || call.outcome == .failure(.timeout) {
            // The server's own time, then the answer at once: under --pace none the link does
            // the network; at a timeout the client gives up, as the simulated app does, and
            // nothing crosses the network. One that goes away before is let go at once.
            state.closures.begin(context.connection)
            defer { state.closures.end(context.connection) }
            do {
                try await state.sleep(until: now + delay, watching: context)
            } catch {
                Self.log(state, request, context, status: RequestLogFile.clientClosed, bytes: 0, arrived: arrived, delay: delay)
                throw ClientClosed()
            }
            return respond(request, context, response, arrived: arrived, delay: delay)
        }
        // The server's own time is the API's latency; then the answer crosses the network.
        let sent = network.send(.api, bodyBytes: Int64(response.body.contentLength ?? 0), think: delay, at: now)
        state.order.done(number, client: context.client)
        state.closures.begin(context.connection)
        defer {
            network.end(sent.id, at: state.now)
            state.closures.end(context.connection)
        }
        do {
            try await Self.arrival(of: sent, body: Int64(response.body.contentLength ?? 0), on: network, state: state, context: context)
        } catch {
            // The client closed its connection or its stream (which may end the request's task).
            Self.log(state, request, context, status: RequestLogFile.clientClosed, bytes: 0, arrived: arrived, delay: delay, sent: sent)
            throw ClientClosed()
        }
        return respond(request, context, response, arrived: arrived, delay: delay, sent: sent)
    }

    // MARK: Images

    @Sendable func image(_ request: Request, context: ServeContext) async throws -> Response {
        let arrived = state.now
        let catalog = state.catalog
        guard let file = context.parameters.get("file"), file.hasSuffix(".jpg"), let id = UInt64(file.dropLast(4)), id < UInt64(catalog.size) else {
            return respond(request, context, Self.error(.notFound, "no such image; expected /images/{id}.jpg with id in 0…\(catalog.size - 1)"), arrived: arrived)
        }
        // `?w=N` asks for the image N pixels wide, as a resizing CDN takes it (`ImageWidth`).
        var width: Int?
        if let text = request.uri.queryParameters[Substring(ImageWidth.queryName)] {
            guard let pixels = Int(text), (1...ImageWidth.maximum).contains(pixels) else {
                return respond(request, context, Self.error(.badRequest, "w: expected a width in pixels, a whole number in 1…\(ImageWidth.maximum)"), arrived: arrived)
            }
            width = pixels
        }
        let descriptor = catalog.descriptor(id).served(width: width)
        guard let jpeg = SyntheticJPEG(width: descriptor.pixelWidth, height: descriptor.pixelHeight, byteCount: Int(descriptor.encodedBytes)) else {
            return respond(request, context, Self.error(.internalServerError, "image \(id) cannot be encoded in \(descriptor.encodedBytes) bytes"), arrived: arrived)
        }
        guard !state.conditions.offline else {
            return respond(request, context, Self.offline(), arrived: arrived)
        }

        var headers = HTTPFields()
        headers[.contentType] = "image/jpeg"
        headers[.eTag] = "\"\(id)-\(jpeg.byteCount)\""
        headers[.cacheControl] = "public, max-age=604800"
        headers[.lastModified] = "Mon, 01 Jan 2024 00:00:00 GMT"
        headers[.acceptRanges] = "bytes"
        // A whole answer (304, 416) arrives at once; a body (200, 206) is streamed as it arrives.
        var answer: Response?
        var range = 0..<jpeg.byteCount
        var status = HTTPResponse.Status.ok
        if let tags = request.headers[.ifNoneMatch], tags.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == headers[.eTag]! || $0.trimmingCharacters(in: .whitespaces) == "*" }) {
            answer = Response(status: .notModified, headers: headers)
        } else if let header = request.headers[.range], Self.isByteRange(header) {
            // A Range that is not one `bytes=` range is ignored (RFC 9110 allows it); one that
            // starts past the end is refused.
            if let requested = Self.byteRange(header, size: jpeg.byteCount) {
                range = requested
                status = .partialContent
                headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(jpeg.byteCount)"
            } else {
                var refused = Self.error(.rangeNotSatisfiable, "range: expected bytes=first-last within 0…\(jpeg.byteCount - 1)")
                refused.headers[.contentRange] = "bytes */\(jpeg.byteCount)"
                answer = refused
            }
        }

        if state.pace == .none { return unpaced(request, context, answer ?? Response(status: status, headers: headers), jpeg: jpeg,
                                                range: answer == nil ? range : nil, arrived: arrived) }
        // One of the client's connections (the network's per-host limit), then the network. The
        // connection is watched from here on: a client that closes it is noticed at once.
        state.closures.begin(context.connection)
        await state.acquireSlot(for: context.client)
        guard !state.closures.isClosed(context.connection) else {
            // Gone before its request was sent: it never reaches the model.
            state.releaseSlot(for: context.client)
            state.closures.end(context.connection)
            Self.log(state, request, context, status: RequestLogFile.clientClosed, bytes: 0, objectBytes: jpeg.byteCount, arrived: arrived, delay: 0)
            throw ClientClosed()
        }
        let number = Self.number(request)
        await state.order.turn(number, client: context.client, eventLoop: context.eventLoop)
        let network = state.network
        let bodyBytes = Int64(answer.map { $0.body.contentLength ?? 0 } ?? range.count)
        let sent = network.send(.images, bodyBytes: bodyBytes, urgent: Self.priority(request) != RequestLogFile.lowPriority, at: state.now)
        state.order.done(number, client: context.client)
        do {
            try await Self.arrival(of: sent, body: answer == nil ? 0 : bodyBytes, on: network, state: state, context: context)
        } catch {
            network.end(sent.id, at: state.now)
            state.releaseSlot(for: context.client)
            state.closures.end(context.connection)
            Self.log(state, request, context, status: RequestLogFile.clientClosed, bytes: 0, objectBytes: jpeg.byteCount, arrived: arrived,
                     delay: 0, sent: sent)
            throw ClientClosed()
        }
        if let answer {
            network.end(sent.id, at: state.now)
            state.releaseSlot(for: context.client)
            state.closures.end(context.connection)
            return respond(request, context, answer, arrived: arrived, objectBytes: jpeg.byteCount, sent: sent)
        }
        let (state, sentRange, code) = (self.state, range, status.code)
        let body = ResponseBody(contentLength: sentRange.count) { writer in
            defer { state.releaseSlot(for: context.client) }
            var written = 0, finished = false
            // A client that went away (a cancelled download) is cancelled in the model (which
            // closes its connection) when it closes, and gets its line too: how far it got.
            defer {
                network.end(sent.id, at: state.now)
                state.closures.end(context.connection)
                Self.log(state, request, context, status: finished ? code : RequestLogFile.clientClosed, bytes: written,
                         objectBytes: jpeg.byteCount, arrived: arrived, delay: 0, sent: sent)
            }
            try await Self.send(jpeg, range: sentRange, to: &writer, written: &written, as: sent, on: network, state: state, context: context)
            try await writer.finish(nil)
            finished = true
        }
        return Response(status: status, headers: headers, body: body)
    }

    /// Writes `range` of the image as its response `sent` reaches the client in the model: at
    /// each look, the body bytes that have arrived by now; then it sleeps until the model says
    /// the next `piece` may have (about 2 ms of the link's rate), or its plans for them may
    /// change. The last byte is written when the model delivers it. `written` counts the bytes
    /// written so far, also when a write fails.
    static func send(_ jpeg: SyntheticJPEG, range: Range<Int>, to writer: inout any ResponseBodyWriter, written: inout Int,
                     as sent: ServedNetwork.Sent, on network: ServedNetwork, state: ServeState, context: ServeContext) async throws {
        let piece = max(network.profile.maxSegmentBytes, Int(network.profile.bytesPerSecond * 0.002))
        while true {
            let progress = network.progress(sent.id, at: state.now, awaitingBody: Int64(min(range.count, written + piece)))
            let due = Int(progress.bodyBytes)
            try await write(jpeg, range: range, through: due, to: &writer, written: &written)
            if progress.isComplete { return }
            try await state.sleep(until: progress.nextLook, watching: context)
        }
    }

    /// Writes `range` of the image from byte `written` up to `due` (both counted from the
    /// range's start), 64 KiB a write; `written` follows, also when a write fails.
    static func write(_ jpeg: SyntheticJPEG, range: Range<Int>, through due: Int, to writer: inout any ResponseBodyWriter,
                      written: inout Int) async throws {
        while written < due {
            let end = min(written + 65_536, due)
            try await writer.write(ByteBuffer(bytes: jpeg.bytes(in: (range.lowerBound + written)..<(range.lowerBound + end))))
            written = end
        }
    }

    /// An image's answer under `--pace none`: `answer` as it is (a 304 or 416), or with `range`
    /// of the image as its body, written at once, as fast as TCP takes it; logged when it ends,
    /// with how far it got when the client went away.
    func unpaced(_ request: Request, _ context: ServeContext, _ answer: Response, jpeg: SyntheticJPEG, range: Range<Int>?,
                 arrived: Int64) -> Response {
        guard let range else { return respond(request, context, answer, arrived: arrived, objectBytes: jpeg.byteCount) }
        let (state, code) = (self.state, answer.status.code)
        var answer = answer
        answer.body = ResponseBody(contentLength: range.count) { writer in
            var written = 0, finished = false
            defer {
                Self.log(state, request, context, status: finished ? code : RequestLogFile.clientClosed, bytes: written,
                         objectBytes: jpeg.byteCount, arrived: arrived, delay: 0)
            }
            try await Self.write(jpeg, range: range, through: range.count, to: &writer, written: &written)
            try await writer.finish(nil)
            finished = true
        }
        return answer
    }

    /// Waits until the response `sent` has reached the client in the model: its headers and
    /// `body` bytes (all of it when that is its whole body). Throws `ClientClosed` when the
    /// client closes its connection first.
    static func arrival(of sent: ServedNetwork.Sent, body: Int64, on network: ServedNetwork, state: ServeState, context: ServeContext) async throws {
        while true {
            let progress = network.progress(sent.id, at: state.now, awaitingBody: body)
            if progress.headersArrived && progress.bodyBytes >= body { return }
            try await state.sleep(until: progress.nextLook, watching: context)
        }
    }

    // MARK: Conditions and the API description

    /// The conditions; a live run's warm-up request waits for the rest of its set first
    /// (`WarmUpGathering`).
    @Sendable func conditions(_ request: Request, context: ServeContext) async throws -> Response {
        let arrived = state.now
        if let count = WarmUpGathering.count(request.headers[HTTPFields.Element.Name(WarmUpGathering.header)!]) {
            await state.warmUp.gather(count, client: context.client, eventLoop: context.eventLoop)
        }
        return respond(request, context, Self.json(.ok, state.conditions.json), arrived: arrived)
    }

    @Sendable func changeConditions(_ request: Request, context: ServeContext) async throws -> Response {
        let arrived = state.now
        var request = request
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: 65_536)
        } catch {
            return respond(request, context, Self.error(.contentTooLarge, "expected a JSON object of at most 64 KiB"), arrived: arrived)
        }
        do {
            let updated = try state.conditions.applying(json: Data(body.readableBytesView), source: "/_conditions")
            try state.update(updated)
            return respond(request, context, Self.json(.ok, state.conditions.json), arrived: arrived)
        } catch let error as InputError {
            return respond(request, context, Self.error(.badRequest, error.description), arrived: arrived)
        }
    }

    @Sendable func openAPI(_ request: Request, context: ServeContext) async throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/yaml"
        return respond(request, context, Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: OpenAPIDocument.yaml))),
                       arrived: state.now)
    }

    // MARK: Helpers

    /// Logs a response whose body is complete when returned, and returns it.
    /// `objectBytes` is the whole image's size when the request named one; `sent`, how it
    /// crossed the network model, if it did.
    func respond(_ request: Request, _ context: ServeContext, _ response: Response, arrived: Int64, delay: Int64 = 0,
                 objectBytes: Int? = nil, sent: ServedNetwork.Sent? = nil) -> Response {
        Self.log(state, request, context, status: response.status.code, bytes: response.body.contentLength ?? 0, objectBytes: objectBytes,
                 arrived: arrived, delay: delay, sent: sent)
        return response
    }

    /// Logs a request: on the model's connection when it crossed the network model (`sent`),
    /// else on none (it opened nothing the model knows of).
    static func log(_ state: ServeState, _ request: Request, _ context: ServeContext, status: Int, bytes: Int, objectBytes: Int? = nil,
                    arrived: Int64, delay: Int64, sent: ServedNetwork.Sent? = nil) {
        guard let log = state.log else { return }
        let connection: (number: Int?, first: Bool) = sent.map { ($0.connection, $0.opened) } ?? (nil, false)
        log.record(RequestLogFile.Record(time: arrived, method: request.method.rawValue, path: request.uri.string, status: status,
                                         bytes: Int64(bytes), objectBytes: objectBytes.map(Int64.init), injectedDelay: delay,
                                         duration: state.now - arrived, connection: connection.number, newConnection: connection.first,
                                         httpProtocol: context.httpProtocol, priority: priority(request), sent: sent?.at))
    }

    /// The request's priority as the log names it, from its RFC 9218 `priority` header: an
    /// urgency (`u=`) of 0…2 is high (a visible cell's image), 3…7 low (a prefetch's; 3 is
    /// the RFC's default), and no header or no urgency in it is not known (empty).
    static func priority(_ request: Request) -> String {
        guard let header = request.headers[.init("priority")!] else { return "" }
        for item in header.split(separator: ",") {
            let parts = item.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0] == "u", let urgency = Int(parts[1]), (0...7).contains(urgency) else { continue }
            return urgency <= 2 ? RequestLogFile.highPriority : RequestLogFile.lowPriority
        }
        return ""
    }

    static func json(_ status: HTTPResponse.Status, _ text: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// `{"error": "…"}`.
    static func error(_ status: HTTPResponse.Status, _ message: String) -> Response {
        json(status, FeedAPIBody.error(message))
    }

    /// The answer while the conditions say offline: a 503 marked as the network being down
    /// (`ServeConditions.offlineHeader`).
    static func offline() -> Response {
        var response = error(.serviceUnavailable, "offline")
        response.headers[HTTPFields.Element.Name(ServeConditions.offlineHeader.name)!] = ServeConditions.offlineHeader.value
        return response
    }

    /// The request's number in its client's order (`RequestOrder.header`), if it has one.
    static func number(_ request: Request) -> Int? {
        RequestOrder.number(request.headers[HTTPFields.Element.Name(RequestOrder.header)!])
    }

    /// A query value as a whole number in `range`; absent gives `default`, anything else `nil`.
    static func integer(_ value: Substring?, default fallback: Int, in range: ClosedRange<Int>) -> Int? {
        guard let value else { return fallback }
        guard let number = Int(value), range.contains(number) else { return nil }
        return number
    }

    /// Whether `header` is one `bytes=` range in its syntax: `a-b`, `a-` or `-n`, digits only.
    static func isByteRange(_ header: String) -> Bool {
        guard header.hasPrefix("bytes=") else { return false }
        let spec = header.dropFirst(6).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard spec.count == 2, !(spec[0].isEmpty && spec[1].isEmpty) else { return false }
        return spec.allSatisfy { $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) && $0.count <= 18 }
    }

    /// One `bytes=` range (`a-b`, `a-`, `-n`) within `size`, or `nil`.
    static func byteRange(_ header: String, size: Int) -> Range<Int>? {
        guard header.hasPrefix("bytes="), !header.contains(",") else { return nil }
        let spec = header.dropFirst(6).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard spec.count == 2 else { return nil }
        if spec[0].isEmpty {
            guard let suffix = Int(spec[1]), suffix > 0 else { return nil }
            return max(0, size - suffix)..<size
        }
        guard let first = Int(spec[0]), first < size else { return nil }
        let last = spec[1].isEmpty ? size - 1 : Int(spec[1]).map { min($0, size - 1) }
        guard let last, last >= first else { return nil }
        return first..<(last + 1)
    }
}
#endif
