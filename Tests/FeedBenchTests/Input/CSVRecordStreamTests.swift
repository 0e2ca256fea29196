@testable import FeedBench
import Foundation
import TestSupport
import Testing

/// `CSVRecordStream` reads what `CSVTable` reads — the same records on the same lines, the same
/// refusals — whatever its buffer's size, and refuses a cut-off last record when asked to.
@Suite(.scratchFolder) struct CSVRecordStreamTests {
    func write(_ text: String, _ name: String) throws -> String {
        let path = try SharedFiles.scratchDirectory().appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Every record of the file, or the refusal, as a comparable text.
    func streamed(_ path: String, bufferSize: Int, finalLineEndRequired: Bool = false) -> String {
        do {
            let stream = try CSVRecordStream(path: path, bufferSize: bufferSize, finalLineEndRequired: finalLineEndRequired)
            var records = [stream.header]
            while let record = try stream.next() { records.append(record) }
            return records.map { "\($0.line):\($0.fields)" }.joined(separator: "\n")
        } catch {
            return "\(error)"
        }
    }

    func table(_ path: String) -> String {
        do {
            let table = try CSVTable.read(path: path)
            return ([table.header] + table.records).map { "\($0.line):\($0.fields)" }.joined(separator: "\n")
        } catch {
            return "\(error)"
        }
    }

    /// Random files of quoted and bare fields, line ends inside quotes, CRLF, blank lines, a
    /// byte-order mark, a missing final line end, and now and then a malformed byte: streamed
    /// through buffers of 64 bytes to 16 KiB, each reads as the whole-file parser reads it.
    @Test func readsWhatCSVTableReadsWhateverTheBuffer() throws {
        let pieces = ["a", "bb", "", "\"q,1\"", "\"line\nbreak\"", "\"say \"\"hi\"\"\"", "é", String(repeating: "x", count: 90)]
        for seed in UInt64(1)...60 {
            var generator = SeededGenerator(seed: seed)
            func pick<T>(_ items: [T]) -> T { items[Int(generator.next(below: UInt64(items.count)))] }
            let columns = Int(generator.next(below: 4)) + 1
            var text = generator.chance(0.2) ? "\u{FEFF}" : ""
            for _ in 0..<Int(generator.next(below: 40)) + 1 {
                let count = generator.chance(0.05) ? columns + 1 : columns
                text += (0..<count).map { _ in pick(pieces) }.joined(separator: ",")
                text += generator.chance(0.05) ? "\"" : ""
                text += pick(["\n", "\n", "\r\n", "\n\n"])
            }
            if generator.chance(0.3) { text.removeLast() }
            let path = try write(text, "random-\(seed).csv")
            for size in [64, 200, 1 << 14] {
                #expect(streamed(path, bufferSize: size) == table(path), "seed \(seed), buffer \(size)")
            }
        }
    }

    @Test func aLastRecordWithoutALineEndIsRefusedOnlyWhenAsked() throws {
        let path = try write("a,b\n1,2\n3,4", "cut.csv")
        #expect(streamed(path, bufferSize: 64) == "1:[\"a\", \"b\"]\n2:[\"1\", \"2\"]\n3:[\"3\", \"4\"]")
        #expect(streamed(path, bufferSize: 64, finalLineEndRequired: true) == "\(path):3: expected a line end after the last row, found the file ending mid-row: it was cut off while it was written")
        let whole = try write("a,b\n1,2\n\n", "whole.csv")
        #expect(streamed(whole, bufferSize: 64, finalLineEndRequired: true) == "1:[\"a\", \"b\"]\n2:[\"1\", \"2\"]")
    }
}
