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
    /// Starts `bench serve`, returns the process, the URL it prints and what it printed.
    static func start(_ arguments: [String]) throws -> (Process, String, String) {
        let served = try ServeProcess.start(arguments, program: BenchProcess.executable.path)
        return (served.process, served.url, served.output)
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

    /// `--tls`: a certificate made at start, its fingerprint printed and, with `--tls-cert-out`,
    /// written as PEM before the server listens; curl, trusting that file alone as its root,
    /// negotiates HTTP/2 by ALPN.
    @Test func overTLSItPrintsItsCertificatesFingerprintWritesItAndServesHTTP2() throws {
        let certificate = try ScratchFolder.make().appendingPathComponent("cert.pem").path
        let (process, url, out) = try Self.start(["--tls", "--http", "2", "--tls-cert-out", certificate])
        defer {
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
        }
        let fingerprint = out.components(separatedBy: "TLS certificate SHA-256 fingerprint ").last?.prefix { $0 != " " } ?? ""
        #expect(fingerprint.split(separator: ":").count == 32 && fingerprint.allSatisfy { $0.isHexDigit || $0 == ":" }, "\(out)")
        #expect(url.hasPrefix("https://127.0.0.1:"), "\(url)")
        let curl = URL(fileURLWithPath: "/usr/bin/curl")
        guard FileManager.default.isExecutableFile(atPath: curl.path) else {
            Issue.record("curl is not at /usr/bin/curl: the HTTP/2 answer is not checked with a client of its own")
            return
        }
        #expect(try String(contentsOfFile: certificate, encoding: .utf8).hasPrefix("-----BEGIN CERTIFICATE-----"))
        let fetched = try BenchProcess.run(curl, ["-sS", "--cacert", certificate, "--http2", "-o", "/dev/null", "-w", "%{http_version} %{http_code}",
                                                  url + "/images/1.jpg"])
        #expect(fetched.stdout == "2 200", "\(fetched.stdout) \(fetched.stderr)")
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
        // HTTP/2 is negotiated in the TLS handshake: a network file, conditions or --http asking
        // for it without --tls are refused in one line.
        let h2 = folder.appendingPathComponent("h2.json")
        try #"{"name": "lte", "http": "2"}"#.write(to: h2, atomically: true, encoding: .utf8)
        let network = try BenchProcess.run(["serve", "--port", "0", "--network", h2.path])
        #expect(network.status == 2 && network.stderr == "bench: \(h2.path): network.http: expected \"1.1\": HTTP/2 is served over TLS only (bench serve --tls), where clients negotiate it\n",
                "\(network.stderr)")
        try #"{"network": {"http": "2"}}"#.write(to: bad, atomically: true, encoding: .utf8)
        let conditions = try BenchProcess.run(["serve", "--port", "0", "--conditions", bad.path])
        #expect(conditions.status == 2 && conditions.stderr.hasPrefix("bench: \(bad.path): network.http: expected \"1.1\""), "\(conditions.stderr)")
        let flag = try BenchProcess.run(["serve", "--port", "0", "--http", "2"])
        #expect(flag.status == 2 && flag.stderr.hasPrefix("bench: --http: network.http: expected \"1.1\": HTTP/2 is served over TLS only"), "\(flag.stderr)")
        let three = try BenchProcess.run(["serve", "--port", "0", "--tls", "--http", "3"])
        #expect(three.status == 2 && three.stderr == "bench: --http: expected 1.1 or 2, found \"3\" (HTTP/3 is not modelled)\n", "\(three.stderr)")
        let pace = try BenchProcess.run(["serve", "--port", "0", "--pace", "fast"])
        #expect(pace.status == 2 && pace.stderr == "bench: --pace: expected model or none, found fast\n", "\(pace.stderr)")
        // TLS files: both or neither, and readable, before anything starts.
        // The certificate's file: only of one made at start, and at a path a file can be written.
        let notMade = try BenchProcess.run(["serve", "--port", "0", "--tls-cert-out", "cert.pem"])
        #expect(notMade.status == 2 && notMade.stderr.hasPrefix("bench: --tls-cert-out: expected --tls, whose certificate"), "\(notMade.stderr)")
        let unwritable = try BenchProcess.run(["serve", "--port", "0", "--tls", "--tls-cert-out", bad.path + "/cert.pem"])
        #expect(unwritable.status == 2 && unwritable.stderr.hasPrefix("bench: --tls-cert-out: ") && !unwritable.stderr.dropLast().contains("\n"),
                "\(unwritable.stderr)")
        let alone = try BenchProcess.run(["serve", "--port", "0", "--tls-cert", h2.path])
        #expect(alone.status == 2 && alone.stderr == "bench: --tls-cert: expected --tls-cert and --tls-key together\n", "\(alone.stderr)")
        let unreadable = try BenchProcess.run(["serve", "--port", "0", "--tls-cert", "/nonexistent/cert.pem", "--tls-key", h2.path])
        #expect(unreadable.status == 2 && unreadable.stderr == "bench: --tls-cert: cannot read /nonexistent/cert.pem\n", "\(unreadable.stderr)")
        let refusedLog = folder.appendingPathComponent("refused.csv").path
        let notPEM = try BenchProcess.run(["serve", "--port", "0", "--tls-cert", h2.path, "--tls-key", h2.path, "--log", refusedLog])
        #expect(notPEM.status == 2 && notPEM.stderr == "bench: \(h2.path): expected PEM certificates (-----BEGIN CERTIFICATE-----), leaf first\n", "\(notPEM.stderr)")
        #expect(!FileManager.default.fileExists(atPath: refusedLog), "a refused certificate leaves no log")
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
