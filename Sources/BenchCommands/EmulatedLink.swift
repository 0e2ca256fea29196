import FeedBench
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `bench agree --emulated`'s live side: each configuration's session run through the emulated
/// link (Validation/emulation), `bench serve --pace none` in the server's network namespace and
/// the live run in the client's, the kernel's own TCP on each side and ns-3 running the
/// configuration's network between them in real time. The harness (`emulated-link`) makes and
/// removes the namespaces; this binary is started in each of them, the live side as
/// `agree … --emulated-live INDEX:FOLDER`, which writes what it measured for the parent to read.
enum EmulatedLink {
    /// Where the harness puts the server.
    static let server = "https://10.77.2.1:8443"

    /// What the live side measured: its figures (`RunResult.metricValues`), the frames it handled
    /// late, its image downloads' durations (ns), and the link's own line (its packets, drops
    /// and how late ns-3 ran).
    struct Measured {
        var values: [Int64]
        var framesLate: Int
        var downloads: [Int64]
        var link: String
    }

    /// Refuses, in one line, a machine the harness cannot make a link on.
    static func check(harness: String) throws {
        guard getuid() == 0 else { throw InputError(source: "--emulated", "needs root: the emulated link makes network namespaces and TAP devices") }
        guard FileManager.default.fileExists(atPath: "/dev/net/tun") else {
            throw InputError(source: "--emulated", "needs /dev/net/tun (TUN/TAP), which this kernel lacks")
        }
        guard FileManager.default.isExecutableFile(atPath: harness) else {
            throw InputError(source: "--emulation-harness", "\(harness): expected the emulated link's harness (Validation/emulation/emulated-link, from the repository's folder)")
        }
    }

    /// Runs configuration `index` of the `bench agree` invocation `arguments` (this process's,
    /// without its executable: `agree` first) live through the link the harness makes for
    /// `network`.
    static func run(index: Int, network: NetworkProfile, api: FeedAPIConfiguration, seed: UInt64, arguments: [String],
                    harness: String) throws -> Measured {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bench-emulated-\(getpid())-\(index)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let networkFile = folder.appendingPathComponent("network.json").path
        let conditions = folder.appendingPathComponent("conditions.json").path
        let certificate = folder.appendingPathComponent("cert.pem").path
        try AtomicFile.write(NetworkFile.json(network), to: networkFile)
        try AtomicFile.write("{\"api\": \(ServeConditions.json(api))}\n", to: conditions)
        let bench = Self.quoted(try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        let serve = "exec \(bench) serve --tls --tls-cert-out \(quoted(certificate)) --pace none --host 10.77.2.1 --port 8443 "
            + "--network \(quoted(networkFile)) --conditions \(quoted(conditions)) --seed \(seed)"
        let live = "for i in $(seq 200); do [ -s \(quoted(certificate)) ] && break; sleep 0.05; done; exec \(bench) "
            + (arguments + ["--emulated-live", "\(index):\(folder.path)"]).map(quoted).joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: harness)
        process.arguments = ["--network", networkFile, "--seed", String(seed), "--server", serve, "--client", live]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        // The line that says why: the server's or the live side's refusal, else the harness's last.
        let saidLines = said.split(separator: "\n").map(String.init)
        let lastLine = saidLines.first { $0.hasPrefix("bench: ") || $0.hasPrefix("emulated-link: ") } ?? saidLines.last ?? "no message"
        guard process.terminationStatus == 0 else {
            throw InputError(source: "--emulated", "the live session through the link failed (\(process.terminationStatus)): \(lastLine)")
        }
        guard let text = try? String(contentsOfFile: folder.appendingPathComponent("live.txt").path, encoding: .utf8) else {
            throw InputError(source: "--emulated", "the live side wrote no figures: \(lastLine)")
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.split(separator: ",").compactMap { Int64($0) } }
        guard lines.count >= 3, let framesLate = lines[1].first else { throw InputError(source: "--emulated", "the live side's figures are cut off") }
        let link = saidLines.last { $0.hasPrefix("info: ") && $0.contains("late ms:") } ?? ""
        return Measured(values: lines[0], framesLate: Int(framesLate), downloads: lines[2], link: "link: " + link.dropFirst(6))
    }

    /// The live side (`--emulated-live INDEX:FOLDER`, in the client's namespace): runs
    /// configuration INDEX against the server, trusting FOLDER/cert.pem, and writes FOLDER/live.txt:
    /// its figures, its frames late and its image downloads' durations, a line each.
    static func runLiveSide(_ spec: String, configurations: [RunConfiguration]) throws {
        let parts = spec.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, let index = Int(parts[0]), configurations.indices.contains(index) else {
            throw InputError(source: "--emulated-live", "expected INDEX:FOLDER with INDEX a configuration's, found \(spec)")
        }
        let part = try HTTPPart.required(by: "agree")
        guard let pem = try? String(contentsOfFile: parts[1] + "/cert.pem", encoding: .utf8) else {
            throw InputError(source: "--emulated-live", "\(parts[1])/cert.pem: cannot read the server's certificate")
        }
        var configuration = configurations[index]
        configuration.recording.requests = true
        // Through the link: cold, as the simulated app starts (connections opened before the
        // clock had made their TCP and TLS handshakes free, which the model charges to the first
        // requests), and the feed calls on a connection of their own (sharing the images' had
        // spared the images a handshake and a slow start the model's separate host pays).
        let (result, framesLate) = try part.runLive(configuration, server, pem, true)
        let text = [result.metricValues.map(String.init).joined(separator: ","), String(framesLate),
                    downloads(result.requests).map(String.init).joined(separator: ",")].joined(separator: "\n") + "\n"
        try AtomicFile.write(text, to: parts[1] + "/live.txt")
    }

    /// The image downloads as distributions, live over simulated: the median's and the p90's
    /// ratio, each within [0.8, 1.25] or not (a quantile only one side has is not). One line each.
    static func distributions(live: [Int64], simulated: [Int64]) -> (lines: [String], within: Bool) {
        var lines: [String] = []
        var within = true
        for (name, q) in [("download median", 0.5), ("download p90", 0.9)] {
            guard let mine = quantile(live, q), let model = quantile(simulated, q), model > 0 else {
                let both = live.isEmpty && simulated.isEmpty
                within = within && both
                lines.append("\(name): \(both ? "no downloads either side" : "downloads on one side only (live \(live.count), simulated \(simulated.count))")\(both ? "" : "  OUTSIDE")")
                continue
            }
            let ok = mine * 5 >= model * 4 && mine * 4 <= model * 5 // 0.8 ≤ mine / model ≤ 1.25, exactly
            within = within && ok
            lines.append("\(name): live \(mine / 1_000_000) ms, simulated \(model / 1_000_000) ms, ratio \(FixedPoint.ratio(mine, model, decimals: 3)) (band 0.8…1.25)  \(ok ? "ok" : "OUTSIDE")")
        }
        return (lines, within)
    }

    /// The `q` quantile of `values` (the nearest rank at or above q × n), `nil` when empty.
    static func quantile(_ values: [Int64], _ q: Double) -> Int64? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int(q * Double(sorted.count)))]
    }

    /// The durations (ns) of the images a run downloaded whole (status 200), in the log's order.
    static func downloads(_ requests: [RequestLogFile.Record]) -> [Int64] {
        requests.filter { $0.path.hasPrefix("/images/") && $0.status == 200 }.map(\.duration)
    }

    /// `text` quoted for `sh -c`.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
