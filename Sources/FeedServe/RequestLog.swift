import FeedBench
import Foundation
import Synchronization

/// `bench serve --log FILE`: one CSV line per request, written as each response ends, so the
/// file is complete up to the last finished request at any moment:
/// `time_ms,method,path,status,bytes,injected_delay_ms,duration_ms,connection` — the time the
/// request arrived since the server started, the bytes of the body sent, the delay the server
/// added on purpose (API latency, round trip, bandwidth pacing, retransmissions) and the whole
/// time to the response's last byte. `bench cachesim` reads the image lines' paths as keys.
final class RequestLog: Sendable {
    static let header = "time_ms,method,path,status,bytes,injected_delay_ms,duration_ms,connection\n"

    let handle: Mutex<FileHandle>

    /// Creates (or truncates) `path` and writes the header; throws an `InputError` naming the
    /// file when it cannot be written.
    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: Data(Self.header.utf8)),
              let handle = FileHandle(forWritingAtPath: path) else {
            throw InputError(source: path, "cannot write the request log")
        }
        handle.seekToEndOfFile()
        self.handle = Mutex(handle)
    }

    /// One request's line. Times in nanoseconds.
    func record(time: Int64, method: String, path: String, status: Int, bytes: Int, injectedDelay: Int64, duration: Int64, connection: Int) {
        let quotedPath = path.contains(",") || path.contains("\"") ? "\"" + path.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : path
        let line = [Self.milliseconds(time), method, quotedPath, String(status), String(bytes), Self.milliseconds(injectedDelay),
                    Self.milliseconds(duration), String(connection)].joined(separator: ",") + "\n"
        handle.withLock { $0.write(Data(line.utf8)) }
    }

    /// Nanoseconds as milliseconds with 3 decimals.
    static func milliseconds(_ nanoseconds: Int64) -> String { FixedPoint.ratio(nanoseconds, 1_000_000, decimals: 3) }

    func close() { handle.withLock { try? $0.synchronize(); try? $0.close() } }
}
