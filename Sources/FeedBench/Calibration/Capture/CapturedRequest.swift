import Foundation

/// One request of a capture, whatever recorded it (a HAR entry, a `bench serve` log line), in
/// the terms calibration fits: what it was, when, how large, and how its time split up.
/// Times in milliseconds.
public struct CapturedRequest: Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case api, image, other }

    public var kind: Kind
    /// When it started, in milliseconds on the capture's own clock.
    public var start: Double
    public var host: String
    public var status: Int
    /// The response body's bytes (decoded), when known and positive.
    public var bodyBytes: Int?
    /// The response's bytes on the wire, when known.
    public var wireBytes: Int?
    /// The TCP handshake (HAR `connect` less `ssl`), when a connection was opened.
    public var connect: Double?
    /// Time to the first byte after sending, and to receive the body (HAR `wait`, `receive`).
    public var wait: Double?
    public var receive: Double?
    /// From start to the last byte.
    public var duration: Double
    /// The connection it went over, when the capture says.
    public var connection: String?
    /// The server's own time before it answered, when the capture records it apart (a serve
    /// log's `injected_delay_ms`: the API's latency, 0 for an image).
    public var serverTime: Double?
    /// Whether this request opened its connection (and so paid its handshakes), when the
    /// capture says (a serve log's `new_connection`).
    public var opened: Bool?
    /// The body bytes the response was to have, when known: for a download the client gave up
    /// on, the whole image (a serve log's `object_bytes`).
    public var responseBytes: Int?
    /// The HTTP version it went over, when the capture says (a HAR's `httpVersion`, a serve
    /// log's `protocol`).
    public var http: HTTPVersion?
    /// Items in the API's JSON array, and the width × height pairs its items or the image's
    /// own header gave.
    public var items: Int?
    public var dimensions: [MeasuredPair] = []

    /// A width × height and where it was read.
    public struct MeasuredPair: Sendable, Equatable {
        public var width: Int
        public var height: Int
        public var fromHeader: Bool
    }

    /// When the body was arriving: the last `receive` milliseconds of the request (HAR).
    var receiving: Range<Double>? {
        guard let receive, receive > 0 else { return nil }
        return (start + duration - receive)..<(start + duration)
    }
}

/// Which requests are feed-API calls and which are image downloads: by URL pattern when given
/// (`*` matches any run of characters, the rest literally), else by content type — JSON
/// (`application/json`, `text/json`, `…+json`) for the API, `image/*` for images.
public struct RequestClassifier: Sendable {
    public var api: String?
    public var images: String?

    public init(api: String? = nil, images: String? = nil) {
        self.api = api
        self.images = images
    }

    /// O(length of the URL × pattern pieces).
    public func kind(url: String, contentType: String?) -> CapturedRequest.Kind {
        if let api { if Self.matches(url, api) { return .api } } else if let type = contentType, Self.isJSON(type) { return .api }
        if let images { if Self.matches(url, images) { return .image } } else if let type = contentType, type.hasPrefix("image/") { return .image }
        return .other
    }

    static func isJSON(_ type: String) -> Bool { type == "application/json" || type == "text/json" || type.hasSuffix("+json") }

    /// Whether `text` matches the glob `pattern` as a whole.
    static func matches(_ text: String, _ pattern: String) -> Bool {
        let pieces = pattern.split(separator: "*", omittingEmptySubsequences: false).map(String.init)
        guard pieces.count > 1 else { return text == pattern }
        guard text.hasPrefix(pieces[0]) else { return false }
        var rest = text.dropFirst(pieces[0].count)
        for piece in pieces.dropFirst().dropLast() where !piece.isEmpty {
            guard let found = rest.range(of: piece) else { return false }
            rest = rest[found.upperBound...]
        }
        return rest.hasSuffix(pieces[pieces.count - 1])
    }
}
