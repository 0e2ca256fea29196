import ArgumentParser
import FeedBench
import Foundation

struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare two results CSVs as the decision is made of them, and gate CI on it.",
        discussion: """
        Runs are grouped by configuration — the identity columns less the seed — and each \
        metric is compared on its mean over the seeds, with their range. A change counts only \
        beyond both its tolerance and the seeds' noise: the ranking's margin (twice the standard \
        error of the seed-by-seed differences, at least 1 % and one count) and outside the \
        seeds' range. Identity columns that hold one value in each file and another in each \
        (http 2 → 1.1, network lte → 3g) are what changed: the rows are joined on the rest.

        The report gives the answer first — each profile's recommendation before and after, \
        with its stalls and display wait p95 — then how the gated checks moved over the \
        configurations (better, worse, within noise, the largest of each), every configuration \
        that got worse, the five most improved and the first five that changed only on ungated \
        metrics (--format csv lists every change), and the verdict.

        Gated (what fails) by default: the ranking's figures — stalls, \
        display_latency_ms_p95, memory_warnings, jetsam_kills, hitch_time_ratio_ms_per_s — and \
        memory_limit (a configuration within its profile's memory limit on every seed that no \
        longer is). The other metrics are reported and fail only when --gate names them.

        Exit status: 0 when no gated check of any configuration got worse and the answer did not \
        get worse on its own figures; 1 otherwise (with --gate-answer, only the answer counts); \
        2 on unusable input (missing or cut-off file, another schema, a malformed cell, runs of \
        other seeds, no configuration in common, an unknown metric).

        Metrics and default tolerances (absolute in the column's unit, or % of the base mean):
        \(CompareCommand.metricTable)

        With --by COLUMN --base VALUE, one file is compared with itself row by row: every row \
        whose COLUMN holds another value is compared with the VALUE row equal in all other \
        identity columns (\(RunResult.identityColumns.joined(separator: ", "))), one section per \
        value, and only a regression beyond tolerance fails.

        Examples:
          bench compare results/low-end.csv new.csv
          bench compare old.csv new.csv --gate stalls,bytes_downloaded
          bench compare old.csv new.csv --format markdown > comment.md
          bench compare old.csv new.csv --gate-answer --format github
          bench compare results/low-end.csv --by policy --base lru

        Docs: docs/compare.md, docs/ci-gating.md.
        """
    )

    /// One line per metric: name, direction and default tolerance.
    static var metricTable: String {
        func padded(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(1, width - text.count)) }
        let nameWidth = ResultMetric.all.map(\.name.count).max()! + 2
        return ResultMetric.all.map { metric in
            let direction: String
            switch metric.direction {
            case .higherIsBetter: direction = "higher is better"
            case .lowerIsBetter: direction = "lower is better"
            case .informational: direction = "informational"
            }
            let tolerance = metric.defaultTolerance?.setting(for: metric) ?? ""
            return "  " + padded(metric.name, nameWidth) + (tolerance.isEmpty ? direction : padded(direction, 18) + tolerance)
        }.joined(separator: "\n")
    }

    @Argument(help: ArgumentHelp("The base results CSV, then the new one (only one with --by).", valueName: "file"))
    var files: [String] = []

    @Option(name: .customLong("tolerance"), help: ArgumentHelp("METRIC=ABS or METRIC=PCT% (repeatable): how far METRIC may move before it counts as better or worse.", valueName: "metric=value"))
    var tolerances: [String] = []

    @Option(help: ArgumentHelp("Comma-separated metrics to report (default: every metric with a direction).", valueName: "list"))
    var metrics: String?

    @Option(help: ArgumentHelp("Comma-separated checks that fail the comparison: metrics with a direction and memory_limit (default: stalls, display_latency_ms_p95, memory_warnings, jetsam_kills, hitch_time_ratio_ms_per_s, memory_limit).", valueName: "list"))
    var gate: String?

    @Flag(help: "Fail only when the answer (a profile's recommendation) got worse on its own figures.")
    var gateAnswer = false

    @Option(help: ArgumentHelp("table, csv, markdown (a pull-request comment, at most 60,000 characters) or github (annotations, and the Markdown to $GITHUB_STEP_SUMMARY when it is set).", valueName: "format"))
    var format: String = "table"

    @Option(help: ArgumentHelp("Compare the values of this identity column inside one file (with --base).", valueName: "column"))
    var by: String?

    @Option(help: ArgumentHelp("The value of the --by column the others are compared with.", valueName: "value"))
    var base: String?

    func run() throws {
        guard let format = GateReport.Format(rawValue: format) else {
            throw InputError(source: "--format", "expected one of \(GateReport.Format.allCases.map(\.rawValue).joined(separator: ", ")), found \(InputError.quote(format))")
        }
        let overrides = try tolerances.map { try Tolerance.parseSetting($0, source: "--tolerance") }
        let chosen = try metrics.map { try ResultMetric.list($0, source: "--metrics") }
        let style = TerminalStyle.forDescriptor(1, environment: ProcessInfo.processInfo.environment)
        switch (by, base) {
        case (let column?, let value?):
            try compareWithin(column: column, value: value, format: format, rules: .regressions(metrics: chosen, overrides: overrides), style: style)
        case (nil, nil):
            guard files.count == 2 else {
                throw InputError(source: "compare", "expected two results files, BASE and NEW, found \(files.count)")
            }
            let gated = try gate.map { try GateRules.parseGate($0, source: "--gate") }
            let rules = GateRules(metrics: chosen, overrides: overrides, gate: gated, answerOnly: gateAnswer)
            let (base, new) = (try ResultsFile.read(path: files[0]), try ResultsFile.read(path: files[1]))
            try ResultsComparison.checkSameWorkloads(base: base, new: new)
            let comparison = try GateComparison.files(base: base, new: new, rules: rules)
            let csvCommand = "bench compare \(files[0]) \(files[1]) --format csv"
            if format == .github, let summary = ProcessInfo.processInfo.environment["GITHUB_STEP_SUMMARY"], !summary.isEmpty {
                try FileDescriptorOutput.append(GateReport.render(comparison, as: .markdown, csvCommand: csvCommand), toFile: summary)
            }
            FileDescriptorOutput.write(GateReport.render(comparison, as: format, style: style, csvCommand: csvCommand), to: 1)
            if comparison.fails { throw ExitCode(1) }
        case (nil, _?):
            throw InputError(source: "--base", "expected --by COLUMN with it")
        case (_?, nil):
            throw InputError(source: "--by", "expected --base VALUE with it")
        }
    }

    /// `--by COLUMN --base VALUE`: one file's rows against its VALUE rows, row by row.
    func compareWithin(column: String, value: String, format: GateReport.Format, rules: ComparisonRules, style: TerminalStyle) throws {
        guard files.count == 1 else {
            throw InputError(source: "compare", "expected one results file with --by, found \(files.count)")
        }
        guard gate == nil && !gateAnswer else {
            throw InputError(source: gate != nil ? "--gate" : "--gate-answer", "expected two results files: --by compares rows of one file, and only a regression beyond tolerance fails it")
        }
        guard let rowFormat = ComparisonReport.Format(rawValue: format.rawValue) else {
            throw InputError(source: "--format", "expected table, csv or markdown with --by, found \(InputError.quote(format.rawValue))")
        }
        let comparison = try ResultsComparison.within(ResultsFile.read(path: files[0]), by: column, base: value, rules: rules)
        guard !comparison.groups.allSatisfy(\.rows.isEmpty) else {
            throw InputError(source: files[0], "expected rows with another \(column) equal to a \(column)=\(value) row in every other identity column, found none")
        }
        FileDescriptorOutput.write(ComparisonReport.render(comparison, as: rowFormat, style: style), to: 1)
        if comparison.fails { throw ExitCode(1) }
    }
}
