import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file (or folder) a command will write, and the option that named it. `check(_:)` tries
/// every output of a command before it does any work, so a path that cannot be written is
/// refused at once — not after a long simulation, and not after another output was written.
public struct OutputPath: Sendable, Equatable {
    /// The option that named it (`--out`), for the refusal.
    public var option: String
    public var path: String
    /// A folder the command fills (`--store`) rather than a file it writes.
    public var isFolder: Bool

    /// A file written (atomically, `AtomicFile`) at `path`.
    public static func file(_ path: String, option: String) -> OutputPath {
        OutputPath(option: option, path: path, isFolder: false)
    }

    /// A folder created if missing and filled with files.
    public static func folder(_ path: String, option: String) -> OutputPath {
        OutputPath(option: option, path: path, isFolder: true)
    }

    /// Refuses, in one line naming the option and the path, the first output that cannot be
    /// written: an empty path, a file path that is a folder (or a folder path that is a file),
    /// a device, pipe or socket (the atomic rename would replace it: `--out /dev/null` run as
    /// root would leave a regular file there), a path under a file, a folder where nothing can
    /// be created, or a file named by two options. A folder
    /// that does not exist yet is fine when it can be created. Leaves nothing behind: it
    /// creates a hidden file (or folder) where the output will go and removes it at once.
    public static func check(_ outputs: [OutputPath]) throws {
        var seen: [String: String] = [:]
        for output in outputs {
            let key = URL(fileURLWithPath: output.path).standardizedFileURL.path
            if let earlier = seen[key] {
                throw output.refusal("expected a file of its own, found \(InputError.quote(output.path, limit: .max)), which \(earlier) names too")
            }
            seen[key] = output.option
            try output.check()
        }
    }

    func check() throws {
        let manager = FileManager.default
        guard !path.isEmpty else { throw refusal("expected \(isFolder ? "a folder" : "a file") to write, found an empty path") }
        var isDirectory: ObjCBool = false
        let exists = manager.fileExists(atPath: path, isDirectory: &isDirectory)
        if exists && isDirectory.boolValue != isFolder {
            throw refusal("expected \(isFolder ? "a folder" : "a file") to write, found \(isDirectory.boolValue ? "the folder" : "the file") \(InputError.quote(path, limit: .max))")
        }
        if exists && !isFolder, let kind = Self.special(path) {
            throw refusal("expected a file to write, found the \(kind) \(InputError.quote(path, limit: .max))")
        }
        // Where something must be created: in the folder itself, in the file's folder, or, when
        // that folder is missing, in the nearest folder that exists (its subfolders will be).
        var place = URL(fileURLWithPath: path)
        var created = place.lastPathComponent
        if !(exists && isFolder) {
            place.deleteLastPathComponent()
            while !manager.fileExists(atPath: place.path, isDirectory: &isDirectory) {
                created = place.lastPathComponent
                place.deleteLastPathComponent()
            }
            guard isDirectory.boolValue else {
                throw refusal("expected a path in a folder, found \(InputError.quote(path, limit: .max)) under the file \(InputError.quote(place.path, limit: .max))")
            }
        }
        let probe = place.appendingPathComponent(AtomicFile.temporaryPrefix(of: created) + String(getpid())).path
        let madeFolder = isFolder || place.path != URL(fileURLWithPath: path).deletingLastPathComponent().path
        let made: Bool
        if madeFolder {
            made = mkdir(probe, 0o755) == 0
            if made { rmdir(probe) }
        } else {
            let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            made = fd >= 0
            if made {
                close(fd)
                unlink(probe)
            }
        }
        guard made else {
            let reason = String(cString: strerror(errno))
            throw refusal("expected a path FeedBench can write, found \(InputError.quote(path, limit: .max)) (nothing can be created in \(InputError.quote(place.path, limit: .max)): \(reason))")
        }
    }

    func refusal(_ message: String) -> InputError { InputError(source: option, message) }

    /// What `path` (followed through links) is when it is neither a regular file nor a folder:
    /// "device", "pipe" or "socket"; `nil` otherwise.
    static func special(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFCHR, S_IFBLK: return "device"
        case S_IFIFO: return "pipe"
        case S_IFSOCK: return "socket"
        default: return nil
        }
    }
}
