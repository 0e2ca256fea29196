#if HTTP
import FeedBench
import Foundation
import Synchronization

/// `bench serve --log FILE`'s writer: one CSV line per request (the columns of
/// `RequestLogFile`), written as each response ends, so the file is complete up to the last
/// finished request at any moment.
/// A line that ends after `close()` (a response the server gave up on while stopping) is dropped.
final class RequestLog: Sendable {
    /// The open file; `nil` once closed.
    let handle: Mutex<FileHandle?>

    /// Creates (or truncates) `path` and writes the header; throws an `InputError` naming the
    /// file when it cannot be written.
    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: Data(RequestLogFile.header.utf8)),
              let handle = FileHandle(forWritingAtPath: path) else {
            throw InputError(source: path, "cannot write the request log")
        }
        handle.seekToEndOfFile()
        self.handle = Mutex(handle)
    }

    /// One request's line.
    func record(_ record: RequestLogFile.Record) {
        let line = record.csvLine
        handle.withLock { handle in try? handle?.write(contentsOf: Data(line.utf8)) }
    }

    func close() {
        handle.withLock { handle in
            try? handle?.synchronize()
            try? handle?.close()
            handle = nil
        }
    }
}
#endif
