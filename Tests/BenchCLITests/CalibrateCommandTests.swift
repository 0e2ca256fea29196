import Foundation
import TestSupport
import Testing

/// `bench calibrate` end to end: a real export becomes a workload that `bench run --workload`
/// simulates and names, `bench compare` keeps workloads apart, and a bad capture is one line
/// with status 2 and no file.
@Suite(.scratchFolder) struct CalibrateCommandTests {
    static let capture = BenchProcess.fixtures.appendingPathComponent("HAR/chrome-har-capturer.har").path

    @Test func aRealExportBecomesAWorkloadThatRunsAreNamedAfter() throws {
        let folder = try BenchProcess.scratch()
        let workload = folder.appendingPathComponent("cnn.json").path
        let fitted = try BenchProcess.run(["calibrate", "--har", Self.capture, "--images", "*cdn.cnn.com/*", "--out", workload])
        #expect(fitted.status == 0, "\(fitted.stderr)")
        let lines = fitted.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("captures: 292 requests: 14 API calls, ") == true && lines.allSatisfy { $0.count <= 100 }, "\(fitted.stdout)")
        let tag = try #require(lines.last?.split(separator: "(").last?.dropLast())
        #expect(tag.hasPrefix("workload=") && tag.count == 17)

        let run = ["--profile", "low-end", "--policy", "lru", "--memory-limit", "32MiB", "--window", "5", "--trace", "browser", "--duration", "20s", "--seed", "1"]
        let calibrated = folder.appendingPathComponent("calibrated.csv").path, builtIn = folder.appendingPathComponent("built-in.csv").path
        #expect(try BenchProcess.run(run + ["--workload", workload, "--out", calibrated]).status == 0)
        #expect(try BenchProcess.run(run + ["--network", "lte", "--out", builtIn]).status == 0)
        let row = try String(contentsOfFile: calibrated, encoding: .utf8).split(separator: "\n")[1]
        #expect(row.hasPrefix("low-end,calibrated,1.1,lru,") && row.contains(",cacheFirst;\(tag),"), "\(row)")
        let compared = try BenchProcess.run(["compare", builtIn, calibrated])
        #expect(compared.status == 2 && compared.stderr.hasPrefix("bench: \(calibrated): expected runs of the workload of \(builtIn) (built-in), found \(tag)"),
                "\(compared.stderr)")
        let both = try BenchProcess.run(run + ["--workload", workload, "--network", "3g", "--out", folder.appendingPathComponent("x.csv").path])
        #expect(both.status == 2 && both.stderr.hasPrefix("bench: --network: expected no network with --workload"))
    }

    @Test(arguments: [
        ("not json at all", "expected"),
        (#"{"log": {"version": "1.2", "creator": {"name": "x", "version": "1"}, "entries": [{"startedDateTime": "2026-11-23T10:00:00Z""#, "expected the rest of the capture"),
        (#"{"log": {"version": "9.9", "creator": {"name": "x", "version": "1"}, "entries": []}}"#, "log.version"),
        (#"{"log": {"version": "1.2", "creator": {"name": "x", "version": "1"}, "entries": []}}"#, "expected feed-API calls (JSON) or image downloads"),
    ])
    func aBadCaptureIsOneLineWithStatus2AndNoFile(capture: String, expected: String) throws {
        let folder = try BenchProcess.scratch()
        let har = folder.appendingPathComponent("bad.har"), out = folder.appendingPathComponent("w.json")
        try capture.write(to: har, atomically: true, encoding: .utf8)
        let result = try BenchProcess.run(["calibrate", "--har", har.path, "--out", out.path])
        #expect(result.status == 2 && result.stderr.hasPrefix("bench: ") && result.stderr.contains(expected), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1 && !FileManager.default.fileExists(atPath: out.path))
    }

    @Test func aMissingCaptureOrABadWorkloadIsRefusedBeforeAnythingRuns() throws {
        let folder = try BenchProcess.scratch()
        let none = try BenchProcess.run(["calibrate", "--out", folder.appendingPathComponent("w.json").path])
        #expect(none.status == 2 && none.stderr == "bench: calibrate: expected captures to read: --har FILE or --log FILE\n")
        let workload = folder.appendingPathComponent("w.json")
        try #"{"format": "feedbench-workload/1", "network": "wifi"}"#.write(to: workload, atomically: true, encoding: .utf8)
        let out = folder.appendingPathComponent("o.csv").path
        let refused = try BenchProcess.run(["--profile", "low-end", "--workload", workload.path, "--out", out])
        #expect(refused.status == 2 && refused.stderr.hasPrefix("bench: \(workload.path): ") && !FileManager.default.fileExists(atPath: out), "\(refused.stderr)")
    }
}
