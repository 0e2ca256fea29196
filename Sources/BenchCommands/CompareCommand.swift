import ArgumentParser
import FeedBench
import Foundation

struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare two results CSVs (or the values of one column inside one) metric by metric.",
        discussion: """
        Rows are joined on the identity columns (\(RunResult.identityColumns.joined(separator: ", "))). \
        For each pair the report lists the metrics that moved — base, new, delta, change in % — \
        with a verdict: better or worse beyond the metric's tolerance, or within it; then rows \
        present on one side only, and a summary. Exit status: 0 when nothing is worse beyond \
        tolerance (rows on one side only are reported, not failed), 1 on a regression (the rows \
        are named), 2 on unusable input (missing file, another schema, a repeated identity, a \
        malformed cell: file:line: column) and when no row of one side has the identity of a \
        row of the other: a comparison of nothing is no pass.

        Metrics and default tolerances (absolute in the column's unit, or % of the base value; \
        from a base of 0 any change exceeds a %):
        \(CompareCommand.metricTable)

        Informational metrics are neither better nor worse; they are compared only when \
        --metrics names them, and never fail.

        With --by COLUMN --base VALUE, one file is compared with itself: every row whose \
        COLUMN holds another value is compared with the VALUE row equal in all other identity \
        columns, one section per value.

        Examples:
          bench compare results/low-end.csv new.csv
          bench compare old.csv new.csv --tolerance stall_ms_p95=10%
          bench compare results/low-end.csv --by policy --base lru --format markdown

        Docs: docs/compare.md.
        """
    )

    /// One line per metric: name, direction and default tolerance.
    static var metricTable: String {
        func padded(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(1, width - text.count)) }
        return ResultMetric.all.map { metric in
            let direction: String
            switch metric.direction {
            case .higherIsBetter: direction = "higher is better"
            case .lowerIsBetter: direction = "lower is better"
            case .informational: direction = "informational"
            }
            let tolerance = metric.defaultTolerance?.setting(for: metric) ?? ""
            return "  " + padded(metric.name, 20) + (tolerance.isEmpty ? direction : padded(direction, 18) + tolerance)
        }.joined(separator: "\n")
    }

    @Argument(help: ArgumentHelp("The base results CSV, then the new one (only one with --by).", valueName: "file"))
    var files: [String] = []

    @Option(name: .customLong("tolerance"), help: ArgumentHelp("METRIC=ABS or METRIC=PCT% (repeatable): how far METRIC may move before it counts as better or worse.", valueName: "metric=value"))
    var tolerances: [String] = []

    @Option(help: ArgumentHelp("Comma-separated metrics to compare (default: every metric with a direction).", valueName: "list"))
    var metrics: String?

    @Option(help: ArgumentHelp("table, csv or markdown (for a pull-request comment).", valueName: "format"))
    var format: String = "table"

    @Option(help: ArgumentHelp("Compare the values of this identity column inside one file (with --base).", valueName: "column"))
    var by: String?

    @Option(help: ArgumentHelp("The value of the --by column the others are compared with.", valueName: "value"))
    var base: String?

    func run() throws {
        guard let format = ComparisonReport.Format(rawValue: format) else {
            throw InputError(source: "--format", "expected one of \(ComparisonReport.Format.allCases.map(\.rawValue).joined(separator: ", ")), found \(InputError.quote(format))")
        }
        let overrides = try tolerances.map { try Tolerance.parseSetting($0, source: "--tolerance") }
        let chosen = try metrics.map { try ResultMetric.list($0, source: "--metrics") }
        let rules = ComparisonRules.regressions(metrics: chosen, overrides: overrides)

        let comparison: ResultsComparison
        switch (by, base) {
        case (let column?, let value?):
            guard files.count == 1 else {
                throw InputError(source: "compare", "expected one results file with --by, found \(files.count)")
            }
            comparison = try .within(ResultsFile.read(path: files[0]), by: column, base: value, rules: rules)
            guard !comparison.groups.allSatisfy(\.rows.isEmpty) else {
                throw InputError(source: files[0], "expected rows with another \(column) equal to a \(column)=\(value) row in every other identity column, found none")
            }
        case (nil, nil):
            guard files.count == 2 else {
                throw InputError(source: "compare", "expected two results files, BASE and NEW, found \(files.count)")
            }
            let (base, new) = (try ResultsFile.read(path: files[0]), try ResultsFile.read(path: files[1]))
            try ResultsComparison.checkSameWorkloads(base: base, new: new)
            comparison = .files(base: base, new: new, rules: rules)
            guard !comparison.groups.allSatisfy(\.rows.isEmpty) else {
                throw InputError(source: files[0], "expected rows with an identity also in \(files[1]), found no identity in common (\(base.rows.count) row\(base.rows.count == 1 ? "" : "s") here, \(new.rows.count) there)")
            }
        case (nil, _?):
            throw InputError(source: "--base", "expected --by COLUMN with it")
        case (_?, nil):
            throw InputError(source: "--by", "expected --base VALUE with it")
        }
        let style = TerminalStyle.forDescriptor(1, environment: ProcessInfo.processInfo.environment)
        FileDescriptorOutput.write(ComparisonReport.render(comparison, as: format, style: style), to: 1)
        if comparison.fails { throw ExitCode(1) }
    }
}
