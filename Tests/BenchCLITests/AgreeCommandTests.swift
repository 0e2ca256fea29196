#if HTTP
import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

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

    /// Why the emulated link cannot be made here, if it cannot: it needs root, TUN/TAP, iproute2
    /// and the link program (`.ci/ns3-check --build`).
    static let emulationMissing: String? = {
        if getuid() != 0 { return "needs root: the emulated link makes network namespaces" }
        if !FileManager.default.fileExists(atPath: "/dev/net/tun") { return "needs /dev/net/tun (TUN/TAP)" }
        if !["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip"].contains(where: FileManager.default.isExecutableFile) { return "needs ip (iproute2)" }
        let link = BenchProcess.packageRoot.appendingPathComponent(".build-ns3/link").path
        return FileManager.default.isExecutableFile(atPath: link) ? nil : "no \(link): .ci/ns3-check --build builds it"
    }()

    static func namespaces() throws -> String {
        try BenchProcess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "ip netns list"]).stdout
    }

    /// `--emulated`: the live session through the emulated link, the kernel's TCP between bench
    /// serve --pace none and the live run; the same table, then the downloads' distributions,
    /// the verdict in the exit status, and no namespace left behind.
    @Test(.timedAlone, .enabled(if: Self.emulationMissing == nil, Comment(rawValue: Self.emulationMissing ?? "")))
    func throughTheEmulatedLinkTheDownloadsAreBandedAsDistributionsToo() throws {
        let before = try Self.namespaces()
        let agree = try BenchProcess.run(["agree", "--emulated", "--profile", "low-end", "--network", "wifi", "--duration", "5s"],
                                         in: BenchProcess.packageRoot)
        #expect(agree.status == 0 || agree.status == 1, "\(agree.stderr)")
        let lines = agree.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "[1/1] low-end wifi lru memory 471859200 B window 20 browser seed 1")
        #expect(lines.contains { $0.hasPrefix("image_requests ") }, "\(agree.stdout)")
        for quantile in ["download median: ", "download p90: "] {
            #expect(lines.contains { $0.hasPrefix(quantile) && ($0.hasSuffix(" ok") || $0.hasSuffix(" OUTSIDE")) }, "\(agree.stdout)")
        }
        #expect(lines.last == (agree.status == 0 ? "1 of 1 configurations within every band" : "0 of 1 configurations within every band"))
        #expect(try Self.namespaces() == before)
    }

    @Test func anEmulatedLinkThatCannotBeMadeIsRefusedInOneLine() throws {
        let agree = try BenchProcess.run(["agree", "--emulated", "--emulation-harness", "/nonexistent/emulated-link", "--profile", "low-end"])
        let expected = getuid() != 0 ? "bench: --emulated: needs root" : FileManager.default.fileExists(atPath: "/dev/net/tun")
            ? "bench: --emulation-harness: /nonexistent/emulated-link: expected the emulated link's harness" : "bench: --emulated: needs /dev/net/tun"
        #expect(agree.status == 2 && agree.stderr.hasPrefix(expected) && agree.stderr.split(separator: "\n").count == 1, "\(agree.stderr)")
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
