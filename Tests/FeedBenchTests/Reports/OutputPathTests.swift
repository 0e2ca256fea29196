@testable import FeedBench
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every output of a command is tried before any work: a path that cannot be written is
/// refused in one line naming the option and the path, and trying it leaves nothing behind.
@Suite(.scratchFolder) struct OutputPathTests {
    /// The refusal `check` throws for `outputs`, if any.
    func refusal(_ outputs: [OutputPath]) -> InputError? {
        do {
            try OutputPath.check(outputs)
            return nil
        } catch {
            return error as? InputError
        }
    }

    @Test func aWritableFileOrFolderPassesAndNothingIsCreated() throws {
        let folder = try SharedFiles.scratchDirectory()
        let file = folder.appendingPathComponent("out.csv").path
        let nested = folder.appendingPathComponent("new/deeper/out.csv").path
        let store = folder.appendingPathComponent("store").path
        try "old".write(toFile: folder.appendingPathComponent("old.csv").path, atomically: true, encoding: .utf8)
        try OutputPath.check([.file(file, option: "--out"), .file(nested, option: "--timeline"), .folder(store, option: "--store"),
                              .file(folder.appendingPathComponent("old.csv").path, option: "--per-launch"), .folder(folder.path, option: "--keep")])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["old.csv"], "missing folders are not made yet; no probe is left")
    }

    @Test func aFolderGivenAsAFileIsRefused() throws {
        let folder = try SharedFiles.scratchDirectory()
        #expect(refusal([.file(folder.path, option: "--timeline")])
                == InputError(source: "--timeline", "expected a file to write, found the folder \(InputError.quote(folder.path, limit: .max))"))
        let file = folder.appendingPathComponent("a.csv").path
        try "x".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(refusal([.folder(file, option: "--store")])
                == InputError(source: "--store", "expected a folder to write, found the file \(InputError.quote(file, limit: .max))"))
        #expect(refusal([.file(file + "/b.csv", option: "--out")])
                == InputError(source: "--out", "expected a path in a folder, found \(InputError.quote(file + "/b.csv", limit: .max)) under the file \(InputError.quote(file, limit: .max))"))
    }

    /// Issue 32 (found by Fuzz/cli): an empty path was accepted, then failed once the other
    /// outputs were written; a device was renamed over (`--out /dev/null` as root left a
    /// regular file in /dev).
    @Test func anEmptyPathADeviceAndAPipeAreRefused() throws {
        #expect(refusal([.file("", option: "--timeline")]) == InputError(source: "--timeline", "expected a file to write, found an empty path"))
        #expect(refusal([.folder("", option: "--store")]) == InputError(source: "--store", "expected a folder to write, found an empty path"))
        #expect(refusal([.file("/dev/null", option: "--out")]) == InputError(source: "--out", "expected a file to write, found the device \"/dev/null\""))
        let pipe = try SharedFiles.scratchDirectory().appendingPathComponent("pipe").path
        #expect(mkfifo(pipe, 0o600) == 0)
        #expect(refusal([.file(pipe, option: "--out")]) == InputError(source: "--out", "expected a file to write, found the pipe \(InputError.quote(pipe, limit: .max))"))
    }

    @Test func aPlaceWhereNothingCanBeCreatedIsRefused() {
        #expect(refusal([.file("/proc/x.csv", option: "--per-launch")])?.description
                    .hasPrefix("--per-launch: expected a path FeedBench can write, found \"/proc/x.csv\" (nothing can be created in \"/proc\": ") == true)
        #expect(refusal([.file("/proc/new/x.csv", option: "--out")])?.source == "--out")
    }

    @Test func oneFileForTwoOptionsIsRefused() throws {
        let file = try SharedFiles.scratchDirectory().appendingPathComponent("same.csv").path
        #expect(refusal([.file(file, option: "--out"), .file(file, option: "--per-launch")])
                == InputError(source: "--per-launch", "expected a file of its own, found \(InputError.quote(file, limit: .max)), which --out names too"))
    }
}
