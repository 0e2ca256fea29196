import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a file so that readers — and a `kill -9` at any moment — see either the previous file
/// or the complete new one: the bytes go to a temporary file beside the destination (the same
/// file system, so the rename is atomic), which is flushed, synced and renamed over it on
/// `commit()`; then the folder is synced, so the rename survives a power cut too. Dropped
/// without `commit()`, it removes the temporary file. Buffered: small `write`s cost no system
/// call. Several files that belong together appear all or none (`write(all:)`): each is
/// written and synced first (`prepare()`), and only then renamed (`publish()`).
///
/// The temporary file is `.<name>.tmp-<pid>` in the destination's folder (hidden, and named
/// after the writing process, so concurrent writers never share one). A process killed while
/// writing leaves its temporary file behind; the next `AtomicFile` for the same destination
/// removes every such leftover whose process is gone.
public final class AtomicFile {
    public let path: String
    let temporaryPath: String
    private var fd: Int32
    private var buffer: [UInt8] = []
    private var committed = false
    private var prepared = false

    /// Creates the temporary file. Throws `InputError` naming `path` when it cannot.
    public init(path: String) throws {
        self.path = path
        let (folder, name) = AtomicFile.split(path)
        temporaryPath = folder + "/" + AtomicFile.temporaryPrefix(of: name) + String(getpid())
        AtomicFile.removeLeftovers(folder: folder, name: name)
        fd = open(temporaryPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw InputError(source: path, "cannot write: \(String(cString: strerror(errno)))")
        }
        buffer.reserveCapacity(1 << 16)
    }

    deinit {
        if !committed {
            if !prepared { close(fd) }
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
        try prepare()
        try publish()
    }

    /// Writes everything to the temporary file and syncs it to disk: where a full disk fails.
    public func prepare() throws {
        guard !prepared else { return }
        try flush()
        prepared = true
        let synced = fsync(fd) == 0
        guard close(fd) == 0, synced else { throw failure() }
    }

    /// Renames the prepared temporary file over `path` (no space needed) and syncs the folder.
    public func publish() throws {
        precondition(prepared, "AtomicFile: publish() before prepare()")
        committed = true
        guard rename(temporaryPath, path) == 0 else {
            unlink(temporaryPath)
            throw failure()
        }
        let folder = open(AtomicFile.split(path).folder, O_RDONLY | O_CLOEXEC)
        if folder >= 0 {
            _ = fsync(folder)
            close(folder)
        }
    }

    /// `results/low-end.csv` → (`results`, `low-end.csv`); a bare name is in `.`.
    static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }

    /// The temporary files of destination `name` start with this, then the writer's pid.
    static func temporaryPrefix(of name: String) -> String { "." + name + ".tmp-" }

    /// Removes the temporary files a killed writer left for destination `name` in `folder`:
    /// those whose pid names no running process. Best effort: a folder that cannot be listed
    /// leaves them (they are hidden and harmless).
    static func removeLeftovers(folder: String, name: String) {
        let prefix = temporaryPrefix(of: name)
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for entry in entries where entry.hasPrefix(prefix) {
            guard let pid = pid_t(entry.dropFirst(prefix.count)), pid > 0, pid != getpid() else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { unlink(folder + "/" + entry) }
        }
    }

    /// Writes `contents` to `path` atomically in one call.
    public static func write(_ contents: String, to path: String) throws {
        try write(all: [(contents, path)])
    }

    /// Writes each of `files` atomically, and all or none: every one is written and synced
    /// before the first is renamed into place, so a disk that fills on the third leaves the
    /// first two unwritten too (their temporary files removed).
    public static func write(all files: [(contents: String, path: String)]) throws {
        let prepared = try files.map { contents, path in
            let file = try AtomicFile(path: path)
            try file.write(contents)
            try file.prepare()
            return file
        }
        for file in prepared { try file.publish() }
    }

    private func flush() throws {
        if let error = FileDescriptorOutput.write(bytes: buffer, to: fd) {
            errno = error
            throw failure()
        }
        buffer.removeAll(keepingCapacity: true)
    }

    private func failure() -> InputError {
        InputError(source: path, "cannot write: \(String(cString: strerror(errno)))")
    }
}
