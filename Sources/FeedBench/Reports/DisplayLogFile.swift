/// Every display of a run as CSV (`bench run --displays`), to set beside its request log: when
/// the cell came on screen, how its image was found, when the cell showed it and whether the
/// display counts as a stall. With the request log's arrival times it lets an outside replay
/// (Validation/ns3/) count the stalls its own arrival times would give, open loop.
///
/// Columns: `time_ms` (from the run's start, as the request log's, to the nanosecond), `path` (`/images/{id}.jpg`,
/// the request log's), `outcome` (`memory`, `disk`, `inflight`: joined a download under way,
/// `miss`: started one), `shown_ms` (empty when the cell never showed the image: it scrolled off,
/// the download failed or the launch ended first) and `stalled` (1 or 0). Rows are in display
/// order. O(displays).
public enum DisplayLogFile {
    public static let columns = ["time_ms", "path", "outcome", "shown_ms", "stalled"]

    /// The outcome's name in the file.
    static func name(_ outcome: DisplayOutcome) -> String {
        switch outcome {
        case .memoryHit: "memory"
        case .diskHit: "disk"
        case .inflightHit: "inflight"
        case .miss: "miss"
        }
    }

    /// A time to the nanosecond, as the request log's `sent_ms`.
    static func milliseconds(_ nanoseconds: Int64) -> String { FixedPoint.ratio(nanoseconds, 1_000_000, decimals: 6) }

    /// The file's text: the header, then a row a display. O(displays).
    public static func csv(_ records: [DisplayRecord]) -> String {
        var text = columns.joined(separator: ",") + "\n"
        text.reserveCapacity(records.count * 48)
        for record in records {
            text += milliseconds(record.time) + ",/images/\(record.url).jpg," + name(record.outcome) + ","
                + (record.shown.map(milliseconds) ?? "") + (record.stalled ? ",1\n" : ",0\n")
        }
        return text
    }
}
