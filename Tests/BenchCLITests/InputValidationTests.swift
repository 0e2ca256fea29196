import Foundation
import TestSupport
import Testing

/// Every file `bench` reads × every class of bad input, through the command a user runs: a
/// refused file gets exactly one line `bench: file:line: [field: ]expected …`, exit status 2,
/// nothing on stdout and no output file (the folder holds the input and nothing else); a
/// harmless variant is accepted. The first table of docs/robustness.md is this table.
@Suite(.scratchFolder) struct InputValidationTests {
    /// The files, and the command each is read by.
    enum FileType: String, CaseIterable, Sendable {
        case keyTrace = "key trace"
        case scrollTrace = "scroll trace"
        case profile = "profile JSON"
        case results = "results CSV"

        var fileName: String {
            switch self {
            case .keyTrace: "trace.csv"
            case .scrollTrace: "scroll.csv"
            case .profile: "phone.json"
            case .results: "results.csv"
            }
        }

        /// The command reading `input`, writing to `output` when it writes a file.
        func arguments(input: String, output: String) -> [String] {
            switch self {
            case .keyTrace:
                ["cachesim", "--trace", input, "--capacity", "5", "--out", output]
            case .scrollTrace:
                ["run", "--profile", "low-end", "--network", "lte", "--memory-limit", "1x", "--seed", "1", "--policy", "lru", "--window", "0", "--trace", input, "--out", output, "--jobs", "1"]
            case .profile:
                ["run", "--profile", input, "--memory-limit", "1x", "--seed", "1", "--policy", "lru", "--window", "0", "--trace", "browser", "--duration", "1s",
                 "--out", output, "--jobs", "1"]
            case .results:
                ["compare", input, input]  // writes only to stdout
            }
        }

        var writesAFile: Bool { self != .results }
    }

    /// The classes of bad (or odd) input of issue 8.
    enum InputClass: String, CaseIterable, Sendable {
        case empty = "empty file"
        case headerOnly = "header only"
        case wrongColumnCount = "wrong column count"
        case nonNumeric = "non-numeric"
        case negative
        case nan = "NaN"
        case infinity
        case overflow = "integer overflow (25 digits)"
        case timeBackwards = "time going backwards"
        case duplicateIdentity = "duplicate identity"
        case bomAndCRLF = "UTF-8 BOM and CRLF"
        case missingHeader = "missing header"
        case longLine = "one 10 MB line"
        case binaryGarbage = "binary garbage"
    }

    enum Outcome: Sendable {
        /// Refused with `bench: <file><message>`, the message starting at `:line:`; `<file>` in
        /// the message stands for the file's path.
        case refused(String)
        case accepted
        /// The class does not exist for this file type; the reason says why.
        case notApplicable(String)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var type: FileType
        var inputClass: InputClass
        var contents: [UInt8]
        var outcome: Outcome

        var testDescription: String { "\(type.rawValue): \(inputClass.rawValue)" }
    }

    // MARK: The inputs

    static let garbage: [UInt8] = [0xFF, 0x00, 0x13, 0x88] + Array("garbage\n".utf8)
    static let tenMegabytes = String(repeating: "1", count: 10_000_000)

    /// `examples/my-phone.json` with `line` (whole, without its line end) replaced.
    static func profile(replacing line: String, with replacement: String) -> [UInt8] {
        let text = (try? String(contentsOf: BenchProcess.packageRoot.appendingPathComponent("examples/my-phone.json"), encoding: .utf8)) ?? ""
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return Array(lines.map { $0 == line ? replacement : $0 }.joined(separator: "\n").utf8)
    }

    /// The header and first two rows of `results/low-end.csv` (no quoted cells), as fields.
    static let resultsRows: [[String]] = {
        let text = (try? String(contentsOf: BenchProcess.results.appendingPathComponent("low-end.csv"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").prefix(3).map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    }()

    /// The results header and two rows, with the cell of `column` in the first row replaced.
    static func results(setting column: String, to value: String) -> [UInt8] {
        var rows = resultsRows
        if let index = rows[0].firstIndex(of: column) { rows[1][index] = value }
        return Array((rows.map { $0.joined(separator: ",") }.joined(separator: "\n") + "\n").utf8)
    }

    static func text(_ text: String) -> [UInt8] { Array(text.utf8) }

    static let maxIds = "expected a non-negative integer no larger than 18446744073709551615"
    static let maxTimes = "expected a non-negative integer no larger than 9223372036854775807"
    static let scrollTimes = "expected a time in milliseconds from 0 to 86400000 (24 h)"
    static let fieldsOfProfile = "name, model, screenWidth, screenHeight, scale, refreshRate, columns, ramBytes, memoryWarningBytes, "
        + "jetsamLimitBytes, decodeBytesPerSecond, diskReadBytesPerSecond, diskReadLatency, defaultNetwork, memoryCacheBytes, diskCacheBytes, cellConfigurationTime"
    static let resultsIdentity = "profile, network, http, policy, memory_limit_bytes, disk_limit_bytes, prefetch_window, trace, seed, launches, scenario"

    static let cases: [Case] = [
        // Key traces (bench cachesim --trace): CSV time,obj_id,obj_size.
        Case(type: .keyTrace, inputClass: .empty, contents: [], outcome: .refused(":1: expected lines of time,obj_id,obj_size, found no request")),
        Case(type: .keyTrace, inputClass: .headerOnly, contents: text("time,obj_id,obj_size\n"),
             outcome: .refused(":1: expected lines of time,obj_id,obj_size, found no request")),
        Case(type: .keyTrace, inputClass: .wrongColumnCount, contents: text("0,1,1\n1,2\n"),
             outcome: .refused(":2: expected 3 fields (time,obj_id,obj_size), found 2: \"1,2\"")),
        Case(type: .keyTrace, inputClass: .nonNumeric, contents: text("0,abc,1\n"), outcome: .refused(":1: obj_id: \(maxIds), found \"abc\"")),
        Case(type: .keyTrace, inputClass: .negative, contents: text("0,1,-3\n"), outcome: .refused(":1: obj_size: \(maxTimes), found \"-3\"")),
        Case(type: .keyTrace, inputClass: .nan, contents: text("0,1,nan\n"), outcome: .refused(":1: obj_size: \(maxTimes), found \"nan\"")),
        Case(type: .keyTrace, inputClass: .infinity, contents: text("0,1,1\ninf,2,3\n"), outcome: .refused(":2: time: \(maxTimes), found \"inf\"")),
        Case(type: .keyTrace, inputClass: .overflow, contents: text("0,1234567890123456789012345,1\n"),
             outcome: .refused(":1: obj_id: \(maxIds), found \"1234567890123456789012345\"")),
        Case(type: .keyTrace, inputClass: .timeBackwards, contents: text("5,1,1\n4,1,1\n"),
             outcome: .refused(":2: time: expected a time no earlier than the previous line's 5, found 4")),
        // Repeated object ids are what a cache trace is made of; equal times are one tick.
        Case(type: .keyTrace, inputClass: .duplicateIdentity, contents: text("1,7,100\n1,7,100\n"), outcome: .accepted),
        Case(type: .keyTrace, inputClass: .bomAndCRLF, contents: [0xEF, 0xBB, 0xBF] + text("time,obj_id,obj_size\r\n0,1,1\r\n"), outcome: .accepted),
        Case(type: .keyTrace, inputClass: .missingHeader, contents: text("0,1,1\n1,2,1\n"), outcome: .accepted),
        Case(type: .keyTrace, inputClass: .longLine, contents: text("0,1,\(tenMegabytes)\n"),
             outcome: .refused(":1: expected lines of at most 1048576 bytes, found a longer one")),
        Case(type: .keyTrace, inputClass: .binaryGarbage, contents: garbage,
             outcome: .refused(":1: expected the header time,obj_id,obj_size or a request, found \"\\xFF\\x00\\x13\\x88garbage\"")),

        // Recorded scroll traces (bench run --trace x.csv): CSV t_ms,offset_pt.
        Case(type: .scrollTrace, inputClass: .empty, contents: [], outcome: .refused(":1: expected lines of t_ms,offset_pt, found no sample")),
        Case(type: .scrollTrace, inputClass: .headerOnly, contents: text("t_ms,offset_pt\n"),
             outcome: .refused(":1: expected lines of t_ms,offset_pt, found no sample")),
        Case(type: .scrollTrace, inputClass: .wrongColumnCount, contents: text("0,0,0\n"),
             outcome: .refused(":1: expected 2 fields (t_ms,offset_pt), found 3: \"0,0,0\"")),
        Case(type: .scrollTrace, inputClass: .nonNumeric, contents: text("0,abc\n"), outcome: .refused(":1: offset_pt: expected a finite number, found \"abc\"")),
        Case(type: .scrollTrace, inputClass: .negative, contents: text("0,0\n10,-5\n"),
             outcome: .refused(":2: offset_pt: expected an offset in points ≥ 0 (and below 10^15), found \"-5\"")),
        Case(type: .scrollTrace, inputClass: .nan, contents: text("0,nan\n"), outcome: .refused(":1: offset_pt: expected a finite number, found \"nan\"")),
        Case(type: .scrollTrace, inputClass: .infinity, contents: text("0,0\ninf,1\n"), outcome: .refused(":2: t_ms: expected a finite number, found \"inf\"")),
        Case(type: .scrollTrace, inputClass: .overflow, contents: text("1234567890123456789012345,0\n"),
             outcome: .refused(":1: t_ms: \(scrollTimes), found \"1234567890123456789012345\"")),
        Case(type: .scrollTrace, inputClass: .timeBackwards, contents: text("10,0\n5,1\n"),
             outcome: .refused(":2: t_ms: expected a time at least 1 µs after the previous sample's 10.000, found \"5\"")),
        // A sample's identity is its time: two samples at one time are refused.
        Case(type: .scrollTrace, inputClass: .duplicateIdentity, contents: text("10,0\n10,1\n"),
             outcome: .refused(":2: t_ms: expected a time at least 1 µs after the previous sample's 10.000, found \"10\"")),
        Case(type: .scrollTrace, inputClass: .bomAndCRLF, contents: [0xEF, 0xBB, 0xBF] + text("t_ms,offset_pt\r\n0,0\r\n2000,300\r\n"), outcome: .accepted),
        Case(type: .scrollTrace, inputClass: .missingHeader, contents: text("0,0\n2000,300\n"), outcome: .accepted),
        Case(type: .scrollTrace, inputClass: .longLine, contents: text("0,\(tenMegabytes)\n"),
             outcome: .refused(":1: expected lines of at most 1048576 bytes, found a longer one")),
        Case(type: .scrollTrace, inputClass: .binaryGarbage, contents: garbage,
             outcome: .refused(":1: expected 2 fields (t_ms,offset_pt), found 1: \"\\xFF\\x00\\x13\\x88garbage\"")),

        // Device profiles (bench run --profile x.json): one JSON object, examples/my-phone.json.
        Case(type: .profile, inputClass: .empty, contents: [],
             outcome: .refused(":1: expected a JSON object ({ … }) of profile fields, found the end of the file")),
        Case(type: .profile, inputClass: .headerOnly, contents: text("{}"),
             outcome: .refused(":1: name: expected every field of a profile (see docs/model.md), found this one missing")),
        Case(type: .profile, inputClass: .wrongColumnCount, contents: profile(replacing: "  \"columns\": 1,", with: ""),
             outcome: .refused(":19: columns: expected every field of a profile (see docs/model.md), found this one missing")),
        Case(type: .profile, inputClass: .wrongColumnCount, contents: profile(replacing: "  \"columns\": 1,", with: "  \"columns\": 1, \"notes\": \"x\","),
             outcome: .refused(":8: notes: expected one of the profile fields (\(fieldsOfProfile)), found an unknown one")),
        Case(type: .profile, inputClass: .nonNumeric, contents: profile(replacing: "  \"columns\": 1,", with: "  \"columns\": \"three\","),
             outcome: .refused(":8: columns: expected an integer count of columns in 1...8, found the string \"three\"")),
        Case(type: .profile, inputClass: .negative, contents: profile(replacing: "  \"ramBytes\": 4294967296,", with: "  \"ramBytes\": -1,"),
             outcome: .refused(":9: ramBytes: expected an integer of bytes in 1...1099511627776, found \"-1\"")),
        Case(type: .profile, inputClass: .nan, contents: profile(replacing: "  \"scale\": 3,", with: "  \"scale\": NaN,"),
             outcome: .refused(":6: scale: expected a string or a number, found \"NaN\"")),
        Case(type: .profile, inputClass: .infinity, contents: profile(replacing: "  \"scale\": 3,", with: "  \"scale\": 1e999,"),
             outcome: .refused(":6: scale: expected a number of pixels per point in 1...4, found \"1e999\"")),
        Case(type: .profile, inputClass: .overflow, contents: profile(replacing: "  \"ramBytes\": 4294967296,", with: "  \"ramBytes\": 1234567890123456789012345,"),
             outcome: .refused(":9: ramBytes: expected an integer of bytes in 1...1099511627776, found \"1234567890123456789012345\"")),
        // No times in a profile; the analogue is limits out of order.
        Case(type: .profile, inputClass: .timeBackwards, contents: profile(replacing: "  \"jetsamLimitBytes\": 1887436800,", with: "  \"jetsamLimitBytes\": 100,"),
             outcome: .refused(":11: jetsamLimitBytes: expected a size no smaller than memoryWarningBytes (1258291200), found \"100\"")),
        Case(type: .profile, inputClass: .duplicateIdentity, contents: profile(replacing: "  \"columns\": 1,", with: "  \"columns\": 1,\n  \"columns\": 2,"),
             outcome: .refused(":9: columns: expected each field once, found it again (first on line 8)")),
        Case(type: .profile, inputClass: .bomAndCRLF,
             contents: [0xEF, 0xBB, 0xBF] + profile(replacing: "", with: "").split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
                .map { Array($0) }.joined(separator: [0x0D, 0x0A]),
             outcome: .accepted),
        Case(type: .profile, inputClass: .missingHeader, contents: [], outcome: .notApplicable("JSON has no header line")),
        Case(type: .profile, inputClass: .longLine, contents: profile(replacing: "  \"model\": \"iPhone 12 mini\",", with: "  \"model\": \"\(tenMegabytes)\","),
             outcome: .refused(":3: expected lines of at most 1048576 bytes, found a longer one")),
        Case(type: .profile, inputClass: .binaryGarbage, contents: garbage,
             outcome: .refused(":1: expected a JSON object ({ … }) of profile fields, found \"\\xFF\\x00\\x13\\x88garbage\"")),

        // Results CSVs (bench compare, bench check): the header and two rows of results/low-end.csv.
        Case(type: .results, inputClass: .empty, contents: [], outcome: .refused(":1: expected a header line, found an empty file")),
        // An empty matrix is a valid results file, but a comparison of nothing is refused (bench
        // check fails on it: every row is missing).
        Case(type: .results, inputClass: .headerOnly, contents: text(resultsRows[0].joined(separator: ",") + "\n"),
             outcome: .refused(": expected configurations also in <file>, found none in common (0 here, 0 there)")),
        Case(type: .results, inputClass: .wrongColumnCount,
             contents: text(resultsRows[0].joined(separator: ",") + "\n" + resultsRows[1].dropLast().joined(separator: ",") + "\n"),
             outcome: .refused(":2: expected 44 fields as in the header, found 43")),
        Case(type: .results, inputClass: .nonNumeric, contents: results(setting: "hit_rate", to: "abc"),
             outcome: .refused(":2: hit_rate: expected a rate from 0 to 1 with at most 6 decimals, found \"abc\"")),
        Case(type: .results, inputClass: .negative, contents: results(setting: "stalls", to: "-3"),
             outcome: .refused(":2: stalls: expected a non-negative integer, found \"-3\"")),
        Case(type: .results, inputClass: .nan, contents: results(setting: "hit_rate", to: "nan"),
             outcome: .refused(":2: hit_rate: expected a rate from 0 to 1 with at most 6 decimals, found \"nan\"")),
        Case(type: .results, inputClass: .infinity, contents: results(setting: "stall_ms_p95", to: "inf"),
             outcome: .refused(":2: stall_ms_p95: expected a non-negative number of milliseconds with at most 3 decimals, found \"inf\"")),
        Case(type: .results, inputClass: .overflow, contents: results(setting: "bytes_downloaded", to: "1234567890123456789012345"),
             outcome: .refused(":2: bytes_downloaded: expected a non-negative integer number of bytes, found \"1234567890123456789012345\"")),
        Case(type: .results, inputClass: .timeBackwards, contents: [], outcome: .notApplicable("rows are runs, not events in time; their order is free")),
        Case(type: .results, inputClass: .duplicateIdentity,
             contents: text(([resultsRows[0], resultsRows[1], resultsRows[1]]).map { $0.joined(separator: ",") }.joined(separator: "\n") + "\n"),
             outcome: .refused(":3: expected one row per identity (\(resultsIdentity)), found the identity of line 2 again")),
        Case(type: .results, inputClass: .bomAndCRLF,
             contents: [0xEF, 0xBB, 0xBF] + text(resultsRows.map { $0.joined(separator: ",") }.joined(separator: "\r\n") + "\r\n"), outcome: .accepted),
        // The header is how a results file says which schema it has: required.
        Case(type: .results, inputClass: .missingHeader, contents: text(resultsRows[1].joined(separator: ",") + "\n"),
             outcome: .refused(":1: expected the results columns as bench run writes them; column 1 should be \"profile\", found \"low-end\"")),
        Case(type: .results, inputClass: .longLine, contents: results(setting: "trace", to: tenMegabytes),
             outcome: .refused(":2: expected lines of at most 1048576 bytes, found a longer one")),
        Case(type: .results, inputClass: .binaryGarbage, contents: garbage,
             outcome: .refused(":1: expected UTF-8 text, found \"\\xFF\\x00\\x13\\x88garbage\"")),
    ]

    // MARK: The tests

    @Test func theTableCoversEveryClassForEveryFileType() {
        for type in FileType.allCases {
            for inputClass in InputClass.allCases {
                #expect(Self.cases.contains { $0.type == type && $0.inputClass == inputClass }, "\(type.rawValue): \(inputClass.rawValue)")
            }
        }
    }

    @Test(arguments: cases)
    func eachInputIsRefusedInOneLineOrAccepted(_ input: Case) throws {
        if case .notApplicable = input.outcome { return }
        let folder = try BenchProcess.scratch()
        let path = folder.appendingPathComponent(input.type.fileName).path
        let output = folder.appendingPathComponent("out.csv").path
        try Data(input.contents).write(to: URL(fileURLWithPath: path))
        let result = try BenchProcess.run(input.type.arguments(input: path, output: output))
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        switch input.outcome {
        case .refused(let message):
            #expect(result.status == 2)
            #expect(result.stderr == "bench: \(path)\(message.replacingOccurrences(of: "<file>", with: path))\n")
            #expect(result.stdout.isEmpty)
            #expect(left == [input.type.fileName], "no output file, no temporary file")
        case .accepted:
            #expect(result.status == 0, "\(result.stderr)")
            #expect(left == (input.type.writesAFile ? [input.type.fileName, "out.csv"].sorted() : [input.type.fileName]))
        case .notApplicable:
            break
        }
    }
}
