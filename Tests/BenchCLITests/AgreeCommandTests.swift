#if HTTP
import Foundation
import TestSupport
import Testing

/// `bench agree` as a user runs it: each configuration live against a server it starts and
/// simulated, the figures side by side with their bands, a CSV of them, and the verdict in the
/// exit status; what cannot run live is refused in one line.
@Suite(.scratchFolder) struct AgreeCommandTests {
    @Test(.timedAlone) func printsBothRunsSideBySideAndWritesEveryFigure() throws {
        let out = try ScratchFolder.make().appendingPathComponent("agree.csv").path
        let agree = try BenchProcess.run(["agree", "--profile", "low-end", "--network", "wifi", "--duration", "5s", "--out", out])
        // The verdict is the exit status: 0 within every band, 1 outside one.
        #expect(agree.status == 0 || agree.status == 1, "\(agree.stderr)")
        let lines = agree.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "[1/1] low-end wifi lru memory 471859200 B window 20 browser seed 1")
        #expect(lines.dropFirst().first?.hasPrefix("metric") == true)
        for metric in ["api_requests", "image_requests", "bytes_downloaded", "stalls", "stall_ms_p95"] {
            #expect(lines.contains { $0.hasPrefix(metric + " ") && ($0.hasSuffix(" ok") || $0.hasSuffix(" OUTSIDE")) }, "\(metric)")
        }
        #expect(lines.last == (agree.status == 0 ? "1 of 1 configurations within every band" : "0 of 1 configurations within every band"))
        let rows = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
        #expect(rows.first == "profile,network,http,policy,memory_limit_bytes,disk_limit_bytes,prefetch_window,trace,seed,launches,scenario,metric,simulated,live,band,within")
        // The preset's HTTP version, live (over TLS) as simulated.
        #expect(rows.count == 1 + 9 && rows[1].hasPrefix("low-end,wifi,2,lru,471859200,") && rows[1].contains(",api_requests,"), "\(rows)")
    }

    @Test func whatCannotRunLiveIsRefusedInOneLine() throws {
        for (arguments, message) in [(["--launches", "2"], "bench: agree: expected one launch"),
                                     (["--offline", "0s-5s"], "bench: agree: --offline is the simulated network's")] {
            let agree = try BenchProcess.run(["agree", "--profile", "low-end"] + arguments)
            #expect(agree.status == 2 && agree.stderr.hasPrefix(message) && agree.stderr.split(separator: "\n").count == 1, "\(agree.stderr)")
        }
    }
}
#endif
