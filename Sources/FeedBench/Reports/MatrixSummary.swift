/// The terminal summary of a matrix: configurations (policy, memory limit, window) ranked by
/// total stalls over all workloads, among those that stayed within the profile's memory limit
/// (peak tracked memory at or below the warning threshold, no jetsam kill); the first is the
/// recommendation. Ties go to the lower stall p95, then fewer bytes downloaded. `bench run`
/// prints it; `bench report` marks the same recommendation on its Pareto chart.
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

    /// One run's figures as the summary counts them, from a `RunResult` or a results file's row.
    public struct Run: Sendable, Equatable {
        public var policy: String
        public var memoryLimitBytes: Int64
        public var window: String
        public var stalls: Int
        public var stallP95Milliseconds: Double
        public var displays: Int
        /// Memory and disk hits.
        public var hits: Int
        public var peakMemoryBytes: Int64
        public var imageRequests: Int
        public var bytesDownloaded: Int64
        public var memoryWarnings: Int
        public var jetsamKills: Int

        public init(policy: String, memoryLimitBytes: Int64, window: String, stalls: Int, stallP95Milliseconds: Double,
                    displays: Int, hits: Int, peakMemoryBytes: Int64, imageRequests: Int, bytesDownloaded: Int64,
                    memoryWarnings: Int, jetsamKills: Int) {
            self.policy = policy
            self.memoryLimitBytes = memoryLimitBytes
            self.window = window
            self.stalls = stalls
            self.stallP95Milliseconds = stallP95Milliseconds
            self.displays = displays
            self.hits = hits
            self.peakMemoryBytes = peakMemoryBytes
            self.imageRequests = imageRequests
            self.bytesDownloaded = bytesDownloaded
            self.memoryWarnings = memoryWarnings
            self.jetsamKills = jetsamKills
        }

        public init(_ row: RunResult) {
            self.init(policy: row.policy, memoryLimitBytes: row.memoryLimitBytes, window: row.prefetchWindow,
                      stalls: row.stalls.count, stallP95Milliseconds: Double(row.stalls.milliseconds(atPercentile: 95)) ?? 0,
                      displays: row.displays, hits: row.memoryHits + row.diskHits, peakMemoryBytes: row.peakMemoryBytes,
                      imageRequests: row.imageRequests, bytesDownloaded: row.bytesDownloaded,
                      memoryWarnings: row.memoryWarnings, jetsamKills: row.jetsamKills)
        }
    }

    public let profile: DeviceProfile
    /// Every configuration, best first; the ones over the memory limit last.
    public let ranking: [Entry]

    public init(profile: DeviceProfile, results: [RunResult]) {
        self.init(profile: profile, runs: results.map(Run.init))
    }

    public init(profile: DeviceProfile, runs: [Run]) {
        self.profile = profile
        var entries = Self.entries(runs)
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

    /// The runs grouped by configuration (policy, memory limit, window) in the order each first
    /// appears, unranked (`withinLimit` is left true: it needs the profile).
    public static func entries(_ runs: [Run]) -> [Entry] {
        var entries: [Entry] = []
        for row in runs {
            let key = (row.policy, row.memoryLimitBytes, row.window)
            var index = entries.firstIndex { ($0.policy, $0.memoryLimitBytes, $0.window) == key }
            if index == nil {
                entries.append(Entry(policy: row.policy, memoryLimitBytes: row.memoryLimitBytes, window: row.window))
                index = entries.count - 1
            }
            entries[index!].stalls += row.stalls
            entries[index!].worstStallP95 = max(entries[index!].worstStallP95, row.stallP95Milliseconds)
            entries[index!].displays += row.displays
            entries[index!].hits += row.hits
            entries[index!].peakMemoryBytes = max(entries[index!].peakMemoryBytes, row.peakMemoryBytes)
            entries[index!].imageRequests += row.imageRequests
            entries[index!].bytesDownloaded += row.bytesDownloaded
            entries[index!].warnings += row.memoryWarnings
            entries[index!].kills += row.jetsamKills
        }
        return entries
    }

    /// The best configuration within the memory limit, if any.
    public var recommended: Entry? { ranking.first.flatMap { $0.withinLimit ? $0 : nil } }

    /// The table, at most 100 columns wide, numbers right-aligned with their units; coloured
    /// (the best line green, lines over the limit red) only when `style` allows it.
    public func table(limit: Int = 12, style: TerminalStyle = .plain) -> String {
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
        let table = [header] + rows
        for (index, (line, row)) in zip(TextTable.render(table, leftAligned: [1, 9]), table).enumerated() {
            switch (index, row.last) {
            case (0, _): lines.append(style.paint(line, .bold))
            case (_, "← best"): lines.append(style.paint(line, .green))
            case (_, "over limit"): lines.append(style.paint(line, .red))
            default: lines.append(line)
            }
        }
        if ranking.count > limit { lines.append("… \(ranking.count - limit) more in the CSV") }
        if let best = recommended {
            lines.append(style.paint("Recommended: \(best.policy), memory cache \(megabytes(best.memoryLimitBytes)), prefetch window \(best.window)", .bold))
            lines.append("  \(best.stalls) stalls, p95 stall \(format3(best.worstStallP95)) ms, peak memory \(megabytes(best.peakMemoryBytes))")
        } else {
            lines.append(style.paint("Recommended: none — every configuration went over the profile's memory limit", .red))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    func megabytes(_ bytes: Int64) -> String { FixedPoint.mebibytes(bytes) }
    func format3(_ value: Double) -> String { FixedPoint.ratio(Int64((value * 1000).rounded()), 1000, decimals: 1) }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
