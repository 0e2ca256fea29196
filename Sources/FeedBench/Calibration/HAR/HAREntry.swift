import Foundation

/// One HTTP header as a HAR capture lists it: name as sent (any case) and value.
public struct HARHeader: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// The phases of one request in milliseconds, as HAR 1.2 §timings defines them; `nil` where the
/// capture says the phase is unknown or does not apply.
///
/// `blocked`, `dns`, `connect` and `ssl` are `nil` where the capture wrote −1 or nothing (a
/// reused connection has no `dns`, `connect` or `ssl`; HTTP/2 streams usually write −1).
/// `send`, `wait` and `receive` are required by HAR 1.2 and mostly present; two real-world
/// deviations are read rather than refused: Playwright writes −1 for a phase it did not see
/// (`nil` here), and Firefox writes `timings: {}` for a response from its cache, whose `time`
/// is 0 (all three 0 here).
public struct HARTimings: Sendable, Equatable {
    public var blocked: Double?
    public var dns: Double?
    public var connect: Double?
    public var send: Double?
    /// Waiting for the first byte of the response: the server's time plus a round trip.
    public var wait: Double?
    public var receive: Double?
    /// Part of `connect` (HAR 1.2 counts the TLS handshake in both).
    public var ssl: Double?

    public init(blocked: Double? = nil, dns: Double? = nil, connect: Double? = nil,
                send: Double?, wait: Double?, receive: Double?, ssl: Double? = nil) {
        self.blocked = blocked
        self.dns = dns
        self.connect = connect
        self.send = send
        self.wait = wait
        self.receive = receive
        self.ssl = ssl
    }
}

/// One request and its response from a HAR capture's `log.entries`, reduced to what calibration
/// reads: timing, sizes, status, content type and headers. Built by `HARReader`.
public struct HAREntry: Sendable, Equatable {
    /// The 0-based position in `log.entries`.
    public var index: Int
    /// The 1-based line of the file where the entry's `{` is.
    public var line: Int
    /// When the request started, as written (ISO 8601, e.g. `2026-11-23T10:49:09.123Z`).
    public var startedDateTime: String
    /// The whole request in milliseconds: the sum of the known timings.
    public var time: Double

    /// `request.method`, e.g. `GET`.
    public var method: String
    /// `request.url`, absolute.
    public var url: String
    /// `request.httpVersion` (`HTTP/1.1`, `h2`, `http/2.0`, …), `""` when the capture left it out.
    public var httpVersion: String
    /// `request.headers` in capture order.
    public var requestHeaders: [HARHeader]

    /// `response.status`; 0 for a request the browser aborted or never sent.
    public var status: Int
    /// `response.headers` in capture order.
    public var responseHeaders: [HARHeader]
    /// `response.redirectURL`, `nil` when empty or absent.
    public var redirectURL: String?
    /// `response.content.size`: the decoded body's length in bytes (0 for a 304), `nil` when
    /// absent or negative.
    public var contentSize: Int?
    /// `response.content.mimeType` as written, parameters included (`image/jpeg`,
    /// `text/html; charset=utf-8`), `nil` when absent.
    public var mimeType: String?
    /// `response.content.encoding`: how `contentText` is encoded (`base64`), `nil` for plain text.
    public var contentEncoding: String?
    /// `response.content.text`, `nil` when the capture left bodies out.
    public var contentText: String?
    /// `response.bodySize`: the body's bytes as received (compressed), `nil` when −1 (unknown).
    public var bodySize: Int?
    /// `response.headersSize`: the response headers' bytes, `nil` when −1 (unknown; HTTP/2).
    public var headersSize: Int?

    /// The request's phases.
    public var timings: HARTimings
    /// `serverIPAddress`, when written.
    public var serverIPAddress: String?
    /// `connection`: an id shared by requests on one TCP/QUIC connection, when written.
    public var connection: String?
    /// `_transferSize`: Chrome's count of bytes on the wire for the response (headers and
    /// compressed body), when written.
    public var transferSize: Int?

    public init(index: Int, line: Int, startedDateTime: String, time: Double, method: String, url: String,
                httpVersion: String = "", requestHeaders: [HARHeader] = [], status: Int,
                responseHeaders: [HARHeader] = [], redirectURL: String? = nil, contentSize: Int? = nil,
                mimeType: String? = nil, contentEncoding: String? = nil, contentText: String? = nil,
                bodySize: Int? = nil, headersSize: Int? = nil, timings: HARTimings,
                serverIPAddress: String? = nil, connection: String? = nil, transferSize: Int? = nil) {
        self.index = index
        self.line = line
        self.startedDateTime = startedDateTime
        self.time = time
        self.method = method
        self.url = url
        self.httpVersion = httpVersion
        self.requestHeaders = requestHeaders
        self.status = status
        self.responseHeaders = responseHeaders
        self.redirectURL = redirectURL
        self.contentSize = contentSize
        self.mimeType = mimeType
        self.contentEncoding = contentEncoding
        self.contentText = contentText
        self.bodySize = bodySize
        self.headersSize = headersSize
        self.timings = timings
        self.serverIPAddress = serverIPAddress
        self.connection = connection
        self.transferSize = transferSize
    }

    /// The first response header called `name`, compared without regard to ASCII case (HTTP/2
    /// captures write names in lower case, HTTP/1.1 ones as the server sent them).
    /// O(headers).
    public func responseHeader(_ name: String) -> String? {
        responseHeaders.first { HAREntry.sameName($0.name, name) }?.value
    }

    /// The response's media type in lower case without parameters (`image/webp`), from
    /// `content.mimeType`, or from the `Content-Type` header when that is empty or absent;
    /// `nil` when neither says. O(headers).
    public var contentType: String? {
        for candidate in [mimeType, responseHeader("Content-Type")] {
            guard let candidate else { continue }
            let type = candidate.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
                .trimmingCharacters(in: .whitespaces).lowercased()
            if !type.isEmpty { return type }
        }
        return nil
    }

    /// Bytes of the response on the wire: `_transferSize` when written, else `bodySize` +
    /// `headersSize` when both are known, else `bodySize` alone; `nil` when none is known. O(1).
    public var transferredBytes: Int? {
        if let transferSize { return transferSize }
        guard let bodySize else { return nil }
        if let headersSize { return bodySize + headersSize }
        return bodySize
    }

    static func sameName(_ a: String, _ b: String) -> Bool {
        a.lowercased() == b.lowercased()
    }
}
