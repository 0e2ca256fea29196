import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file FeedBench reads whole, within stated bounds: no line longer than `maxLineLength`
/// (1 MiB), and for a document — a profile, network, workload, conditions, sweep config or
/// population file, a few KiB each — no more than `documentLimit` (16 MiB). Past a bound the
/// read stops there and is refused in one line: a 200 MB line with no line end had taken
/// `bench compare` to 414 MB and `sweep --config` to 873 MB.
public enum ReadableFile {
    /// The longest line any reader takes, in bytes.
    public static let maxLineLength = 1 << 20
    /// The largest document file, in bytes.
    public static let documentLimit = 16 << 20

    /// The bytes of the file at `path`, read in 64 KiB pieces and refused at the first line
    /// longer than `maxLineLength` or past `maxBytes`. Throws `InputError` naming `path`.
    /// O(file size) time, O(file size) memory within the bounds.
    public static func bytes(at path: String, maxBytes: Int = .max) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw InputError(source: path, "cannot open: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var line = 1, lineStart = 0
        while true {
            let got = chunk.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
            if got < 0 {
                if errno == EINTR { continue }
                throw InputError(source: path, "cannot read: \(String(cString: strerror(errno)))")
            }
            if got == 0 { return bytes }
            guard bytes.count + got <= maxBytes else {
                throw InputError(source: path, "expected a file of at most \(maxBytes >> 20) MiB, found a larger one")
            }
            for index in 0..<got where chunk[index] == 0x0A {
                line += 1
                lineStart = bytes.count + index + 1
            }
            bytes.append(contentsOf: chunk[..<got])
            guard bytes.count - lineStart <= maxLineLength + 1 else {
                throw InputError(source: path, line: line, "expected lines of at most \(maxLineLength) bytes, found a longer one")
            }
        }
    }

    /// The bytes of the document at `path` (within `documentLimit`), or `nil` when the path is
    /// empty, missing, a folder or cannot be opened, for a caller that also takes names (a
    /// preset, a built-in population) to refuse in its own words. Throws past a bound.
    public static func contents(at path: String) throws -> Data? {
        var isFolder: ObjCBool = false
        guard !path.isEmpty, FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue,
              FileManager.default.isReadableFile(atPath: path) else { return nil }
        return Data(try bytes(at: path, maxBytes: documentLimit))
    }
}

/// The C library's `read(2)`, named apart from the readers' `read` methods.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }
