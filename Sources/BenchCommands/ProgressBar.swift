import Dispatch
import Foundation
import FeedBench

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Progress on stderr — runs done / total, rate, ETA. On a terminal, a one-line bar redrawn at
/// most ten times a second (with `NO_COLOR` set, by carriage returns and spaces alone, no escape
/// sequence); elsewhere (a CI log, a file), the same line written whole every `lineInterval`, so
/// that a long run is never silent. The wall clock it reads never reaches an output file.
struct ProgressBar {
    /// How it shows itself: a bar redrawn in place, whole lines now and then, or nothing.
    enum Mode {
        case bar, lines, off
    }

    /// How often a line is written when stderr is not a terminal: every 5 s, or every
    /// `BENCH_PROGRESS_SECONDS` (a whole number of seconds, 0 for every run) when it is set.
    let lineInterval: UInt64

    let mode: Mode
    let label: String
    /// Whether the bar erases with spaces instead of an escape sequence (`NO_COLOR`).
    let plain: Bool
    private let started = DispatchTime.now().uptimeNanoseconds
    private var lastDrawn: UInt64
    private var drewLine = false
    /// The width of the bar last drawn, which `plain` overwrites with spaces.
    private var drawnWidth = 0

    init(label: String, mode: Mode = isatty(2) == 1 ? .bar : .lines,
         environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.label = label
        self.mode = mode
        plain = !(environment["NO_COLOR"] ?? "").isEmpty
        lineInterval = environment["BENCH_PROGRESS_SECONDS"].flatMap(UInt64.init).map { $0 * 1_000_000_000 } ?? 5_000_000_000
        lastDrawn = started
    }

    /// Shows `done` of `total`: the bar unless it was drawn less than 0.1 s ago; a line when the
    /// last was `lineInterval` ago (and, once one was written, at the end, unless that one was it).
    mutating func update(_ done: Int, of total: Int) {
        let now = DispatchTime.now().uptimeNanoseconds
        switch mode {
        case .off:
            return
        case .bar:
            guard done == total || now - lastDrawn >= 100_000_000 else { return }
            lastDrawn = now
            let line = Self.line(label: label, done: done, total: total, elapsed: now - started)
            FileDescriptorOutput.write(erase() + line, to: 2)
            drawnWidth = line.count
        case .lines:
            guard now - lastDrawn >= lineInterval || (done == total && drewLine) else { return }
            lastDrawn = now
            drewLine = true
            FileDescriptorOutput.write(Self.line(label: label, done: done, total: total, elapsed: now - started) + "\n", to: 2)
        }
    }

    /// Clears the bar.
    func finish() {
        if mode == .bar && drawnWidth > 0 { FileDescriptorOutput.write(erase() + (plain ? "\r" : ""), to: 2) }
    }

    /// What takes the cursor back to the line's start and clears the bar drawn there.
    private func erase() -> String {
        plain ? "\r" + String(repeating: " ", count: drawnWidth) + "\r" : "\r\u{1B}[K"
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
