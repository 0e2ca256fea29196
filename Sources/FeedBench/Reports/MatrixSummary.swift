/// The terminal summary of a matrix: configurations (policy, memory limit, window) ranked by
/// total stalls over all workloads, among those that stayed within the profile's memory limit
/// (peak tracked memory at or below the warning threshold, no jetsam kill); the first is the
/// recommendation. Ties go to the lower stall p95, then fewer bytes downloaded.
public struct MatrixSummary: Sendable {
    /// One configuration's figures summed (or, for peaks and percentiles, maximised) over its rows.
    public struct Entry: Sendable, Equatable {
        public var policy: String
        public var memoryLimitBytes: Int64
        public var window: String
        public var stalls = 0
        public var worstStallP95 = 0.0
        public var displays = 0
        public var hits = 0
        public var peakMemoryBytes: Int64 = 0
        public var imageRequests = 0
        public var bytesDownloaded: Int64 = 0
        public var warnings = 0
        public var kills = 0
        /// Whether it stayed within the profile's memory limit.
        public var withinLimit = true
    }

    public let profile: DeviceProfile
    /// Every configuration, best first; the ones over the memory limit last.
    public let ranking: [Entry]

    public init(profile: DeviceProfile, results: [RunResult]) {
        self.profile = profile
        var entries: [Entry] = []
        for row in results {
            let key = (row.policy, row.memoryLimitBytes, row.prefetchWindow)
            var index = entries.firstIndex { ($0.policy, $0.memoryLimitBytes, $0.window) == key }
            if index == nil {
                entries.append(Entry(policy: row.policy, memoryLimitBytes: row.memoryLimitBytes, window: row.prefetchWindow))
                index = entries.count - 1
            }
            entries[index!].stalls += row.stalls.count
            entries[index!].worstStallP95 = max(entries[index!].worstStallP95, Double(row.stalls.milliseconds(atPercentile: 95)) ?? 0)
            entries[index!].displays += row.displays
            entries[index!].hits += row.memoryHits + row.diskHits
            entries[index!].peakMemoryBytes = max(entries[index!].peakMemoryBytes, row.peakMemoryBytes)
            entries[index!].imageRequests += row.imageRequests
            entries[index!].bytesDownloaded += row.bytesDownloaded
            entries[index!].warnings += row.memoryWarnings
            entries[index!].kills += row.jetsamKills
        }
        for i in entries.indices {
            entries[i].withinLimit = entries[i].peakMemoryBytes <= profile.memoryWarningBytes && entries[i].kills == 0
        }
        // A stable sort on the row order keeps equal configurations in matrix order.
        ranking = entries.enumerated().sorted { a, b in
            let (x, y) = (a.element, b.element)
            if x.withinLimit != y.withinLimit { return x.withinLimit }
            if x.stalls != y.stalls { return x.stalls < y.stalls }
            if x.worstStallP95 != y.worstStallP95 { return x.worstStallP95 < y.worstStallP95 }
            if x.bytesDownloaded != y.bytesDownloaded { return x.bytesDownloaded < y.bytesDownloaded }
            return a.offset < b.offset
        }.map(\.element)
    }

    /// The best configuration within the memory limit, if any.
    public var recommended: Entry? { ranking.first.flatMap { $0.withinLimit ? $0 : nil } }

    /// The table, at most 100 columns wide, numbers right-aligned with their units.
    public func table(limit: Int = 12) -> String {
        var lines: [String] = []
        lines.append("\(profile.name) (\(profile.model)): \(ranking.count) configurations by stalls, peak ≤ \(megabytes(profile.memoryWarningBytes))")
        let header = ["#", "policy", "mem limit", "window", "stalls", "p95 stall", "hit rate", "peak memory", "requests", ""]
        var rows: [[String]] = []
        for (rank, entry) in ranking.prefix(limit).enumerated() {
            rows.append([
                String(rank + 1), entry.policy, megabytes(entry.memoryLimitBytes), entry.window, String(entry.stalls),
                String(format3(entry.worstStallP95)) + " ms",
                FixedPoint.ratio(Int64(entry.hits) * 100, Int64(entry.displays), decimals: 1) + " %",
                megabytes(entry.peakMemoryBytes), String(entry.imageRequests),
                entry.withinLimit ? (rank == 0 ? "← best" : "") : "over limit",
            ])
        }
        lines += TextTable.render([header] + rows, leftAligned: [1, 9])
        if ranking.count > limit { lines.append("… \(ranking.count - limit) more in the CSV") }
        if let best = recommended {
            lines.append("Recommended: \(best.policy), memory cache \(megabytes(best.memoryLimitBytes)), prefetch window \(best.window)")
            lines.append("  \(best.stalls) stalls, p95 stall \(format3(best.worstStallP95)) ms, peak memory \(megabytes(best.peakMemoryBytes))")
        } else {
            lines.append("Recommended: none — every configuration went over the profile's memory limit")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    func megabytes(_ bytes: Int64) -> String { FixedPoint.ratio(bytes, 1 << 20, decimals: 1) + " MiB" }
    func format3(_ value: Double) -> String { FixedPoint.ratio(Int64((value * 1000).rounded()), 1000, decimals: 1) }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
