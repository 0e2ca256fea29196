/// Nuke's rate limiter in virtual time: a bucket of `burst` tokens refilled at `rate` a second;
/// a download takes a token to start. Work that finds the bucket empty waits in a FIFO that is
/// retried after about two tokens' time (Nuke: 2.1 × 1/rate, within 15–100 ms).
struct TokenBucket {
    let limit: DownloadRateLimit
    private(set) var tokens: Double
    private var refilledAt: Int64 = 0

    init(_ limit: DownloadRateLimit) {
        self.limit = limit
        tokens = Double(limit.burst)
    }

    /// Takes a token if there is one at `now`. O(1).
    mutating func take(at now: Int64) -> Bool {
        tokens = min(Double(limit.burst), tokens + Double(limit.rate) * Double(max(0, now - refilledAt)) / 1e9)
        refilledAt = max(refilledAt, now)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }

    /// How long waiting work sleeps before the bucket is tried again, in nanoseconds.
    var retryDelay: Int64 {
        let milliseconds = min(100, max(15, Int(2.1 * 1000 / Double(limit.rate))))
        return Int64(milliseconds) * 1_000_000
    }
}
