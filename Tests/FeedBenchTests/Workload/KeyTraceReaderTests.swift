import TestSupport
import Testing
@testable import FeedBench

/// What the key-trace reader accepts, what it refuses, and how it says so.
@Suite(.scratchFolder) struct KeyTraceReaderTests {
    func read(_ text: String) throws -> (KeyTraceBatch, KeyTraceSummary) {
        try KeyTraceReader(path: SharedFiles.write(text)).load()
    }

    func refusal(_ text: String) -> InputError? {
        do { _ = try read(text); return nil } catch let error as InputError { return error } catch { return nil }
    }

    @Test func readsWithAndWithoutHeader() throws {
        let (withHeader, summary) = try read("time,obj_id,obj_size\n1,10,100\n2,11,200\n")
        #expect(withHeader.keys == [10, 11] && withHeader.sizes == [100, 200] && withHeader.times == [1, 2])
        #expect(summary.requests == 2 && summary.requestedBytes == 300)
        let (bare, _) = try read("1,10,100\n2,11,200")
        #expect(bare.keys == withHeader.keys)
    }

    @Test func acceptsCRLFByteOrderMarkBlankLinesAndHugeIds() throws {
        let (batch, _) = try read("\u{FEFF}time,obj_id,obj_size\r\n1,18446744073709551615,5\r\n\r\n2,7,5\r\n")
        #expect(batch.keys == [.max, 7])
    }

    @Test func dropsZeroSizeRequestsAsLibCacheSimDoes() throws {
        let (batch, summary) = try read("1,1,0\n2,2,10\n")
        #expect(batch.count == 1 && summary.zeroSizeRequests == 1 && summary.requests == 1)
    }

    @Test func refusesEachMalformedLineWithItsLineAndField() {
        #expect(refusal("1,2\n")?.line == 1)
        #expect(refusal("1,2,3\n4,5,6,7\n")?.line == 2)
        #expect(refusal("1,2,x\n")?.field == "obj_size")
        #expect(refusal("1,-2,3\n")?.field == "obj_id")
        #expect(refusal("1,2,-3\n")?.field == "obj_size")
        #expect(refusal("1,99999999999999999999999,3\n")?.field == "obj_id")
        #expect(refusal("1,2,99999999999999999999\n")?.field == "obj_size")
        #expect(refusal("1.5,2,3\n")?.field == "time")
        #expect(refusal("5,1,1\n4,1,1\n")?.description.contains(":2: time: expected a time no earlier than the previous line's 5") == true)
        #expect(refusal("ts,id,size\n1,2,3\n")?.line == 1)
        #expect(refusal("\u{1}\u{2}\u{FF}garbage")?.line == 1)
        #expect(refusal("1, 2,3\n")?.field == "obj_id")
    }

    /// Regression: two requests of 2^63−1 bytes overflowed the total and trapped.
    @Test func refusesATotalSizePast2To63Bytes() {
        let error = refusal("0,1,9223372036854775807\n1,2,9223372036854775807\n")
        #expect(error?.line == 2 && error?.field == "obj_size")
        #expect(error?.message == "expected sizes that keep the trace's total under 2^63 bytes, found 9223372036854775807 after 9223372036854775807")
    }

    @Test func refusesAnEmptyOrHeaderOnlyTrace() {
        #expect(refusal("")?.message.contains("found no request") == true)
        #expect(refusal("time,obj_id,obj_size\n")?.message.contains("found no request") == true)
    }

    @Test func refusesALineLongerThanTheLimitWithoutBufferingIt() throws {
        let path = try SharedFiles.write("1,1,1\n" + String(repeating: "9", count: 3 << 20) + "\n")
        #expect(throws: InputError(source: path, line: 2, "expected lines of at most 1048576 bytes, found a longer one")) {
            try KeyTraceReader(path: path).load()
        }
    }

    @Test func refusesAMissingFile() {
        #expect(throws: InputError(source: "/nonexistent/trace.csv", "cannot open: No such file or directory")) {
            try KeyTraceReader(path: "/nonexistent/trace.csv").load()
        }
    }

    @Test func batchesPreserveOrderAcrossBoundaries() throws {
        let lines = (0..<1000).map { "\($0),\($0 % 17),\($0 + 1)" }.joined(separator: "\n")
        var keys: [UInt64] = []
        try KeyTraceReader(path: SharedFiles.write(lines)).forEachBatch(batchSize: 7) { keys += $0.keys }
        #expect(keys == (0..<1000).map { UInt64($0 % 17) })
    }

    @Test func nextAccessPositionsPointToTheNextRequestForTheSameKey() {
        var batch = KeyTraceBatch()
        for key: UInt64 in [1, 2, 1, 3, 2, 1] { batch.append(time: 0, key: key, size: 1) }
        #expect(batch.nextAccessPositions() == [2, 4, 5, .max, .max, .max])
    }

    @Test func zipfTraceFilesRoundTripThroughTheReader() throws {
        let trace = ZipfKeyTrace(objects: 50, requests: 500, seed: 4)
        let path = try SharedFiles.scratchDirectory().appendingPathComponent("zipf.csv").path
        try trace.write(to: path)
        let (batch, _) = try KeyTraceReader(path: path).load()
        let generated = trace.generate()
        #expect(batch.keys == generated.keys && batch.sizes == generated.sizes && batch.times == generated.times)
    }
}
