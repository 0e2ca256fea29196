/// A network condition, as Apple's Network Link Conditioner presets define them (docs/facts.md#network-presets),
/// and the transport over it: the downlink and uplink (rate, one-way delay, packet loss), the
/// bottleneck's drop-tail buffer, TCP's initial window and segment size, slow-start restart,
/// TLS, the HTTP version, the per-host connection limit and HTTP/2's stream settings. `bench profiles --network NAME`
/// prints one as the JSON `NetworkFile` reads.
public struct NetworkProfile: Sendable, Hashable {
    public var name: String
    /// Downlink rate in bits per second: the bottleneck every response crosses (a recording's
    /// mean when `downlinkTrace` drives it).
    public var bitsPerSecond: Int64
    /// Uplink rate in bits per second: requests and handshakes cross it (a recording's mean
    /// when `uplinkTrace` drives it).
    public var uplinkBitsPerSecond: Int64
    /// A recording of the downlink's delivery opportunities, which the bottleneck serves on
    /// instead of `bitsPerSecond`; `nil`: a fixed rate. Set it with `record(downlink:)`.
    public private(set) var downlinkTrace: DeliveryTrace?
    /// The same for the uplink. Set it with `record(uplink:)`.
    public private(set) var uplinkTrace: DeliveryTrace?
    /// Where in its recordings a run starts, in nanoseconds; `nil`: at a point drawn from the
    /// run's seed (`recordingStart(seed:)`), so that seeds see different stretches.
    public var recordingStart: Int64?
    /// Downlink one-way delay range in nanoseconds. The presets are fixed (a one-value range);
    /// a wider range is jitter, drawn once per request (`jitterMs` in a network file).
    public var oneWayDelay: ClosedRange<Int64>
    /// Uplink one-way delay in nanoseconds.
    public var uplinkDelay: Int64
    /// Probability that a downlink packet is lost (TCP recovers it).
    public var loss: Double
    /// Probability that an uplink packet is lost.
    public var uplinkLoss: Double
    /// Packets the bottleneck's drop-tail queue holds (NLC's dummynet pipe: 50 slots).
    public var bufferPackets: Int
    /// TCP's initial congestion window, in segments (RFC 6928: 10).
    public var initialWindowSegments: Int
    /// TCP payload bytes per segment (1,448: a 1,500-byte MTU less IPv4, TCP and timestamps).
    public var maxSegmentBytes: Int
    /// Whether a connection idle for longer than its retransmission timeout restarts from the
    /// initial window (Linux's `tcp_slow_start_after_idle`, on by default; ns-3 does not).
    public var slowStartAfterIdle: Bool
    /// Whether CUBIC's growth clock stops while a connection is idle, so that a reused
    /// connection's window grows as if the idle had not happened (Linux shifts the epoch's start
    /// by the idle, `bictcp_cwnd_event`); ns-3's clock runs on (false reproduces it).
    public var cubicPausesWhenIdle: Bool
    /// Whether a retransmission timeout during fast recovery keeps the threshold the recovery
    /// set (Linux: `tcp_enter_loss` recomputes it only from the open or disorder state); false
    /// reproduces ns-3, which takes β of what is in flight (RFC 5681's FlightSize, which
    /// proportional rate reduction has shrunk).
    public var recoveryTimeoutKeepsThreshold: Bool
    /// Whether connections speak TLS 1.3 (one more round trip to open).
    public var tls: Bool
    /// The HTTP version: HTTP/2 (one connection per host, its responses multiplexed as streams:
    /// the presets', as URLSession negotiates it with the CDNs that serve images) or HTTP/1.1
    /// (one response at a time per connection, `connectionsPerHost` connections).
    public var http: HTTPVersion
    /// HTTP/2: the streams the server lets a connection carry at once, its
    /// SETTINGS_MAX_CONCURRENT_STREAMS (RFC 9113 recommends no fewer than 100; nginx's default
    /// is 128). URLSession ignores `connectionsPerHost` over HTTP/2.
    public var maxConcurrentStreams: Int
    /// HTTP/2: each stream's flow-control window the client advertises, its
    /// SETTINGS_INITIAL_WINDOW_SIZE: iOS's network stack sends 2,097,152 (2 MiB; RFC 9113's default
    /// is 65,535). A stream never has more than this of its response unread (`docs/network.md`).
    public var streamWindowBytes: Int
    /// HTTP/2: the connection's flow-control window, shared by all its streams: RFC 9113's
    /// 65,535 bytes, raised by the client's first WINDOW_UPDATE — to 10 MiB by iOS's network
    /// stack (10,485,760: iOS 18 sends 10,420,225 on the 65,535). The streams together never
    /// have more than this of their responses unread (`docs/network.md`).
    public var connectionWindowBytes: Int
    /// How long an idle connection stays open for reuse, in nanoseconds: Apple's only public
    /// figure (Technical Q&A QA1774) is 30 s, and 3 s on cellular interfaces.
    public var idleTimeout: Int64
    /// While the network is down (an outage), a request fails at once and is tried again after
    /// `retryTimeout`, up to `maxRetries` times; then the download fails.
    public var retryTimeout: Int64
    public var maxRetries: Int
    /// Connections the app opens at most to one host (URLSession's HTTP/1.1 default).
    public var connectionsPerHost: Int

    static let millisecond: Int64 = 1_000_000

    public init(name: String, bitsPerSecond: Int64, oneWayDelay: ClosedRange<Int64>, loss: Double = 0,
                retryTimeout: Int64 = 1_000_000_000, maxRetries: Int = 3, connectionsPerHost: Int = 6,
                uplinkBitsPerSecond: Int64? = nil, uplinkDelay: Int64? = nil, uplinkLoss: Double? = nil,
                bufferPackets: Int = 50, initialWindowSegments: Int = 10, maxSegmentBytes: Int = 1_448,
                slowStartAfterIdle: Bool = true, cubicPausesWhenIdle: Bool = true, recoveryTimeoutKeepsThreshold: Bool = true,
                tls: Bool = true, http: HTTPVersion = .http11, maxConcurrentStreams: Int = 100, streamWindowBytes: Int = 2_097_152,
                connectionWindowBytes: Int = 10_485_760,
                idleTimeout: Int64 = 30_000_000_000) {
        self.name = name
        self.bitsPerSecond = bitsPerSecond
        self.oneWayDelay = oneWayDelay
        self.loss = loss
        self.retryTimeout = retryTimeout
        self.maxRetries = maxRetries
        self.connectionsPerHost = connectionsPerHost
        self.uplinkBitsPerSecond = uplinkBitsPerSecond ?? bitsPerSecond
        self.uplinkDelay = uplinkDelay ?? oneWayDelay.lowerBound
        self.uplinkLoss = uplinkLoss ?? loss
        self.bufferPackets = bufferPackets
        self.initialWindowSegments = initialWindowSegments
        self.maxSegmentBytes = maxSegmentBytes
        self.slowStartAfterIdle = slowStartAfterIdle
        self.cubicPausesWhenIdle = cubicPausesWhenIdle
        self.recoveryTimeoutKeepsThreshold = recoveryTimeoutKeepsThreshold
        self.tls = tls
        self.http = http
        self.maxConcurrentStreams = maxConcurrentStreams
        self.streamWindowBytes = streamWindowBytes
        self.connectionWindowBytes = connectionWindowBytes
        self.idleTimeout = idleTimeout
    }

    /// Drives the downlink by `trace`, its mean becoming `bitsPerSecond`.
    public mutating func record(downlink trace: DeliveryTrace) {
        downlinkTrace = trace
        bitsPerSecond = Self.meanBitsPerSecond(trace)
    }

    /// Drives the uplink by `trace`, its mean becoming `uplinkBitsPerSecond`.
    public mutating func record(uplink trace: DeliveryTrace) {
        uplinkTrace = trace
        uplinkBitsPerSecond = Self.meanBitsPerSecond(trace)
    }

    /// Back to a fixed downlink rate (a network file's `bitsPerSecond` over its base's recording).
    mutating func fixDownlink(bitsPerSecond: Int64) {
        downlinkTrace = nil
        self.bitsPerSecond = bitsPerSecond
    }

    /// Back to a fixed uplink rate.
    mutating func fixUplink(bitsPerSecond: Int64) {
        uplinkTrace = nil
        uplinkBitsPerSecond = bitsPerSecond
    }

    /// A recording's mean rate, rounded to the bit a second.
    static func meanBitsPerSecond(_ trace: DeliveryTrace) -> Int64 {
        Int64((Double(trace.count) * DeliveryTrace.opportunityWire * 8e9 / Double(trace.period)).rounded())
    }

    /// Where a run drawing from `seed` starts in the recordings: `recordingStart`, else a whole
    /// millisecond drawn uniformly over the longer recording's period (0 without one). O(1).
    public func recordingStart(seed: UInt64) -> Int64 {
        if let recordingStart { return recordingStart }
        let period = max(downlinkTrace?.period ?? 0, uplinkTrace?.period ?? 0)
        guard period > 0 else { return 0 }
        var generator = SeededGenerator(seed: seed, stream: 0x7265_636f_7264_696e)
        return Int64(generator.next(below: UInt64(period / 1_000_000))) * 1_000_000
    }

    /// Whether a host's requests share one connection as HTTP/2 streams.
    public var multiplexes: Bool { http == .http2 }

    /// Requests the app has under way to one host at once: HTTP/1.1's connections, or HTTP/2's
    /// streams on its one connection.
    public var requestsPerHost: Int { multiplexes ? maxConcurrentStreams : connectionsPerHost }

    /// The request log's `protocol` for this network's requests: the ALPN identifier.
    var alpn: String { multiplexes ? RequestLogFile.http2 : RequestLogFile.http11 }

    /// Bytes per second of the whole downlink.
    public var bytesPerSecond: Double { Double(bitsPerSecond) / 8 }

    /// The round trip without queueing: the downlink's least delay plus the uplink's.
    public var baseRoundTrip: Int64 { oneWayDelay.lowerBound + uplinkDelay }

    /// QA1774's idle timeout on cellular interfaces.
    static let cellularIdleTimeout: Int64 = 3_000_000_000

    // Network Link Conditioner's presets (docs/facts.md#network-presets): downlink and uplink rate, delay and
    // loss as NLC sets them; the bottleneck buffer is dummynet's default queue of 50 slots;
    // HTTP/2, as image CDNs serve it (HTTP/1.1 stays a choice: `--http 1.1`).
    public static let wifi = NetworkProfile(name: "wifi", bitsPerSecond: 40_000_000, oneWayDelay: 1 * millisecond...1 * millisecond,
                                            uplinkBitsPerSecond: 33_000_000, uplinkDelay: 1 * millisecond, http: .http2)
    public static let dsl = NetworkProfile(name: "dsl", bitsPerSecond: 2_000_000, oneWayDelay: 5 * millisecond...5 * millisecond,
                                           uplinkBitsPerSecond: 256_000, uplinkDelay: 5 * millisecond, http: .http2)
    public static let lte = NetworkProfile(name: "lte", bitsPerSecond: 50_000_000, oneWayDelay: 50 * millisecond...50 * millisecond,
                                           uplinkBitsPerSecond: 10_000_000, uplinkDelay: 65 * millisecond,
                                           http: .http2, idleTimeout: cellularIdleTimeout)
    public static let threeG = NetworkProfile(name: "3g", bitsPerSecond: 780_000, oneWayDelay: 100 * millisecond...100 * millisecond,
                                              uplinkBitsPerSecond: 330_000, uplinkDelay: 100 * millisecond,
                                              http: .http2, idleTimeout: cellularIdleTimeout)
    public static let edge = NetworkProfile(name: "edge", bitsPerSecond: 240_000, oneWayDelay: 400 * millisecond...400 * millisecond,
                                            uplinkBitsPerSecond: 200_000, uplinkDelay: 440 * millisecond,
                                            http: .http2, idleTimeout: cellularIdleTimeout)
    public static let veryBad = NetworkProfile(name: "very-bad", bitsPerSecond: 1_000_000, oneWayDelay: 500 * millisecond...500 * millisecond,
                                               loss: 0.10, uplinkBitsPerSecond: 1_000_000, uplinkDelay: 500 * millisecond, uplinkLoss: 0.10,
                                               http: .http2, idleTimeout: cellularIdleTimeout)

    /// Network Link Conditioner's presets, in the order reports list them (the recorded ones:
    /// `recordedNames`).
    public static let builtIn: [NetworkProfile] = [wifi, dsl, lte, threeG, edge, veryBad]

    /// A preset by name (Network Link Conditioner's or a recorded one); `source` names the
    /// option for the error.
    public static func named(_ name: String, source: String = "--network") throws -> NetworkProfile {
        if let profile = try preset(named: name, source: source) { return profile }
        throw InputError(source: source, "unknown network \(InputError.quote(name)); expected one of \(presetNames.joined(separator: ", "))")
    }
}

/// The HTTP version a network's requests go over, as network files and `--http` name it.
public enum HTTPVersion: String, Sendable, Hashable, CaseIterable {
    /// One response at a time per connection, up to `NetworkProfile.connectionsPerHost` of them.
    case http11 = "1.1"
    /// One connection a host, its responses multiplexed as streams.
    case http2 = "2"

    /// As people write it: "HTTP/1.1", "HTTP/2".
    public var label: String { "HTTP/\(rawValue)" }
}
