#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The C library's `write(2)`, named apart from the `write` methods of FeedBench's types.
func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int { write(fd, bytes, count) }

/// Unbuffered writes of whole strings to a file descriptor (stdout, stderr), retried until done.
public enum FileDescriptorOutput {
    public static func write(_ text: String, to fd: Int32) {
        _ = write(bytes: Array(text.utf8), to: fd)
    }

    /// Writes all of `bytes` to `fd`, retrying short and interrupted writes; the `errno` of a
    /// write that failed (`nil` when all were written). O(bytes).
    public static func write(bytes: [UInt8], to fd: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { systemWrite(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return nil
    }

    /// Appends `text` to the file at `path`, creating it: for a file others append to as well
    /// (GitHub's `$GITHUB_STEP_SUMMARY`). Throws `InputError` naming the file when it cannot.
    public static func append(_ text: String, toFile path: String) throws {
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
        guard fd >= 0 else { throw InputError(source: path, "cannot open to append: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        write(text, to: fd)
    }
}
