/// What a recording's link does, as `bench profiles` lists it: its mean rate, how the rate of
/// each second is spread, and how often it falls silent.
extension DeliveryTrace {
    /// A recording's figures. Rates are in bits per second of IP packets (1,500 bytes an
    /// opportunity); a silence is the gap between two consecutive opportunities.
    public struct Figures: Sendable, Equatable {
        /// Over the whole period.
        public let meanBitsPerSecond: Double
        /// The 10th, 50th and 90th percentiles (nearest rank) of the rate over 1-second windows
        /// from the start, the last one the period's remainder.
        public let p10BitsPerSecond: Double
        public let p50BitsPerSecond: Double
        public let p90BitsPerSecond: Double
        /// Silences longer than 200 ms and than 500 ms, a minute of the period.
        public let silencesOver200msPerMinute: Double
        public let silencesOver500msPerMinute: Double
        /// The longest silence, in nanoseconds.
        public let longestSilence: Int64
    }

    /// The recording's figures. O(n log n).
    public var figures: Figures {
        let bitsPerOpportunity = Self.opportunityWire * 8
        let periodMs = Int(milliseconds[milliseconds.count - 1])
        var windows = [Int](repeating: 0, count: (periodMs + 999) / 1_000)
        var silences200 = 0, silences500 = 0
        var longest: UInt32 = 0
        var previous: UInt32?
        for time in milliseconds {
            windows[min(Int(time) / 1_000, windows.count - 1)] += 1
            if let previous {
                let gap = time - previous
                longest = max(longest, gap)
                if gap > 200 { silences200 += 1 }
                if gap > 500 { silences500 += 1 }
            }
            previous = time
        }
        let rates = windows.map { Double($0) * bitsPerOpportunity }.sorted()
        func percentile(_ p: Double) -> Double { rates[max(0, Int((p * Double(rates.count)).rounded(.up)) - 1)] }
        let minutes = Double(periodMs) / 60_000
        return Figures(meanBitsPerSecond: Double(milliseconds.count) * bitsPerOpportunity / (Double(periodMs) / 1_000),
                       p10BitsPerSecond: percentile(0.1), p50BitsPerSecond: percentile(0.5), p90BitsPerSecond: percentile(0.9),
                       silencesOver200msPerMinute: Double(silences200) / minutes, silencesOver500msPerMinute: Double(silences500) / minutes,
                       longestSilence: Int64(longest) * 1_000_000)
    }
}
