#if HTTP
import FeedBench
import FeedServe
import Foundation
import TestSupport
import Testing

/// `bench serve --log` on a disk that fills: the server stops with one line naming the log and
/// the system's reason, and the log holds whole lines only (it served on silently, its log
/// 1,071 lines of ~31,000 requests, the last torn). The disk is a 16 KiB tmpfs mounted for the
/// test (`SmallDisk`), which needs root.
@Suite(.scratchFolder, .serialized) struct RequestLogTests {
    @Test(.enabled(if: SmallDisk.available, Comment(rawValue: SmallDisk.missing)))
    func aLogThatCannotBeWrittenStopsTheServerWithWholeLinesKept() async throws {
        let disk = try ScratchFolder.make().appendingPathComponent("disk")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        try #require(SmallDisk.mount(at: disk.path, size: "16k"))
        defer { SmallDisk.unmount(disk.path) }
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
