import Foundation
import TestSupport
import Testing
@testable import FeedBench

/// Whole-file reads within stated bounds: a line past 1 MiB is refused with its number as soon
/// as it is read, a document past 16 MiB as soon as it passes it; anything within comes back
/// byte for byte.
@Suite(.scratchFolder) struct ReadableFileTests {
    static func file(_ bytes: [UInt8]) throws -> String {
        let path = try ScratchFolder.make().appendingPathComponent("input").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func readsAFileWithinItsBoundsByteForByte() throws {
        let bytes = Array(("a,b\r\n" + String(repeating: "x", count: ReadableFile.maxLineLength) + "\n").utf8)
        let path = try Self.file(bytes)
        #expect(try ReadableFile.bytes(at: path) == bytes)
        #expect(try ReadableFile.contents(at: path) == Data(bytes))
    }

    @Test func aLineLongerThan1MiBIsRefusedWithItsNumber() throws {
        let path = try Self.file(Array(("one\ntwo\n" + String(repeating: "x", count: 3 << 20)).utf8))
        #expect(throws: InputError(source: path, line: 3, "expected lines of at most 1048576 bytes, found a longer one")) {
            try ReadableFile.bytes(at: path)
        }
    }

    @Test func aDocumentPast16MiBIsRefused() throws {
        let path = try Self.file(Array(repeating: UInt8(ascii: "\n"), count: ReadableFile.documentLimit + 1))
        #expect(throws: InputError(source: path, "expected a file of at most 16 MiB, found a larger one")) {
            try ReadableFile.contents(at: path)
        }
        #expect(try ReadableFile.bytes(at: path).count == ReadableFile.documentLimit + 1, "no total bound unless asked")
    }

    @Test func aMissingFileOrAFolderIsNoDocument() throws {
        let folder = try ScratchFolder.make().path
        #expect(try ReadableFile.contents(at: folder + "/none.json") == nil)
        #expect(try ReadableFile.contents(at: folder) == nil)
        #expect(throws: InputError(source: folder + "/none.csv", "cannot open: No such file or directory")) {
            try ReadableFile.bytes(at: folder + "/none.csv")
        }
    }
}
