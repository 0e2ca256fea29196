import DequeModule

/// The rate limiter in front of the download queues (Nuke's `RateLimiter`): a new download
/// takes a token from the `TokenBucket` to go on; without one, or while earlier downloads
/// still wait, it waits in arrival order, and one retry at a time is scheduled to release the
/// waiting downloads as tokens come. Without a limit every download goes on at once.
struct RateLimitFront {
    /// `nil`: no rate limit.
    private(set) var bucket: TokenBucket?
    /// Downloads waiting for a token, in arrival order.
    private(set) var waiting = Deque<UInt64>()
    /// Whether a retry is on the clock.
    private(set) var retryScheduled = false

    init(_ limit: DownloadRateLimit?) {
        bucket = limit.map(TokenBucket.init)
    }

    /// Whether `url`'s new download may go on at `now`; if not, it waits its turn. O(1).
    mutating func admit(_ url: UInt64, at now: Int64) -> Bool {
        guard bucket != nil else { return true }
        if waiting.isEmpty, bucket!.take(at: now) { return true }
        waiting.append(url)
        return false
    }

    /// The delay to schedule a retry after when downloads wait and no retry is on the clock
    /// (the retry is then counted as scheduled); `nil` when none is to be scheduled. O(1).
    mutating func retryToSchedule() -> Int64? {
        guard !waiting.isEmpty, !retryScheduled, let delay = bucket?.retryDelay else { return nil }
        retryScheduled = true
        return delay
    }

    /// The scheduled retry is due: until the next is scheduled, none is on the clock.
    mutating func retryDue() {
        retryScheduled = false
    }

    /// The first waiting download, released if a token is there for it at `now`; `nil` when
    /// none waits or the bucket is empty. O(1).
    mutating func release(at now: Int64) -> UInt64? {
        guard let url = waiting.first, bucket!.take(at: now) else { return nil }
        waiting.removeFirst()
        return url
    }

    /// `url`'s download, waiting, is no longer wanted. O(waiting).
    mutating func withdraw(_ url: UInt64) {
        if let index = waiting.firstIndex(of: url) { waiting.remove(at: index) }
    }

    /// Forgets the waiting downloads and the scheduled retry (the app was killed or
    /// relaunched); the bucket keeps its tokens.
    mutating func removeAll() {
        waiting.removeAll()
        retryScheduled = false
    }
}
