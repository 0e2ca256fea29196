import Foundation
import TestSupport
import Testing
@testable import FeedBench

/// Recorded scroll traces: resampling, every refusal with its line and column, and the round
/// trip through `ScrollTrace.write`.
@Suite(.scratchFolder) struct RecordedScrollTraceTests {
    func read(_ text: String, name: String = "input.csv", refreshRate: Int = 60) throws -> ScrollTrace {
        try RecordedScrollTrace.read(path: SharedFiles.write(text, name: name), refreshRate: refreshRate)
    }

    func refusal(_ text: String) -> InputError? {
        do { _ = try read(text); return nil } catch let error as InputError { return error } catch { return nil }
    }

    func expectClose(_ a: [Double], _ b: [Double], within tolerance: Double, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(a.count == b.count, sourceLocation: sourceLocation)
        for (i, (x, y)) in zip(a, b).enumerated() where abs(x - y) > tolerance {
            Issue.record("frame \(i): \(x) vs \(y)", sourceLocation: sourceLocation)
            return
        }
    }

    @Test func resamplesThreeSamplesByLinearInterpolation() throws {
        let trace = try read("t_ms,offset_pt\n0,0\n100,100\n200,50\n", name: "session-1.csv")
        #expect(trace.name == "session-1")
        #expect(trace.frameInterval == 16_666_667)
        // Frames at 0, 16.667, 33.333, … ms up to 200 ms (frame 12).
        #expect(trace.offsets.count == 13)
        expectClose(trace.offsets, [0, 16.667, 33.333, 50, 66.667, 83.333, 100, 91.6665, 83.3335, 75, 66.6665, 58.3335, 50], within: 1e-9)
    }

    @Test func holdsTheFirstSampleBeforeItAndAcceptsFractionalTimes() throws {
        let trace = try read("50,10\n100.5,20.5\n", refreshRate: 120)
        // Frames at 0, 8.333, …, 100 ms; the first six come before the first sample at 50 ms.
        #expect(trace.offsets.count == 13)
        #expect(trace.offsets[..<7].allSatisfy { $0 == 10 })
        #expect(abs(trace.offsets[7] - (10 + 10.5 * (58.333 - 50) / 50.5)) < 1e-9)
        #expect(abs(trace.offsets[12] - (10 + 10.5 * 50 / 50.5)) < 1e-9)
    }

    @Test func aSingleSampleAtZeroIsOneFrame() throws {
        #expect(try read("0,42.5\n").offsets == [42.5])
    }

    @Test func acceptsAByteOrderMarkCRLFAndBlankLines() throws {
        let trace = try read("\u{FEFF}t_ms,offset_pt\r\n\r\n0,0\r\n\r\n50,25\r\n", name: "crlf.trace.csv")
        #expect(trace.name == "crlf.trace")
        #expect(trace.offsets.count == 4 && trace.offsets.last == 25)
    }

    @Test func refusesAWrongFieldCount() throws {
        let error = try #require(refusal("0,0\n10,1,2\n"))
        #expect(error.line == 2 && error.field == nil)
        #expect(error.message == "expected 2 fields (t_ms,offset_pt), found 3: \"10,1,2\"")
        #expect(refusal("0\n")?.line == 1)
    }

    @Test func refusesNonNumbersNegativesAndNonFiniteValuesNamingTheColumn() throws {
        let cases: [(String, Int, String)] = [
            ("0,0\n1x,0\n", 2, "t_ms"),
            ("0,0\n10,abc\n", 2, "offset_pt"),
            ("0,0\n10,\n", 2, "offset_pt"),
            ("-1,0\n", 1, "t_ms"),
            ("0,0\n10,-0.5\n", 2, "offset_pt"),
            ("0,nan\n", 1, "offset_pt"),
            ("0,0\n5,inf\n", 2, "offset_pt"),
            ("0,0\ninf,5\n", 2, "t_ms"),
            ("0,1e300\n", 1, "offset_pt"),
            ("0,0\n86400001,0\n", 2, "t_ms"),
        ]
        for (text, line, field) in cases {
            let error = try #require(refusal(text), "\(text)")
            #expect(error.line == line && error.field == field, "\(text): \(error)")
        }
        let path = try SharedFiles.write("0,0\n10,-0.5\n")
        #expect(throws: InputError(source: path, line: 2, field: "offset_pt", "expected an offset in points ≥ 0 (and below 10^15), found \"-0.5\"")) {
            try RecordedScrollTrace.read(path: path, refreshRate: 60)
        }
    }

    @Test func refusesTimeGoingBackwardsOrRepeating() throws {
        let backwards = try #require(refusal("0,0\n10,1\n5,2\n"))
        #expect(backwards.description.hasSuffix(":3: t_ms: expected a time at least 1 µs after the previous sample's 10.000, found \"5\""))
        let repeated = try #require(refusal("t_ms,offset_pt\n0,0\n10,1\n10.0,2\n"))
        #expect(repeated.line == 4 && repeated.field == "t_ms")
        #expect(refusal("0,0\n0.0004,1\n")?.line == 2)  // the same microsecond
    }

    @Test func refusesAnEmptyOrHeaderOnlyFileAndAnyOtherHeader() throws {
        for text in ["", "\n\n", "t_ms,offset_pt\n", "\u{FEFF}t_ms,offset_pt\r\n\r\n"] {
            #expect(refusal(text)?.message == "expected lines of t_ms,offset_pt, found no sample", "\(text)")
        }
        for header in ["time,offset\n0,0\n", "T_MS,offset_pt\n0,0\n", "t_ms,offset_pt,extra\n0,0\n"] {
            let error = try #require(refusal(header))
            #expect(error.line == 1 && error.message.hasPrefix("expected the header t_ms,offset_pt or a sample"))
        }
        #expect(refusal("0,0\nt_ms,offset_pt\n")?.field == "t_ms")
    }

    @Test func refusesAMissingFile() {
        #expect(throws: InputError(source: "/nonexistent/scroll.csv", "cannot open: No such file or directory")) {
            try RecordedScrollTrace.read(path: "/nonexistent/scroll.csv", refreshRate: 60)
        }
    }

    @Test(arguments: ScrollBehavior.allCases, [60, 120])
    func writtenTracesReadBackFrameForFrame(behavior: ScrollBehavior, refreshRate: Int) throws {
        let trace = behavior.trace(seed: 9, duration: 90_000_000_000, refreshRate: refreshRate, rowHeight: 375, viewportHeight: 667)
        let path = try SharedFiles.scratchDirectory().appendingPathComponent("\(behavior).csv").path
        try trace.write(to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == trace.csv)
        let back = try RecordedScrollTrace.read(path: path, refreshRate: refreshRate)
        #expect(back.name == behavior.rawValue && back.frameInterval == trace.frameInterval)
        expectClose(back.offsets, trace.offsets, within: 0.005 + 1e-9)
    }

    @Test func writesFixedDecimalsWithAHeader() {
        let trace = ScrollTrace(name: "t", frameInterval: ScrollTrace.frameInterval(refreshRate: 120), offsets: [0, 2.675, 1234.005, 99.999])  // 2.675 is 2.67499…, 1234.005 is 1234.00500…1
        #expect(trace.csv == "t_ms,offset_pt\n0.000,0.00\n8.333,2.67\n16.667,1234.01\n25.000,100.00\n")
        #expect(trace.duration == 4 * 8_333_333)
    }
}
