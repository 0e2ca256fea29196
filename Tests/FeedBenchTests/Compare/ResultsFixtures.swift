import Foundation
@testable import FeedBench

/// Results files for the comparison tests: `Tests/Fixtures/low-end-48.csv`, and copies of it
/// with cells changed, rows dropped or rows added.
enum ResultsFixtures {
    /// The low-end standard matrix at the profile's own cache size on seed 1 (48 rows:
    /// `bench run --profile low-end --memory-limit 1x --seed 1`), kept as a fixture so that the
    /// comparison tests do not move with the committed baseline.
    static let lowEndPath = SharedFiles.packageRoot.appendingPathComponent("Tests/Fixtures/low-end-48.csv").path

    static var lowEndText: String { try! String(contentsOfFile: lowEndPath, encoding: .utf8) }

    static func lowEnd() throws -> ResultsFile { try ResultsFile.read(path: lowEndPath) }

    /// Parses `text` as a results file named `source`.
    static func file(_ text: String, source: String = "new.csv") throws -> ResultsFile {
        try ResultsFile(CSVTable(parsing: Array(text.utf8), source: source))
    }

    /// `text` with the cell of `column` on 1-based `line` replaced by `value` (the committed
    /// results have no quoted cells, so lines split on commas).
    static func editing(_ text: String, line: Int, column: String, to value: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var cells = lines[line - 1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        cells[RunResult.columns.firstIndex(of: column)!] = value
        lines[line - 1] = cells.joined(separator: ",")
        return lines.joined(separator: "\n")
    }

    /// The cell of `column` on 1-based `line`.
    static func cell(_ text: String, line: Int, column: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return String(lines[line - 1].split(separator: ",", omittingEmptySubsequences: false)[RunResult.columns.firstIndex(of: column)!])
    }

    /// `text` without its 1-based line `line`.
    static func removing(line: Int, from text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        lines.remove(at: line - 1)
        return lines.joined(separator: "\n")
    }
}

extension ResultsFile.Row {
    /// The value of an identity column.
    func identity(_ column: String) -> String? {
        RunResult.identityColumns.firstIndex(of: column).map { identity[$0] }
    }
}
