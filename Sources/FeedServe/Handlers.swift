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
        let drawn = state.inner.withLock { shared -> (call: FeedAPIResponse, images: [ImageDescriptor], delay: Int64, clears: Int64)? in
            guard !shared.conditions.offline else { return nil }
            let now = state.now
            let call = shared.api.requestPage(at: now)
            return (call, shared.pages.page(page), call.completesAt - now, shared.api.rateLimitClears(after: now))
        }
        guard let (call, images, delay, clears) = drawn else {
            return respond(request, context, Self.offline(), arrived: arrived)
        }
        if delay > 0 { try await Task.sleep(nanoseconds: UInt64(delay)) }
        let response: Response
        switch call.outcome {
        case .page:
            response = Self.json(.ok, FeedAPIBody.page(images.prefix(limit), authority: request.head.authority ?? "localhost"))
        case let .failure(failure):
            let (status, message) = FeedAPIBody.failure(failure)
            var failed = Self.error(HTTPResponse.Status(code: status), message)
            if failure == .rateLimited { failed.headers[.retryAfter] = String(max(1, (clears + 999_999_999) / 1_000_000_000)) }
            response = failed
        }
        return respond(request, context, response, arrived: arrived, delay: delay)
    }

    // MARK: Images

    @Sendable func image(_ request: Request, context: ServeContext) async throws -> Response {
        let arrived = state.now
        let catalog = state.catalog
        guard let file = context.parameters.get("file"), file.hasSuffix(".jpg"), let id = UInt64(file.dropLast(4)), id < UInt64(catalog.size) else {
            return respond(request, context, Self.error(.notFound, "no such image; expected /images/{id}.jpg with id in 0…\(catalog.size - 1)"), arrived: arrived)
        }
        let descriptor = catalog.descriptor(id)
        guard let jpeg = SyntheticJPEG(width: descriptor.pixelWidth, height: descriptor.pixelHeight, byteCount: Int(descriptor.encodedBytes)) else {
            return respond(request, context, Self.error(.internalServerError, "image \(id) cannot be encoded in \(descriptor.encodedBytes) bytes"), arrived: arrived)
        }
        let conditions = state.conditions
        let attempt = request.headers[HTTPFields.Element.Name(NumberedAttempts.header)!].flatMap { Int($0) }
        guard !conditions.offline else {
            if let attempt { state.inner.withLock { $0.attempts.skip(attempt) } }
            return respond(request, context, Self.offline(), arrived: arrived)
        }

        // The connection, then a round trip and a retransmission timeout per lost attempt.
        await state.acquireSlot(for: context.client)
        let roundTrip = state.inner.withLock { $0.attempts.delay(forAttempt: attempt, on: conditions.network) }
        do {
            if roundTrip > 0 { try await Task.sleep(nanoseconds: UInt64(roundTrip)) }
        } catch {
            state.releaseSlot(for: context.client)
            Self.log(state, request, context, status: RequestLogFile.clientClosed, bytes: 0, objectBytes: jpeg.byteCount, arrived: arrived,
                     delay: roundTrip)
            throw error
        }

        var headers = HTTPFields()
        headers[.contentType] = "image/jpeg"
        headers[.eTag] = "\"\(id)-\(jpeg.byteCount)\""
        headers[.cacheControl] = "public, max-age=604800"
        headers[.lastModified] = "Mon, 01 Jan 2024 00:00:00 GMT"
        headers[.acceptRanges] = "bytes"
        if let tags = request.headers[.ifNoneMatch], tags.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == headers[.eTag]! || $0.trimmingCharacters(in: .whitespaces) == "*" }) {
            state.releaseSlot(for: context.client)
            return respond(request, context, Response(status: .notModified, headers: headers), arrived: arrived, delay: roundTrip,
                           objectBytes: jpeg.byteCount)
        }
        var range = 0..<jpeg.byteCount
        var status = HTTPResponse.Status.ok
        // A Range that is not one `bytes=` range is ignored (RFC 9110 allows it); one that starts
        // past the end is refused.
        if let header = request.headers[.range], Self.isByteRange(header) {
            guard let requested = Self.byteRange(header, size: jpeg.byteCount) else {
                state.releaseSlot(for: context.client)
                var refused = Self.error(.rangeNotSatisfiable, "range: expected bytes=first-last within 0…\(jpeg.byteCount - 1)")
                refused.headers[.contentRange] = "bytes */\(jpeg.byteCount)"
                return respond(request, context, refused, arrived: arrived, delay: roundTrip, objectBytes: jpeg.byteCount)
            }
            range = requested
            status = .partialContent
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(jpeg.byteCount)"
        }
        let (state, sent, code) = (self.state, range, status.code)
        let body = ResponseBody(contentLength: sent.count) { writer in
            defer { state.releaseSlot(for: context.client) }
            let clock = ContinuousClock()
            let start = clock.now
            var written = 0, finished = false
            // A client that went away (a cancelled download) gets its line too: how far it got.
            defer {
                Self.log(state, request, context, status: finished ? code : RequestLogFile.clientClosed, bytes: written,
                         objectBytes: jpeg.byteCount, arrived: arrived, delay: roundTrip + (clock.now - start).nanoseconds)
            }
            try await Self.send(jpeg, range: sent, to: &writer, written: &written, state: state, bitsPerSecond: conditions.network.bitsPerSecond)
            try await writer.finish(nil)
            finished = true
        }
        return Response(status: status, headers: headers, body: body)
    }

    /// Sends `range` of the image as the simulated link does (`NetworkLink`, processor sharing):
    /// the transfer has earned, at any moment, the bandwidth times its share of the link since
    /// it began (`ServeState.Inner.share`, exact however transfers come and go), and writes its
    /// bytes as soon as they are earned. It sleeps until its next 16 KiB are due at the present
    /// sharing, and at most `recheck`: when a transfer ends, the others speed up within that.
    /// `written` counts the bytes written so far, also when a write fails.
    ///
    /// (It used to pace whole 16 KiB pieces at the sharing of when each piece began: at 3g with
    /// six transfers a piece took half a second, so a cancelled transfer kept its share that long
    /// and a live run at 3g finished 9 of the 13 downloads its simulation finished. Then it
    /// earned each interval at the sharing of its end, looking again every 10 ms.)
    static func send(_ jpeg: SyntheticJPEG, range: Range<Int>, to writer: inout any ResponseBodyWriter, written: inout Int,
                     state: ServeState, bitsPerSecond: Int64) async throws {
        let clock = ContinuousClock()
        let start = clock.now
        let began = state.inner.withLock { $0.beginTransfer(at: start) }
        defer { state.inner.withLock { $0.endTransfer(at: clock.now) } }
        let bytesPerSecond = Double(bitsPerSecond) / 8
        var offset = range.lowerBound
        while offset < range.upperBound {
            let now = clock.now
            let (share, sharing) = state.inner.withLock { inner -> (Double, Double) in
                inner.advanceShare(to: now)
                return (inner.share - began, Double(inner.transfers))
            }
            let earned = min(Int(bytesPerSecond * share), range.count)
            var piece = offset
            while piece < range.lowerBound + earned {
                let end = min(piece + 65_536, range.lowerBound + earned)
                try await writer.write(ByteBuffer(bytes: jpeg.bytes(in: piece..<end)))
                written += end - piece
                piece = end
            }
            offset = piece
            guard offset < range.upperBound else { break }
            let next = Double(min(offset - range.lowerBound + 16_384, range.count))
            let due = (next / bytesPerSecond - share) * sharing
            try await Task.sleep(until: now + .nanoseconds(Int64(min(due, Self.recheck(sharing: sharing)) * 1e9) + 1_000), clock: clock)
        }
    }

    /// How long a transfer may go without looking at the sharing: 2 ms, and 0.1 ms more per
    /// transfer in flight beyond 20, so a thousand slow downloads wake ten thousand times a second
    /// in all.
    static func recheck(sharing: Double) -> Double { max(0.002, sharing * 0.000_1) }

    // MARK: Conditions and the API description

    @Sendable func conditions(_ request: Request, context: ServeContext) async throws -> Response {
        respond(request, context, Self.json(.ok, state.conditions.json), arrived: state.now)
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
    /// `objectBytes` is the whole image's size when the request named one.
    func respond(_ request: Request, _ context: ServeContext, _ response: Response, arrived: Int64, delay: Int64 = 0,
                 objectBytes: Int? = nil) -> Response {
        Self.log(state, request, context, status: response.status.code, bytes: response.body.contentLength ?? 0, objectBytes: objectBytes,
                 arrived: arrived, delay: delay)
        return response
    }

    static func log(_ state: ServeState, _ request: Request, _ context: ServeContext, status: Int, bytes: Int, objectBytes: Int? = nil,
                    arrived: Int64, delay: Int64) {
        guard let log = state.log else { return }
        log.record(RequestLogFile.Record(time: arrived, method: request.method.rawValue, path: request.uri.string, status: status,
                                         bytes: Int64(bytes), objectBytes: objectBytes.map(Int64.init), injectedDelay: delay,
                                         duration: state.now - arrived, connection: state.connectionNumber(context.connection)))
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
