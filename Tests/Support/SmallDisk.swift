import Foundation

/// A disk that fills: a tmpfs of a few KiB mounted at a folder for a test (root only, and not in
/// every container), where a write runs out of space as on a full disk.
public enum SmallDisk {
    /// Whether a tmpfs can be mounted here: tried once, on a folder of its own.
    public static let available: Bool = {
        guard geteuid() == 0 else { return false }
        let folder = NSTemporaryDirectory() + "feedbench-small-disk-probe-\(getpid())"
        guard (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil else { return false }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        guard mount(at: folder, size: "4k") else { return false }
        unmount(folder)
        return true
    }()
    public static let missing = "a tmpfs cannot be mounted here (not root, or not allowed): the full disk is not made"

    /// Mounts a tmpfs of `size` (`16k`) at the folder `path`; whether it could.
    public static func mount(at path: String, size: String) -> Bool {
        run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", path]) == 0
    }

    public static func unmount(_ path: String) {
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
}
