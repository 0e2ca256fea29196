import Foundation

/// What `bench serve` injects — the network preset (round trip, bandwidth, loss, connections),
/// the feed API's models (latency, spikes, failures, timeout, 429s) and whether the network is
/// down — as the JSON that `--conditions FILE` and `PUT /_conditions` read and
/// `GET /_conditions` writes. Durations are milliseconds; a document may give only the fields
/// it changes (`{"network": "3g"}`, `{"offline": true}`).
///
///     {"network": {"name": "lte", "bitsPerSecond": 50000000, "oneWayDelayMs": [50, 65],
///                  "loss": 0, "retryTimeoutMs": 1000, "connectionsPerHost": 6},
///      "api": {"latency": {"model": "logNormal", "meanMs": 300, "p99Ms": 1200},
///              "spikeProbability": 0, "spikeMultiplier": 5, "failureProbability": 0,
///              "timeoutMs": 60000, "rateLimit": null},
///      "offline": false}
///
/// `latency` is `{"model": "fixed", "ms": 300}`, `{"model": "uniform", "minMs": 20, "maxMs": 80}`
/// or `{"model": "logNormal", "meanMs": 300, "p99Ms": 1200}`; `rateLimit` is
/// `{"calls": 10, "windowMs": 1000}` or `null`.
public struct ServeConditions: Sendable, Hashable {
    public var network: NetworkProfile
    public var api: FeedAPIConfiguration
    /// Whether the network is down: every request is refused at once (503) until it is back.
    public var offline = false

    /// The header `bench serve` puts on its answers while `offline` (`FeedBench-Network:
    /// offline`): the simulated network is down, so the request never left the device. A live
    /// run counts it as its simulation counts an attempt made offline: not as a request.
    public static let offlineHeader = (name: "FeedBench-Network", value: "offline")

    public init(network: NetworkProfile, api: FeedAPIConfiguration = FeedAPIConfiguration()) {
        self.network = network
        self.api = api
    }

    /// These conditions with the fields of the JSON `document` applied; `source` names the file
    /// or the request in errors, which name the field and what was expected.
    public func applying(json document: Data, source: String) throws -> ServeConditions {
        guard let root = try JSONDocumentCheck.parse(document, source: source) as? [String: Any] else { throw InputError(source: source, "expected a JSON object") }
        let reader = Reader(source: source)
        var result = self
        try reader.keys(of: root, allowed: ["network", "api", "offline"], at: "")
        if let network = root["network"] {
            result.network = try reader.network(network, base: network is String ? nil : self.network)
        }
        if let api = root["api"] { result.api = try reader.api(api, base: self.api) }
        if let offline = root["offline"] { result.offline = try reader.bool(offline, at: "offline") }
        try result.api.validate(source: source)
        return result
    }

    /// Refuses a network `bench serve` cannot serve: HTTP/2 without TLS (clients negotiate
    /// HTTP/2 by ALPN, in the TLS handshake; `overTLS` says whether the server speaks it).
    public static func checkServed(_ network: NetworkProfile, overTLS: Bool, source: String) throws {
        guard !network.multiplexes || overTLS else {
            throw InputError(source: source, field: "network.http",
                             "expected \"1.1\": HTTP/2 is served over TLS only (bench serve --tls), where clients negotiate it")
        }
    }

    /// The whole conditions as JSON, keys in the documented order, one line.
    public var json: String {
        #"{"network": \#(Self.json(network)), "api": \#(Self.json(api)), "offline": \#(offline)}"#
    }

    /// A network's fields as the `network` object of the conditions (and of a workload), one
    /// line, in `NetworkFile.fields`' order.
    public static func json(_ network: NetworkProfile) -> String {
        "{" + NetworkFile.values(network).map { "\(jsonString($0.key)): \($0.value)" }.joined(separator: ", ") + "}"
    }

    /// The API's models as the `api` object of the conditions (and of a workload).
    public static func json(_ api: FeedAPIConfiguration) -> String {
        let latency: String
        switch api.latency {
        case let .fixed(duration): latency = #"{"model": "fixed", "ms": \#(milliseconds(duration))}"#
        case let .uniform(range):
            latency = #"{"model": "uniform", "minMs": \#(milliseconds(range.lowerBound)), "maxMs": \#(milliseconds(range.upperBound))}"#
        case let .logNormal(mean, p99):
            latency = #"{"model": "logNormal", "meanMs": \#(milliseconds(mean)), "p99Ms": \#(milliseconds(p99))}"#
        }
        let rateLimit = api.rateLimit.map { #"{"calls": \#($0.calls), "windowMs": \#(milliseconds($0.window))}"# } ?? "null"
        return #"{"latency": \#(latency), "spikeProbability": \#(api.spikeProbability), "#
            + #""spikeMultiplier": \#(api.spikeMultiplier), "failureProbability": \#(api.failureProbability), "#
            + #""timeoutMs": \#(api.timeout.map(milliseconds) ?? "null"), "rateLimit": \#(rateLimit)}"#
    }

    /// `text` as a JSON string literal, quotes included: `"`, `\` and control characters escaped.
    public static func jsonString(_ text: String) -> String {
        var escaped = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case _ where scalar.value < 0x20: escaped += "\\u00" + String(scalar.value, radix: 16).leftPadded(to: 2)
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped + "\""
    }

    /// Nanoseconds as milliseconds, exact (up to 6 decimals, trailing zeros dropped).
    static func milliseconds(_ nanoseconds: Int64) -> String {
        FixedPoint.ratio(nanoseconds, 1_000_000, decimals: 6).trimmingZeroDecimals()
    }

    /// Reads fields, naming the path of the first bad one.
    struct Reader {
        let source: String
        /// The folder a network's recordings (`downlinkTrace`, `uplinkTrace`) are relative to:
        /// the file's; `nil` where there is no file (`PUT /_conditions`), which then refuses them.
        var folder: String? = nil

        func fail(_ path: String, _ expected: String) -> InputError { InputError(source: source, field: path, expected) }

        func keys(of object: [String: Any], allowed: [String], at path: String) throws {
            for key in object.keys.sorted() where !allowed.contains(key) {
                throw fail(path.isEmpty ? key : "\(path).\(key)", "unknown field; expected one of \(allowed.joined(separator: ", "))")
            }
        }

        /// Whether a parsed JSON value is `true` or `false`: Foundation hands both numbers and
        /// booleans over as `NSNumber` (and `1 is Bool` holds), but only booleans have the
        /// `char` type code.
        static func isBoolean(_ value: Any) -> Bool {
            guard let number = value as? NSNumber else { return false }
            return String(cString: number.objCType) == "c"
        }

        /// A finite number, read from its decimal text when Foundation kept one (a long
        /// fraction parses as a decimal, whose `doubleValue` is not always the nearest double:
        /// a network file then would not read back as it was written).
        func number(_ value: Any, at path: String) throws -> Double {
            guard let number = value as? NSNumber, !Self.isBoolean(value) else { throw fail(path, "expected a number") }
            let double = Double(number.stringValue) ?? number.doubleValue
            guard double.isFinite else { throw fail(path, "expected a number") }
            return double
        }

        func bool(_ value: Any, at path: String) throws -> Bool {
            guard Self.isBoolean(value), let flag = value as? NSNumber else { throw fail(path, "expected true or false") }
            return flag.boolValue
        }

        /// A non-negative duration in milliseconds, as nanoseconds.
        func duration(_ value: Any, at path: String) throws -> Int64 {
            let ms = try number(value, at: path)
            guard ms >= 0, ms <= 86_400_000 else { throw fail(path, "expected milliseconds in 0…86400000, found \(ms)") }
            return Int64((ms * 1_000_000).rounded())
        }

        func integer(_ value: Any, at path: String, in range: ClosedRange<Int64>) throws -> Int64 {
            let number = try self.number(value, at: path)
            guard number == number.rounded(), range.contains(Int64(exactly: number) ?? .min) else {
                throw fail(path, "expected a whole number in \(range.lowerBound)…\(range.upperBound), found \(number)")
            }
            return Int64(number)
        }

        func object(_ value: Any, at path: String) throws -> [String: Any] {
            guard let object = value as? [String: Any] else { throw fail(path, "expected an object") }
            return object
        }

        /// The network `value` gives: a preset's name, or an object whose fields change `base`;
        /// without one (a file), those of the preset the object names, else Wi-Fi's.
        func network(_ value: Any, base: NetworkProfile?) throws -> NetworkProfile {
            if let name = value as? String { return try NetworkProfile.named(name, source: "\(source): network") }
            let object = try self.object(value, at: "network")
            try keys(of: object, allowed: NetworkFile.fields, at: "network")
            var network = try base ?? (object["name"] as? String).flatMap { try NetworkProfile.preset(named: $0, source: "\(source): network.name") } ?? .wifi
            if let name = object["name"] {
                guard let text = name as? String, !text.isEmpty, text.count <= 100, !text.contains(where: { $0 == "," || $0 == ";" || $0.isNewline }) else {
                    throw fail("network.name", "expected a name of 1…100 characters without commas, semicolons or line breaks")
                }
                network.name = text
            }
            func whole(_ key: String, in range: ClosedRange<Int64>) throws -> Int64? {
                try object[key].map { try integer($0, at: "network.\(key)", in: range) }
            }
            func probability(_ key: String) throws -> Double? {
                guard let value = object[key] else { return nil }
                let p = try number(value, at: "network.\(key)")
                guard (0...0.9).contains(p) else { throw fail("network.\(key)", "expected a probability in 0…0.9, found \(p)") }
                return p
            }
            for (rate, trace) in [("bitsPerSecond", "downlinkTrace"), ("uplinkBitsPerSecond", "uplinkTrace")] where object[rate] != nil && object[trace] != nil {
                throw fail("network.\(trace)", "expected a recording or \(rate) for this direction, found both")
            }
            if let bits = try whole("bitsPerSecond", in: 1_000...100_000_000_000) { network.fixDownlink(bitsPerSecond: bits) }
            if let bits = try whole("uplinkBitsPerSecond", in: 1_000...100_000_000_000) { network.fixUplink(bitsPerSecond: bits) }
            if let path = object["downlinkTrace"] { network.record(downlink: try recording(path, at: "network.downlinkTrace")) }
            if let path = object["uplinkTrace"] { network.record(uplink: try recording(path, at: "network.uplinkTrace")) }
            if let start = try whole("recordingStartMs", in: 0...86_400_000) { network.recordingStart = start * 1_000_000 }
            let jitter = try object["jitterMs"].map { try duration($0, at: "network.jitterMs") }
            if let delay = object["oneWayDelayMs"] {
                if let pair = delay as? [Any] {
                    // The earlier form: [min, max], each request drawing from the range.
                    guard pair.count == 2 else { throw fail("network.oneWayDelayMs", "expected milliseconds, or [min, max] in milliseconds") }
                    let low = try duration(pair[0], at: "network.oneWayDelayMs"), high = try duration(pair[1], at: "network.oneWayDelayMs")
                    guard low <= high else { throw fail("network.oneWayDelayMs", "expected min ≤ max") }
                    guard jitter == nil else { throw fail("network.jitterMs", "expected no jitter beside a [min, max] delay") }
                    network.oneWayDelay = low...high
                } else {
                    let low = try duration(delay, at: "network.oneWayDelayMs")
                    network.oneWayDelay = low...low
                }
            }
            if let jitter {
                guard jitter <= 86_400_000_000_000 - network.oneWayDelay.lowerBound else { throw fail("network.jitterMs", "expected a delay plus jitter within 24 h") }
                network.oneWayDelay = network.oneWayDelay.lowerBound...(network.oneWayDelay.lowerBound + jitter)
            }
            if let delay = object["uplinkDelayMs"] { network.uplinkDelay = try duration(delay, at: "network.uplinkDelayMs") }
            if let loss = try probability("loss") { network.loss = loss }
            if let loss = try probability("uplinkLoss") { network.uplinkLoss = loss }
            if let packets = try whole("bufferPackets", in: 1...1_000_000) { network.bufferPackets = Int(packets) }
            if let segments = try whole("initialWindowSegments", in: 1...1_000) { network.initialWindowSegments = Int(segments) }
            if let bytes = try whole("maxSegmentBytes", in: 536...65_483) { network.maxSegmentBytes = Int(bytes) }
            if let restart = object["slowStartAfterIdle"] { network.slowStartAfterIdle = try bool(restart, at: "network.slowStartAfterIdle") }
            if let pauses = object["cubicPausesWhenIdle"] { network.cubicPausesWhenIdle = try bool(pauses, at: "network.cubicPausesWhenIdle") }
            if let keeps = object["recoveryTimeoutKeepsThreshold"] {
                network.recoveryTimeoutKeepsThreshold = try bool(keeps, at: "network.recoveryTimeoutKeepsThreshold")
            }
            if let tls = object["tls"] { network.tls = try bool(tls, at: "network.tls") }
            if let http = object["http"] {
                guard let name = http as? String, let version = HTTPVersion(rawValue: name) else {
                    throw fail("network.http", "expected \"1.1\" or \"2\" (HTTP/3 is not modelled)")
                }
                network.http = version
            }
            if let timeout = object["idleTimeoutMs"] { network.idleTimeout = try duration(timeout, at: "network.idleTimeoutMs") }
            if let timeout = object["retryTimeoutMs"] { network.retryTimeout = try duration(timeout, at: "network.retryTimeoutMs") }
            if let retries = try whole("maxRetries", in: 0...100) { network.maxRetries = Int(retries) }
            if let connections = try whole("connectionsPerHost", in: 1...1_000) { network.connectionsPerHost = Int(connections) }
            if let streams = try whole("maxConcurrentStreams", in: 1...1_000_000) { network.maxConcurrentStreams = Int(streams) }
            if let window = try whole("streamWindowBytes", in: 1...2_147_483_647) { network.streamWindowBytes = Int(window) }
            // A connection's window starts at 65,535 and the client can only raise it.
            if let window = try whole("connectionWindowBytes", in: 65_535...2_147_483_647) { network.connectionWindowBytes = Int(window) }
            return network
        }

        /// The recording a network file names: a path relative to the file's folder, read in
        /// Mahimahi's format (its refusals name the recording's file and line).
        func recording(_ value: Any, at path: String) throws -> DeliveryTrace {
            guard let text = value as? String, !text.isEmpty else {
                throw fail(path, "expected the path of a recording in Mahimahi's format (one delivery opportunity's time in ms a line)")
            }
            guard let folder else {
                throw fail(path, "expected no recording here: only a network file names one (its path is relative to the file); give a preset's name instead")
            }
            return try DeliveryTrace.read(path: text.hasPrefix("/") ? text : (folder.isEmpty ? text : folder + "/" + text))
        }

        func api(_ value: Any, base: FeedAPIConfiguration) throws -> FeedAPIConfiguration {
            let object = try self.object(value, at: "api")
            try keys(of: object, allowed: ["latency", "spikeProbability", "spikeMultiplier", "failureProbability", "timeoutMs", "rateLimit"], at: "api")
            var api = base
            if let latency = object["latency"] { api.latency = try self.latency(latency) }
            if let spikes = object["spikeProbability"] { api.spikeProbability = try number(spikes, at: "api.spikeProbability") }
            if let multiplier = object["spikeMultiplier"] { api.spikeMultiplier = try number(multiplier, at: "api.spikeMultiplier") }
            if let failures = object["failureProbability"] { api.failureProbability = try number(failures, at: "api.failureProbability") }
            if let timeout = object["timeoutMs"] { api.timeout = timeout is NSNull ? nil : try duration(timeout, at: "api.timeoutMs") }
            if let limit = object["rateLimit"] {
                if limit is NSNull {
                    api.rateLimit = nil
                } else {
                    let rule = try self.object(limit, at: "api.rateLimit")
                    try keys(of: rule, allowed: ["calls", "windowMs"], at: "api.rateLimit")
                    guard let calls = rule["calls"], let window = rule["windowMs"] else { throw fail("api.rateLimit", "expected calls and windowMs") }
                    api.rateLimit = .init(calls: Int(try integer(calls, at: "api.rateLimit.calls", in: 1...1_000_000)),
                                          window: try duration(window, at: "api.rateLimit.windowMs"))
                }
            }
            return api
        }

        func latency(_ value: Any) throws -> LatencyModel {
            let object = try self.object(value, at: "api.latency")
            switch object["model"] as? String {
            case "fixed":
                try keys(of: object, allowed: ["model", "ms"], at: "api.latency")
                return .fixed(try duration(object["ms"] ?? NSNull(), at: "api.latency.ms"))
            case "uniform":
                try keys(of: object, allowed: ["model", "minMs", "maxMs"], at: "api.latency")
                let low = try duration(object["minMs"] ?? NSNull(), at: "api.latency.minMs")
                let high = try duration(object["maxMs"] ?? NSNull(), at: "api.latency.maxMs")
                guard low <= high else { throw fail("api.latency", "expected minMs ≤ maxMs") }
                return .uniform(low...high)
            case "logNormal":
                try keys(of: object, allowed: ["model", "meanMs", "p99Ms"], at: "api.latency")
                return .logNormal(mean: try duration(object["meanMs"] ?? NSNull(), at: "api.latency.meanMs"),
                                  p99: try duration(object["p99Ms"] ?? NSNull(), at: "api.latency.p99Ms"))
            default:
                throw fail("api.latency.model", "expected fixed, uniform or logNormal")
            }
        }
    }
}
