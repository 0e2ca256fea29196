/// A network condition, as Apple's Network Link Conditioner presets define them: bandwidth
/// shared by concurrent downloads, one-way delay (a request costs a round trip before its first
/// byte), packet loss (a lost attempt is retried) and the per-host connection limit.
public struct NetworkProfile: Sendable, Hashable {
    public var name: String
    /// Downlink bandwidth in bits per second, shared equally by active downloads.
    public var bitsPerSecond: Int64
    /// One-way delay range in nanoseconds; each request draws its own from this range.
    public var oneWayDelay: ClosedRange<Int64>
    /// Probability that an attempt is lost; a lost attempt is detected after `retryTimeout`
    /// and retried, up to `maxRetries` times, then the download fails.
    public var loss: Double
    public var retryTimeout: Int64
    public var maxRetries: Int
    /// Downloads that can run at once to the image host (URLSession's HTTP/1.1 default).
    public var connectionsPerHost: Int

    static let millisecond: Int64 = 1_000_000

    public init(name: String, bitsPerSecond: Int64, oneWayDelay: ClosedRange<Int64>, loss: Double = 0,
                retryTimeout: Int64 = 1_000_000_000, maxRetries: Int = 3, connectionsPerHost: Int = 6) {
        self.name = name
        self.bitsPerSecond = bitsPerSecond
        self.oneWayDelay = oneWayDelay
        self.loss = loss
        self.retryTimeout = retryTimeout
        self.maxRetries = maxRetries
        self.connectionsPerHost = connectionsPerHost
    }

    /// Bytes per second of the whole link.
    public var bytesPerSecond: Double { Double(bitsPerSecond) / 8 }

    public static let wifi = NetworkProfile(name: "wifi", bitsPerSecond: 40_000_000, oneWayDelay: 1 * millisecond...1 * millisecond)
    public static let dsl = NetworkProfile(name: "dsl", bitsPerSecond: 2_000_000, oneWayDelay: 5 * millisecond...5 * millisecond)
    public static let lte = NetworkProfile(name: "lte", bitsPerSecond: 50_000_000, oneWayDelay: 50 * millisecond...65 * millisecond)
    public static let threeG = NetworkProfile(name: "3g", bitsPerSecond: 780_000, oneWayDelay: 100 * millisecond...100 * millisecond)
    public static let edge = NetworkProfile(name: "edge", bitsPerSecond: 240_000, oneWayDelay: 400 * millisecond...400 * millisecond)
    public static let veryBad = NetworkProfile(name: "very-bad", bitsPerSecond: 1_000_000, oneWayDelay: 500 * millisecond...500 * millisecond, loss: 0.10)

    /// The presets, in the order reports list them.
    public static let builtIn: [NetworkProfile] = [wifi, dsl, lte, threeG, edge, veryBad]

    /// A preset by name; `source` names the option for the error.
    public static func named(_ name: String, source: String = "--network") throws -> NetworkProfile {
        if let profile = builtIn.first(where: { $0.name == name }) { return profile }
        throw InputError(source: source, "unknown network \(InputError.quote(name)); expected one of \(builtIn.map(\.name).joined(separator: ", "))")
    }
}
