import Foundation
@testable import FeedBench

/// A HAR 1.2 capture written from known models, as a browser would record an app's session:
/// image downloads from `img.test` one after another over `connections` connections (each
/// opened once, a TCP handshake of one round trip plus TLS), every tenth answered 304 and every
/// seventh behind a 302 redirect; feed-API calls to `api.test` between them, gzip-encoded JSON
/// pages of ten items with their dimensions, or 500s. HTTP/2 style: reused connections have no
/// `connect`, and `dns`/`blocked`/`ssl` are -1 where a tool leaves them out.
struct SyntheticHAR {
    var api = FeedAPIConfiguration(latency: .logNormal(mean: 200_000_000, p99: 500_000_000))
    var network = NetworkProfile(name: "truth", bitsPerSecond: 8_000_000, oneWayDelay: 20_000_000...20_000_000)
    var catalog = ImageCatalog(seed: 0)
    var calls = 200
    var images = 300
    var connections = 6
    var seed: UInt64 = 1

    /// Milliseconds with 3 decimals, as HAR tools write them.
    static func ms(_ nanoseconds: Int64) -> Double { (Double(nanoseconds) / 1_000).rounded() / 1_000 }

    func entries() -> [[String: Any]] {
        var generator = SeededGenerator(seed: seed, stream: 0x4841_52)
        var apiFeed = FeedPageBook(catalog: catalog, seed: seed)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var clock = 1_795_000_000_000.0  // ms since 1970
        var entries: [[String: Any]] = []
        var opened = Set<Int>()
        var apiOpened = false
        var page = 0
        func roundTrip() -> Double { Self.ms(generator.next(in: network.oneWayDelay) + generator.next(in: network.oneWayDelay)) }
        func entry(url: String, status: Int, mime: String, size: Int, body: Int, headers: [[String: String]], text: String?,
                   timings: [String: Double], connection: Int) -> [String: Any] {
            let time = timings.values.filter { $0 > 0 }.reduce(0, +)
            defer { clock += time + 1 }
            var content: [String: Any] = ["size": size, "mimeType": mime]
            if let text { content["text"] = text }
            // The version the capture's network speaks, as Safari's inspector names it.
            let version = network.multiplexes ? "h2" : "HTTP/1.1"
            return [
                "startedDateTime": formatter.string(from: Date(timeIntervalSince1970: clock / 1_000)), "time": time,
                "request": ["method": "GET", "url": url, "httpVersion": version, "headers": [], "queryString": [], "cookies": [],
                            "headersSize": -1, "bodySize": 0],
                "response": ["status": status, "statusText": "", "httpVersion": version, "headers": headers, "cookies": [],
                             "content": content, "redirectURL": status == 302 ? url + "?r" : "", "headersSize": -1, "bodySize": body],
                "cache": [:], "timings": timings, "connection": String(connection),
            ]
        }
        /// Calls up to the `due`-th.
        func call(upTo due: Int) {
            while page < due {
                page += 1
                let latency = Self.ms(api.latency.sample(using: &generator))
                let fails = generator.chance(api.failureProbability)
                let json = fails ? #"{"error": "oops"}"# : "[" + apiFeed.page(page).map {
                    #"{"id": "\#($0.url)", "url": "https://img.test/\#($0.url).jpg", "width": \#($0.pixelWidth), "height": \#($0.pixelHeight)}"#
                }.joined(separator: ", ") + "]"
                let connect = apiOpened ? -1 : roundTrip()
                apiOpened = true
                entries.append(entry(url: "https://api.test/v1/feed?page=\(page)", status: fails ? 500 : 200, mime: "application/json",
                                     size: json.utf8.count, body: json.utf8.count / 4, headers: [["name": "Content-Encoding", "value": "gzip"]],
                                     text: json, timings: ["blocked": -1, "dns": -1, "connect": connect, "ssl": -1, "send": 0.05,
                                                           "wait": latency, "receive": 0.5], connection: 1))
            }
        }
        for i in 0..<images {
            // Calls spread evenly: by image i, ⌈calls × (i + 1) / images⌉ of them.
            call(upTo: (calls * (i + 1) + images - 1) / images)
            let image = catalog.descriptor(UInt64(i))
            let connection = 100 + i % connections
            var timings: [String: Double] = ["blocked": 0.1, "dns": -1, "connect": -1, "ssl": -1, "send": 0.05, "wait": roundTrip()]
            if !opened.contains(connection) {
                opened.insert(connection)
                let tls = 30.0
                timings["connect"] = roundTrip() + tls
                timings["ssl"] = tls
            }
            let url = "https://img.test/\(image.url).jpg"
            if i % 7 == 3 {
                entries.append(entry(url: url, status: 302, mime: "", size: 0, body: 0, headers: [["name": "Location", "value": url + "?r"]],
                                     text: nil, timings: ["send": 0.05, "wait": roundTrip(), "receive": 0.1], connection: connection))
            }
            if i % 10 == 9 {
                timings["receive"] = 0.1
                entries.append(entry(url: url, status: 304, mime: "image/jpeg", size: 0, body: 0, headers: [], text: nil,
                                     timings: timings, connection: connection))
                continue
            }
            let bytes = Int(image.encodedBytes)
            timings["receive"] = Self.ms(Int64(bytes) * 8 * 1_000_000_000 / network.bitsPerSecond)
            entries.append(entry(url: url, status: 200, mime: "image/jpeg", size: bytes, body: bytes,
                                 headers: [["name": "Content-Type", "value": "image/jpeg"]], text: nil, timings: timings, connection: connection))
        }
        call(upTo: calls)
        return entries
    }

    /// The capture's bytes.
    func bytes() throws -> [UInt8] {
        let document: [String: Any] = ["log": ["version": "1.2", "creator": ["name": "SyntheticHAR", "version": "1"], "pages": [],
                                              "entries": entries()]]
        return Array(try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys]))
    }

    /// The images' bytes this capture downloaded (answered 200).
    var downloadedBytes: [Int64] {
        (0..<images).filter { $0 % 10 != 9 }.map { catalog.descriptor(UInt64($0)).encodedBytes }
    }
}
