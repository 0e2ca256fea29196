import Foundation
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
