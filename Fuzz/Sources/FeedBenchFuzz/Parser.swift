import FeedBench
import Foundation

/// The parsers a fuzzing process can drive, chosen by `FEEDBENCH_FUZZ_PARSER` (`Fuzz/run` sets
/// it). Each takes the fuzzer's bytes through the parser's in-memory entry point; a refusal
/// (`InputError`) is the expected outcome for most inputs, anything else — a trap, another
/// error, a broken invariant — is a finding.
enum Parser: String, CaseIterable {
    case keyTrace = "key-trace"
    case scrollTrace = "scroll-trace"
    case profile
    case network
    case results
    case har

    static let selected: Parser = {
        let name = getenv("FEEDBENCH_FUZZ_PARSER").map { String(cString: $0) } ?? ""
        guard let parser = Parser(rawValue: name) else {
            fatalError("FEEDBENCH_FUZZ_PARSER must be one of \(Parser.allCases.map(\.rawValue).joined(separator: ", ")), found \"\(name)\"")
        }
        return parser
    }()

    /// Parses `bytes`, checking what holds for every accepted input.
    func parse(_ bytes: [UInt8]) throws {
        switch self {
        case .keyTrace:
            // Small batches, so batch boundaries are exercised too.
            var requests = 0
            let summary = try KeyTraceReader(bytes: bytes, name: "fuzz").forEachBatch(batchSize: 3) { batch in
                precondition(batch.count > 0 && batch.count <= 3 && batch.sizes.allSatisfy { $0 > 0 })
                precondition(zip(batch.times, batch.times.dropFirst()).allSatisfy { $0 <= $1 })
                requests += batch.count
            }
            precondition(summary.requests == requests)
        case .scrollTrace:
            let samples = try RecordedScrollTrace.samples(LineReader(bytes: bytes, name: "fuzz"))
            precondition(zip(samples.times, samples.times.dropFirst()).allSatisfy { $0 < $1 })
            // Resampling is O(frames); keep each input under 10 s of frames so runs stay fast.
            if let last = samples.times.last, last <= 10_000_000 {
                let trace = try RecordedScrollTrace.read(bytes: bytes, name: "fuzz", refreshRate: 60)
                precondition(trace.offsets.allSatisfy { $0.isFinite && $0 >= 0 })
            }
        case .profile:
            // What is accepted writes back as JSON that reads back equal.
            let profile = try DeviceProfile(json: bytes, source: "fuzz")
            let written = try JSONEncoder().encode(profile)
            let reread = try DeviceProfile(json: Array(written), source: "written")
            precondition(reread == profile)
        case .network:
            // What is accepted writes back as a network file that reads back equal.
            let network = try NetworkFile.network(json: Data(bytes), source: "fuzz")
            let reread = try NetworkFile.network(json: Data(NetworkFile.json(network).utf8), source: "written")
            precondition(reread == network)
        case .results:
            let table = try CSVTable(parsing: bytes, source: "fuzz")
            // Every table writes back (CSVText quoting) as one that reads back equal. A record
            // that is one empty field is written `""`: an empty line would be skipped.
            let text = ([table.header] + table.records).map { record in
                record.fields == [""] ? "\"\"" : record.fields.map(CSVText.field).joined(separator: ",")
            }.joined(separator: "\n")
            let reread = try CSVTable(parsing: Array(text.utf8), source: "written")
            precondition(reread.header.fields == table.header.fields && reread.records.map(\.fields) == table.records.map(\.fields))
            // An accepted file compares with itself (every row unchanged) and, by the values of
            // its first row's policy, with itself column-wise, and renders in every format.
            let file = try ResultsFile(table)
            let rules = ComparisonRules.regressions()
            let itself = ResultsComparison.files(base: file, new: file, rules: rules)
            precondition(itself.isUnchanged && !itself.fails)
            var comparisons = [itself]
            if let policy = file.rows.first?.identity[2] { comparisons.append(try .within(file, by: "policy", base: policy, rules: rules)) }
            for comparison in comparisons {
                for format in ComparisonReport.Format.allCases { _ = ComparisonReport.render(comparison, as: format) }
            }
        case .har:
            // Entries come in file order, each line at or after the last, and the summary counts
            // them; every body kept goes through the image header reader too.
            var entries = 0, line = 1
            let summary = try HARReader(bytes: bytes, name: "fuzz").forEachEntry { entry in
                precondition(entry.index == entries && entry.line >= line)
                entries += 1
                line = entry.line
                if let body = entry.decodedContent, let header = ImageHeader.read(body) {
                    precondition(header.width > 0 && header.height > 0)
                }
            }
            precondition(summary.entries == entries && (summary.version == "1.1" || summary.version == "1.2"))
        }
    }
}

/// libFuzzer's entry point for one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    do {
        try Parser.selected.parse(Array(UnsafeBufferPointer(start: data, count: size)))
    } catch is InputError {
        // A refused input: the normal outcome.
    } catch {
        fatalError("\(Parser.selected.rawValue): an error other than InputError: \(error)")
    }
    return 0
}
