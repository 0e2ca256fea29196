#if HTTP
import FeedBench
import Foundation
import Synchronization

/// `bench serve --log FILE`'s writer: one CSV line per request (the columns of
/// `RequestLogFile`), written as each response ends, so the file is complete up to the last
/// finished request at any moment.
/// A line that ends after `close()` (a response the server gave up on while stopping) is dropped.
/// A write that fails (a full disk) ends the log: the file is cut back to its last whole line,
/// closed, and `failure()` throws, for the server to stop and say so.
final class RequestLog: Sendable {
    struct File {
        /// The open file's descriptor; `nil` once closed or failed.
        var descriptor: Int32?
        /// The bytes of the whole lines written.
        var length: Int = 0
    }

    let path: String
    private let file: Mutex<File>
    private let failures: AsyncStream<InputError>
    private let failed: AsyncStream<InputError>.Continuation

    /// Creates (or truncates) `path` and writes the header; throws an `InputError` naming the
    /// file when it cannot be written.
    init(path: String) throws {
        self.path = path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw InputError(source: path, "cannot write the request log: \(String(cString: strerror(errno)))") }
        var file = File(descriptor: descriptor)
        (failures, failed) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
        if let error = Self.append(RequestLogFile.header, to: &file) {
            unlink(path)
            throw InputError(source: path, "cannot write the request log: \(error)")
        }
        self.file = Mutex(file)
    }

    /// One request's line.
    func record(_ record: RequestLogFile.Record) {
        let line = record.csvLine
        let failure = file.withLock { file -> String? in
            guard file.descriptor != nil, let error = Self.append(line, to: &file) else { return nil }
            return error
        }
        if let failure {
            failed.yield(InputError(source: path, "cannot write the request log: \(failure); it holds the requests logged before, each line whole"))
            failed.finish()
        }
    }

    /// Returns when the log is closed; throws the `InputError` of a write that failed.
    func failure() async throws {
        for await error in failures { throw error }
    }

    func close() {
        file.withLock { file in
            guard let descriptor = file.descriptor else { return }
            fsync(descriptor)
            closeDescriptor(descriptor)
            file.descriptor = nil
        }
        failed.finish()
    }

    /// Writes `text` at the end of `file`, or on failure cuts the file back to its whole lines,
    /// closes it and returns the system's reason.
    private static func append(_ text: String, to file: inout File) -> String? {
        guard let descriptor = file.descriptor else { return nil }
        let bytes = Array(text.utf8)
        guard let failure = FileDescriptorOutput.write(bytes: bytes, to: descriptor) else {
            file.length += bytes.count
            return nil
        }
        _ = ftruncate(descriptor, off_t(file.length))
        fsync(descriptor)
        closeDescriptor(descriptor)
        file.descriptor = nil
        return String(cString: strerror(failure))
    }
}

/// The system's `close`, which `RequestLog.close()` hides inside the class.
private func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
}
#endif
