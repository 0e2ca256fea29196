import Foundation
import TestSupport
import Testing

/// `bench run --live` refusals as a user meets them: one line naming what was wrong, status 2, no
/// results file.
@Suite(.scratchFolder) struct LiveRunCommandTests {
    static let oneRun = ["--profile", "low-end", "--policy", "lru", "--memory-limit", "1x", "--window", "20",
                         "--trace", "browser", "--seed", "1", "--duration", "10s"]

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
        #expect(!FileManager.default.fileExists(atPath: out))
    }
    #else
    /// Built without the HTTP trait (`--disable-default-traits`), bench has no server or client:
    /// `--live`, `serve` and `agree` are refused in one line that says how to build them in.
    @Test func withoutTheHTTPTraitLiveRunsServeAndAgreeAreRefused() throws {
        let out = try ScratchFolder.make().appendingPathComponent("live.csv").path
        for arguments in [["run", "--live", "http://127.0.0.1:1", "--out", out] + Self.oneRun, ["serve", "--port", "0"], ["agree"]] {
            let refused = try BenchProcess.run(arguments)
            #expect(refused.status == 2 && refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
            #expect(refused.stderr.contains("this bench was built without its HTTP server and client (swift build --disable-default-traits)"),
                    "\(refused.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: out))
    }
    #endif
}
