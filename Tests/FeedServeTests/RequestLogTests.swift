#if HTTP
import FeedBench
import FeedServe
import Foundation
import TestSupport
import Testing

/// `bench serve --log` on a disk that fills: the server stops with one line naming the log and
/// the system's reason, and the log holds whole lines only (it served on silently, its log
/// 1,071 lines of ~31,000 requests, the last torn). The disk is a 16 KiB tmpfs mounted for the
/// test, which needs root.
@Suite(.scratchFolder, .serialized) struct RequestLogTests {
    /// Whether a tmpfs can be mounted here: root, and allowed to (not in every container).
    static let canMount: Bool = {
        guard geteuid() == 0, let folder = try? FileManager.default.url(for: .itemReplacementDirectory, in: .userDomainMask,
                                                                         appropriateFor: URL(fileURLWithPath: NSTemporaryDirectory()), create: true)
        else { return false }
        defer { try? FileManager.default.removeItem(at: folder) }
        guard mount(folder.path, size: "4k") else { return false }
        unmount(folder.path)
        return true
    }()

    /// Mounts a tmpfs of `size` at `path`.
    static func mount(_ path: String, size: String) -> Bool {
        run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", path]) == 0
    }

    static func unmount(_ path: String) {
        _ = run("/bin/umount", [path])
    }

    static func run(_ program: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }

    @Test(.enabled(if: canMount, "a tmpfs cannot be mounted here (not root, or not allowed): the full disk is not made"))
    func aLogThatCannotBeWrittenStopsTheServerWithWholeLinesKept() async throws {
        let disk = try ScratchFolder.make().appendingPathComponent("disk")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        try #require(Self.mount(disk.path, size: "16k"))
        defer { Self.unmount(disk.path) }
        let log = disk.appendingPathComponent("requests.csv").path
        let server = try await RunningServer.start(ClientTimeoutTests.instant, log: log)
        var answered = 0
        for _ in 0..<2_000 {
            guard (try? await server.request("/_conditions"))?.status == 200 else { break }
            answered += 1
        }
        let stopped: Result<Void, Error> = await server.task.result
        server.session.invalidateAndCancel()
        let error = try #require(stopped.failure(), "the server served \(answered) requests and went on")
        #expect("\(error)" == "\(log): cannot write the request log: No space left on device; it holds the requests logged before, each line whole")
        let text = try String(contentsOfFile: log, encoding: .utf8)
        let records = try RequestLogFile.records(parsing: Array(text.utf8), source: log)
        #expect(text.hasSuffix("\n") && records.count > 100 && records.count <= answered, "\(records.count) lines for \(answered) answers")
    }
}

extension Result {
    /// The error, if it failed.
    func failure() -> Failure? {
        if case let .failure(error) = self { return error }
        return nil
    }
}
#endif
