#if HTTP
import Foundation
import TestSupport
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif

/// `bench serve` as a user runs it: it prints the URL it listens on, serves a real client,
/// finishes on SIGTERM with status 0 and its log complete; a taken port or an unreadable
/// conditions file is refused in one line with status 2.
@Suite(.scratchFolder) struct ServeCommandTests {
    /// Starts `bench serve`, returns the process and the URL from its first line of output.
    static func start(_ arguments: [String]) throws -> (Process, String, Pipe) {
        let process = Process()
        process.executableURL = BenchProcess.executable
        process.arguments = ["serve", "--port", "0"] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        let text = String(decoding: line, as: UTF8.self)
        return (process, text.components(separatedBy: "listening on ").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "", out)
    }

    @Test func servesARealClientAndStopsCleanlyOnSIGTERM() async throws {
        let log = try ScratchFolder.make().appendingPathComponent("requests.csv").path
        let (process, url, _) = try Self.start(["--network", "wifi", "--seed", "3", "--log", log])
        #expect(url.hasPrefix("http://127.0.0.1:"), "\(url)")
        let (page, response) = try await URLSession.shared.data(from: URL(string: url + "/v1/images/search?limit=2")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: page, as: UTF8.self).hasPrefix(#"[{"id": ""#))
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2 && lines[1].contains(",GET,/v1/images/search?limit=2,200,"), "\(lines)")
    }

    @Test func aTakenPortOrAnUnreadableConditionsFileIsRefusedInOneLine() throws {
        let (first, url, _) = try Self.start([])
        defer {
            kill(first.processIdentifier, SIGTERM)
            first.waitUntilExit()
        }
        let port = try #require(url.split(separator: ":").last.map(String.init))
        let taken = try BenchProcess.run(["serve", "--port", port])
        #expect(taken.status == 2 && taken.stderr.hasPrefix("bench: serve: cannot listen on 127.0.0.1:\(port): "), "\(taken.stderr)")
        #expect(taken.stderr.split(separator: "\n").count == 1)
        let missing = try BenchProcess.run(["serve", "--port", "0", "--conditions", "/nonexistent/conditions.json"])
        #expect(missing.status == 2 && missing.stderr == "bench: /nonexistent/conditions.json: cannot read the conditions file\n")
        let folder = try ScratchFolder.make()
        let bad = folder.appendingPathComponent("conditions.json")
        try #"{"api": {"failureProbability": 2}}"#.write(to: bad, atomically: true, encoding: .utf8)
        let refused = try BenchProcess.run(["serve", "--port", "0", "--conditions", bad.path])
        #expect(refused.status == 2 && refused.stderr.hasPrefix("bench: \(bad.path): failureProbability: expected a probability"), "\(refused.stderr)")
        // HTTP/2 is modelled by bench run, not served: a network file or conditions asking for
        // it are refused in one line.
        let h2 = folder.appendingPathComponent("h2.json")
        try #"{"name": "lte", "http": "2"}"#.write(to: h2, atomically: true, encoding: .utf8)
        let network = try BenchProcess.run(["serve", "--port", "0", "--network", h2.path])
        #expect(network.status == 2 && network.stderr == "bench: \(h2.path): network.http: expected \"1.1\": bench serve speaks HTTP/1.1 only (HTTP/2 is modelled by bench run, not served yet)\n",
                "\(network.stderr)")
        try #"{"network": {"http": "2"}}"#.write(to: bad, atomically: true, encoding: .utf8)
        let conditions = try BenchProcess.run(["serve", "--port", "0", "--conditions", bad.path])
        #expect(conditions.status == 2 && conditions.stderr.hasPrefix("bench: \(bad.path): network.http: expected \"1.1\""), "\(conditions.stderr)")
        // The log: a device is refused before anything starts (the log would replace it), and a
        // server that cannot listen leaves no log behind.
        let device = try BenchProcess.run(["serve", "--port", "0", "--log", "/dev/null"])
        #expect(device.status == 2 && device.stderr == "bench: --log: expected a file to write, found the device \"/dev/null\"\n")
        let log = folder.appendingPathComponent("requests.csv").path
        let busy = try BenchProcess.run(["serve", "--port", port, "--log", log])
        #expect(busy.status == 2 && !FileManager.default.fileExists(atPath: log), "\(busy.stderr)")
    }

    /// The API flags are the conditions JSON's `api` fields, applied over `--conditions`.
    @Test func apiFlagsSetTheModelsTheServerReportsAndUses() async throws {
        let folder = try ScratchFolder.make()
        let file = folder.appendingPathComponent("conditions.json")
        try #"{"api": {"failureProbability": 0.5, "spikeProbability": 0.1}}"#.write(to: file, atomically: true, encoding: .utf8)
        let (process, url, _) = try Self.start(["--conditions", file.path, "--api-latency", "uniform:10ms,20ms", "--api-failures", "0",
                                                "--api-timeout", "none", "--api-rate-limit", "2/1m"])
        defer {
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
        }
        let (body, _) = try await URLSession.shared.data(from: URL(string: url + "/_conditions")!)
        let text = String(decoding: body, as: UTF8.self)
        for part in [#""latency": {"model": "uniform", "minMs": 10, "maxMs": 20}"#, #""spikeProbability": 0.1"#, #""failureProbability": 0.0"#,
                     #""timeoutMs": null, "rateLimit": {"calls": 2, "windowMs": 60000}"#] {
            #expect(text.contains(part), "\(part) in \(text)")
        }
        var statuses: [Int] = []
        for _ in 0..<3 {
            let (_, response) = try await URLSession.shared.data(from: URL(string: url + "/v1/images/search")!)
            statuses.append((response as? HTTPURLResponse)?.statusCode ?? 0)
        }
        #expect(statuses == [200, 200, 429])
    }

    @Test(arguments: [
        (["--api-latency", "lognormal:300ms,100ms"], "--api-latency: expected lognormal:MEAN,P99 with MEAN < P99"),
        (["--api-latency", "gamma:1s,2s"], "--api-latency: expected 300ms, fixed:300ms, uniform:20ms,80ms or lognormal:MEAN,P99"),
        (["--api-latency", "uniform:80ms,20ms"], "--api-latency: expected uniform:MIN,MAX with MIN ≤ MAX"),
        (["--api-failures", "1.5"], "--api-failures: expected a probability in 0…1"),
        (["--api-spikes", "0.1x0.5"], "--api-spikes: expected P or PxM with a factor M in 1…1,000,000"),
        (["--api-spikes", "0.1x2000000"], "--api-spikes: expected P or PxM with a factor M in 1…1,000,000"),
        (["--api-timeout", "0s"], "--api-timeout: expected a positive duration"),
        (["--api-rate-limit", "10"], "--api-rate-limit: expected N/DURATION"),
    ])
    func aBadAPIFlagIsRefusedInOneLine(arguments: [String], message: String) throws {
        let result = try BenchProcess.run(["serve", "--port", "0"] + arguments)
        #expect(result.status == 2 && result.stderr.hasPrefix("bench: " + message) && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }
}
#endif
