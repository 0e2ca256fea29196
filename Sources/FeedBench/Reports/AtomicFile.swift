#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a file so that readers — and a `kill -9` at any moment — see either the previous file
/// or the complete new one: the bytes go to a temporary file beside the destination, which is
/// flushed and renamed over it on `commit()`. Dropped without `commit()`, it removes the
/// temporary file. Buffered: small `write`s cost no system call.
public final class AtomicFile {
    public let path: String
    let temporaryPath: String
    private var fd: Int32
    private var buffer: [UInt8] = []
    private var committed = false

    /// Creates the temporary file. Throws `InputError` naming `path` when it cannot.
    public init(path: String) throws {
        self.path = path
        temporaryPath = path + ".tmp-\(getpid())"
        fd = open(temporaryPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else {
            throw InputError(source: path, "cannot write: \(String(cString: strerror(errno)))")
        }
        buffer.reserveCapacity(1 << 16)
    }

    deinit {
        if !committed {
            close(fd)
            unlink(temporaryPath)
        }
    }

    /// Appends `text`.
    public func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { try flush() }
    }

    /// Appends raw bytes.
    public func write(bytes: some Sequence<UInt8>) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { try flush() }
    }

    /// Writes everything, syncs it to disk and renames it over `path`.
    public func commit() throws {
        try flush()
        guard fsync(fd) == 0, close(fd) == 0 else { throw failure() }
        committed = true
        guard rename(temporaryPath, path) == 0 else {
            unlink(temporaryPath)
            throw failure()
        }
    }

    /// Writes `contents` to `path` atomically in one call.
    public static func write(_ contents: String, to path: String) throws {
        let file = try AtomicFile(path: path)
        try file.write(contents)
        try file.commit()
    }

    private func flush() throws {
        var offset = 0
        while offset < buffer.count {
            let written = buffer.withUnsafeBytes { systemWrite(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw failure()
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }

    private func failure() -> InputError {
        InputError(source: path, "cannot write: \(String(cString: strerror(errno)))")
    }
}
