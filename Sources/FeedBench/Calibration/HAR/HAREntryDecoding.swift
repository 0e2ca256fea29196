extension HAREntry {
    /// The entry in `fields` (one element of `log.entries`, decoded), checked as HAR 1.2
    /// requires where calibration depends on it (see `HARReader`). O(entry).
    init(decoding fields: HARFields, index: Int) throws {
        let request = try fields.object("request")
        let response = try fields.object("response")
        let content = try response.object("content")
        let timings = try fields.object("timings")

        let time = try fields.number("time")
        /// `send`, `wait` and `receive`: present and non-negative; −1 (Playwright) is unknown,
        /// and an absent one is 0 in an entry that took no time (Firefox's cache hits).
        func phase(_ key: String) throws -> Double? {
            guard let value = try timings.optionalNumber(key) else {
                guard time == 0 else { throw timings.refusal(key, "expected a number of ms, found none") }
                return 0
            }
            guard value >= 0 || value == -1 else { throw timings.refusal(key, "expected a non-negative number of ms, found \(HARFields.describe(timings.object[key]))") }
            return value < 0 ? nil : value
        }
        /// `blocked`, `dns`, `connect`, `ssl`: −1 (or absent) when they do not apply.
        func optionalPhase(_ key: String) throws -> Double? {
            guard let value = try timings.optionalNumber(key) else { return nil }
            guard value >= -1 else { throw timings.refusal(key, "expected a number of ms, or -1 when it does not apply, found \(HARFields.describe(timings.object[key]))") }
            return value < 0 ? nil : value
        }
        /// Sizes HAR writes as −1 when unknown.
        func size(_ fields: HARFields, _ key: String) throws -> Int? {
            guard let value = try fields.optionalInteger(key) else { return nil }
            return value < 0 ? nil : value
        }

        self.init(
            index: index,
            line: fields.line,
            startedDateTime: try fields.string("startedDateTime"),
            time: time,
            method: try request.string("method"),
            url: try request.string("url"),
            httpVersion: try request.optionalString("httpVersion") ?? "",
            requestHeaders: try request.headers("headers"),
            status: try response.integer("status"),
            responseHeaders: try response.headers("headers"),
            redirectURL: try response.optionalString("redirectURL").flatMap { $0.isEmpty ? nil : $0 },
            contentSize: try size(content, "size"),
            mimeType: try content.optionalString("mimeType"),
            contentEncoding: try content.optionalString("encoding"),
            contentText: try content.optionalString("text"),
            bodySize: try size(response, "bodySize"),
            headersSize: try size(response, "headersSize"),
            timings: HARTimings(blocked: try optionalPhase("blocked"), dns: try optionalPhase("dns"),
                                connect: try optionalPhase("connect"), send: try phase("send"),
                                wait: try phase("wait"), receive: try phase("receive"), ssl: try optionalPhase("ssl")),
            serverIPAddress: try fields.optionalString("serverIPAddress"),
            connection: try fields.optionalString("connection"),
            transferSize: try size(response, "_transferSize"))
    }
}
