import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TestSupport
import Testing

/// `bench run --live` refusals as a user meets them: one line naming what was wrong, status 2, no
/// results file.
@Suite(.scratchFolder) struct LiveRunCommandTests {
    static let oneRun = ["--profile", "low-end", "--policy", "lru", "--memory-limit", "1x", "--window", "20",
                         "--trace", "browser", "--seed", "1", "--duration", "10s"]

    /// `bench` alone — copied where no `bench-http` sits beside it — hands nothing over: each
    /// command that needs the HTTP part says in one line how to build it, status 2, no file;
    /// the commands that do not need it run as ever.
    @Test func benchWithoutItsHTTPPartSaysHowToBuildIt() throws {
        let folder = try ScratchFolder.make()
        let alone = folder.appendingPathComponent("bench")
        try FileManager.default.copyItem(at: BenchProcess.executable, to: alone)
        let out = folder.appendingPathComponent("live.csv").path
        let needing = [["serve", "--port", "0"], ["agree", "--profile", "low-end"], ["run", "--live", "http://127.0.0.1:1", "--out", out] + Self.oneRun,
                       ["--live=http://127.0.0.1:1", "--out", out] + Self.oneRun]
        for arguments in needing {
            let refused = try BenchProcess.run(alone, arguments)
            #expect(refused.status == 2 && refused.stderr.split(separator: "\n").count == 1 && refused.stdout.isEmpty, "\(refused.stderr)")
            #expect(refused.stderr.contains("needs bench-http, FeedBench's HTTP part") && refused.stderr.contains("swift build --product bench-http"),
                    "\(refused.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(try BenchProcess.run(alone, ["profiles"]).status == 0)
    }

    #if HTTP
    @Test func anUnreachableServerOrAMatrixIsRefusedWithoutAFile() throws {
        let out = try ScratchFolder.make().appendingPathComponent("live.csv").path
        let unreachable = try BenchProcess.run(["run", "--live", "http://127.0.0.1:1", "--out", out] + Self.oneRun)
        #expect(unreachable.status == 2)
        #expect(unreachable.stderr.hasPrefix("bench: http://127.0.0.1:1/_conditions: expected a server of the feed API; cannot reach it"))
        #expect(unreachable.stderr.split(separator: "\n").count == 1)
        let matrix = try BenchProcess.run(["run", "--live", "http://127.0.0.1:1", "--profile", "low-end", "--out", out])
        #expect(matrix.status == 2)
        #expect(matrix.stderr.hasPrefix("bench: --live: expected options that make one run"))
        // HTTP/2 is negotiated over TLS: a plain server is refused before anything is sent.
        let plain = try BenchProcess.run(["run", "--live", "http://127.0.0.1:1", "--out", out, "--http", "2"] + Self.oneRun)
        #expect(plain.status == 2 && plain.stderr == "bench: --live: expected an https:// server for HTTP/2, which is negotiated over TLS (bench serve --tls), found \"http://127.0.0.1:1\"\n",
                "\(plain.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// A live run over HTTP/2 against `bench serve --tls` with a certificate openssl made: with
    /// `--live-ca` naming it the run goes, every request `h2`; without it TLS fails in one line.
    /// Runs the live run `arguments` into `out`, expects its one row to hold `scenario`, then
    /// stops `server`, so that its log is whole.
    static func expectOneLiveRow(_ arguments: [String], out: String, scenario: String, thenStop server: Process) throws {
        let live = try BenchProcess.run(arguments + ["--out", out])
        #expect(live.status == 0, "\(live.stderr)")
        let rows = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
        #expect(rows.count == 2 && rows[1].contains(scenario), "\(rows)")
        kill(server.processIdentifier, SIGTERM)
        server.waitUntilExit()
    }

    /// Column `index` of every row of the request log at `path` (its header left out).
    static func column(_ index: Int, of path: String) throws -> [Substring] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").dropFirst()
            .map { $0.split(separator: ",", omittingEmptySubsequences: false)[index] }
    }

    /// Issue 64: a live run asked for narrower images asks the server for them (`?w=`), and
    /// `--requests` logs the simulated run's downloads at the same paths.
    @Test func aLiveRunAsksTheServerForTheWidth() throws {
        let folder = try ScratchFolder.make()
        let (server, url, _) = try ServeCommandTests.start(["--network", "wifi", "--seed", "1", "--log", folder.appendingPathComponent("serve.csv").path])
        defer {
            kill(server.processIdentifier, SIGTERM)
            server.waitUntilExit()
        }
        let run = ["run", "--network", "wifi", "--profile", "low-end", "--policy", "lru", "--memory-limit", "1x", "--window", "20",
                   "--trace", "browser", "--seed", "1", "--duration", "3s", "--image-width", "500"]
        try Self.expectOneLiveRow(run + ["--live", url], out: folder.appendingPathComponent("live.csv").path,
                                  scenario: ",cacheFirst;width=500;mode=live,", thenStop: server)
        let served = try Self.column(2, of: folder.appendingPathComponent("serve.csv").path).filter { $0.hasPrefix("/images/") }
        #expect(!served.isEmpty && served.allSatisfy { $0.hasSuffix(".jpg?w=500") }, "\(served)")
        let requests = folder.appendingPathComponent("requests.csv").path
        #expect(try BenchProcess.run(run + ["--requests", requests, "--out", folder.appendingPathComponent("sim.csv").path]).status == 0)
        let simulated = try Self.column(2, of: requests).filter { $0.hasPrefix("/images/") }
        #expect(!simulated.isEmpty && simulated.allSatisfy { $0.hasSuffix(".jpg?w=500") }, "\(simulated)")
    }

    @Test func aLiveRunOverHTTP2TrustsTheServersCertificateGivenWithLiveCA() throws {
        let folder = try ScratchFolder.make()
        let (certificate, key) = (folder.appendingPathComponent("cert.pem").path, folder.appendingPathComponent("key.pem").path)
        let openssl = URL(fileURLWithPath: "/usr/bin/openssl")
        guard FileManager.default.isExecutableFile(atPath: openssl.path) else {
            Issue.record("openssl is not at /usr/bin/openssl: no certificate made outside bench to serve with")
            return
        }
        let made = try BenchProcess.run(openssl, ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1",
                                                  "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                                                  "-addext", "basicConstraints=critical,CA:TRUE,pathlen:0", "-keyout", key, "-out", certificate])
        #expect(made.status == 0, "\(made.stderr)")
        let (server, url, _) = try ServeCommandTests.start(["--network", "wifi", "--http", "2", "--tls-cert", certificate, "--tls-key", key,
                                                            "--log", folder.appendingPathComponent("serve.csv").path])
        defer {
            kill(server.processIdentifier, SIGTERM)
            server.waitUntilExit()
        }
        #expect(url.hasPrefix("https://127.0.0.1:"), "\(url)")
        let run = ["run", "--live", url, "--http", "2", "--network", "wifi", "--profile", "low-end", "--policy", "lru", "--memory-limit", "1x",
                   "--window", "20", "--trace", "browser", "--seed", "1", "--duration", "3s"]
        let out = folder.appendingPathComponent("live.csv").path
        let untrusted = try BenchProcess.run(run + ["--out", out])
        #expect(untrusted.status == 2 && untrusted.stderr.hasPrefix("bench: \(url)/_conditions: expected a server of the feed API; TLS failed: "),
                "\(untrusted.stderr)")
        #expect(untrusted.stderr.split(separator: "\n").count == 1 && !FileManager.default.fileExists(atPath: out))
        try Self.expectOneLiveRow(run + ["--live-ca", certificate], out: out, scenario: ";mode=live", thenStop: server)
        let protocols = try Self.column(10, of: folder.appendingPathComponent("serve.csv").path)
        #expect(!protocols.isEmpty && protocols.allSatisfy { $0 == "h2" })
        let alone = try BenchProcess.run(Array(run.dropFirst(3)) + ["--live-ca", certificate, "--out", out])
        #expect(alone.status == 2 && alone.stderr == "bench: --live-ca: expected --live too: it names the live server's certificate\n", "\(alone.stderr)")
    }
    #else
    /// Built without the HTTP trait (`--disable-default-traits`), bench has no server or client:
    /// `--live`, `serve` and `agree` are refused in one line that says how to build them in.
    @Test func withoutTheHTTPTraitLiveRunsServeAndAgreeAreRefused() throws {
        let out = try ScratchFolder.make().appendingPathComponent("live.csv").path
        for arguments in [["run", "--live", "http://127.0.0.1:1", "--out", out] + Self.oneRun, ["serve", "--port", "0"], ["agree", "--profile", "low-end"]] {
            let refused = try BenchProcess.run(arguments)
            #expect(refused.status == 2 && refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
            #expect(refused.stderr.contains("this bench was built without its HTTP server and client (swift build --disable-default-traits)"),
                    "\(refused.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: out))
    }
    #endif
}
