import Dispatch
import FeedBench

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A one-line progress bar on stderr — runs done / total, rate, ETA — drawn only when stderr is
/// a terminal, at most ten times a second. The wall clock it reads never reaches an output file.
struct ProgressBar {
    let enabled: Bool
    let label: String
    private let started = DispatchTime.now().uptimeNanoseconds
    private var lastDrawn: UInt64 = 0

    init(label: String, enabled: Bool = isatty(2) == 1) {
        self.label = label
        self.enabled = enabled
    }

    /// Redraws for `done` of `total`, unless it was drawn less than 0.1 s ago.
    mutating func update(_ done: Int, of total: Int) {
        guard enabled else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        guard done == total || now - lastDrawn >= 100_000_000 else { return }
        lastDrawn = now
        FileDescriptorOutput.write("\r\u{1B}[K" + Self.line(label: label, done: done, total: total, elapsed: now - started), to: 2)
    }

    /// Clears the bar.
    func finish() {
        if enabled { FileDescriptorOutput.write("\r\u{1B}[K", to: 2) }
    }

    /// `sweep  412/1000 [##########..........]  41 %  37.2 runs/s  ETA 16 s`.
    static func line(label: String, done: Int, total: Int, elapsed: UInt64) -> String {
        let width = 24
        let filled = total == 0 ? width : done * width / total
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let seconds = Double(elapsed) / 1e9
        let rate = seconds > 0 ? Double(done) / seconds : 0
        let eta = rate > 0 ? Int((Double(total - done) / rate).rounded(.up)) : nil
        let percent = total == 0 ? 100 : done * 100 / total
        return "\(label)  \(done)/\(total) [\(bar)] \(percent) %  "
            + FixedPoint.decimal(rate, decimals: 1) + " runs/s  ETA " + (eta.map { "\($0) s" } ?? "–")
    }
}
