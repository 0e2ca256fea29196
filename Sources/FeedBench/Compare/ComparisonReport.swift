/// A comparison written for people or programs: a terminal table (changed rows only, at most
/// 100 columns for realistic values, numbers right-aligned with units), Markdown for a
/// pull-request comment, or CSV with one line per compared metric of every pair and one per
/// one-sided row. Rows keep file order within each verdict; the output is deterministic.
public enum ComparisonReport {
    /// The output forms of `bench compare --format`.
    public enum Format: String, CaseIterable, Sendable {
        case table, csv, markdown
    }

    /// The whole report, ending with a line end; the table is coloured only when `style`
    /// allows it (verdicts: worse red, better green).
    public static func render(_ comparison: ResultsComparison, as format: Format, style: TerminalStyle = .plain) -> String {
        let lines: [String]
        switch format {
        case .table: lines = table(comparison, style: style)
        case .markdown: lines = markdown(comparison)
        case .csv: lines = csv(comparison)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Verdicts listed in reports, most notable first (unchanged rows are only counted).
    static let listed: [ResultsComparison.Verdict] = [.worse, .better, .changed, .withinTolerance]

    static func word(_ verdict: ResultsComparison.Verdict) -> String {
        switch verdict {
        case .unchanged: "unchanged"
        case .withinTolerance: "within tolerance"
        case .changed: "changed"
        case .better: "better"
        case .worse: "worse"
        }
    }

    /// `+1.9 %`, `-0.4 %`, `from 0` (a base of 0).
    static func relativeChange(_ change: ResultsComparison.MetricChange) -> String {
        guard change.hasBothValues else { return "" }
        guard change.base != 0 else { return "from 0" }
        return signedPercent(change) + " %"
    }

    /// The change as a signed percentage of the base with 1 decimal, rounded half up; "" when
    /// the base is 0 or a side has no value.
    static func signedPercent(_ change: ResultsComparison.MetricChange) -> String {
        guard change.base != 0, change.hasBothValues else { return "" }
        let percent = Double(change.delta.magnitude) / Double(change.base) * 100
        let digits = percent < 1e15 ? FixedPoint.decimal(percent, decimals: 1) : ">1e15"
        return change.delta > 0 ? "+" + digits : change.delta < 0 ? "-" + digits : digits
    }

    /// `±5 %`, `exact`, or "" for an informational metric without one.
    static func tolerance(_ change: ResultsComparison.MetricChange) -> String {
        change.tolerance?.description(for: change.metric) ?? ""
    }

    /// The one-line count of a group: `48 rows compared: 1 worse, 0 better, 2 within
    /// tolerance, 45 unchanged; 1 only in base` (sides without rows of their own are left out).
    static func summary(_ group: ResultsComparison.Group) -> String {
        let counts = [ResultsComparison.Verdict.worse, .better, .changed, .withinTolerance, .unchanged].compactMap { verdict in
            let count = group.count(verdict)
            return verdict == .changed && count == 0 ? nil : "\(count) \(word(verdict))"
        }
        let oneSided = [(group.onlyInBase.count, group.sides.base), (group.onlyInNew.count, group.sides.new)]
            .filter { $0.0 > 0 }.map { "; \($0.0) only in \($0.1)" }
        return "\(rows(group.rows.count)) compared: \(counts.joined(separator: ", "))" + oneSided.joined()
    }

    static func rows(_ count: Int) -> String { count == 1 ? "1 row" : "\(count) rows" }

    /// The closing line: the outcome in words.
    static func conclusion(_ comparison: ResultsComparison) -> String {
        let pairs = comparison.groups.flatMap(\.rows)
        if comparison.isUnchanged {
            return "no change: \(rows(pairs.count)), \(comparison.rules.metrics.count) metrics each"
        }
        let failing = pairs.filter { comparison.fails($0.verdict) }.count
        switch comparison.rules.failure {
        case .regressions:
            return failing == 0 ? "no regression beyond tolerance" : "regression: \(rows(failing)) worse beyond tolerance"
        case .anyDifference:
            let oneSided = comparison.groups.reduce(0) { $0 + $1.onlyInBase.count + $1.onlyInNew.count }
            guard failing + oneSided > 0 else { return "the same within tolerance" }
            return "differs: \(rows(failing)) beyond tolerance, \(rows(oneSided)) on one side only"
        }
    }

    // MARK: Table

    static func table(_ comparison: ResultsComparison, style: TerminalStyle) -> [String] {
        var lines = ["base: \(comparison.baseName)", "new:  \(comparison.newName)"]
        if !comparison.sharedIdentity.isEmpty {
            lines += wrap("every row:", comparison.sharedIdentity.map { "\($0.column)=\($0.value)" })
        }
        // Metric lines are collected first so their columns line up across the whole report.
        enum Line { case text(String), metric([String]) }
        var body: [Line] = []
        for group in comparison.groups {
            body.append(.text(""))
            if let name = group.name { body.append(.text("\(name):")) }
            for verdict in listed {
                for row in group.rows where row.verdict == verdict {
                    body.append(.text("\(word(verdict)): \(comparison.label(row.new))"))
                    for change in row.changes where change.verdict != .unchanged {
                        body.append(.metric([
                            change.metric.name, change.metric.formatWithUnit(change.base), change.metric.formatWithUnit(change.new),
                            (change.hasBothValues ? change.metric.formatDeltaWithUnit(change.delta) : ""), relativeChange(change),
                            change.verdict == .withinTolerance ? "within" : word(change.verdict),
                            change.tolerance.map { "(\($0.description(for: change.metric)))" } ?? "",
                        ]))
                    }
                }
            }
            for (side, rows) in [(group.sides.base, group.onlyInBase), (group.sides.new, group.onlyInNew)] {
                for row in rows { body.append(.text("only in \(side): \(comparison.label(row)) (line \(row.line))")) }
            }
            body.append(.text(summary(group)))
        }
        // name  base → new  delta  change  verdict  (tolerance)
        let cells = body.compactMap { if case .metric(let cells) = $0 { cells } else { nil } }
        let widths = (0..<7).map { column in cells.map { $0[column].count }.max() ?? 0 }
        func pad(_ cells: [String], _ column: Int, left: Bool = false) -> String {
            let pad = String(repeating: " ", count: widths[column] - cells[column].count)
            return left ? cells[column] + pad : pad + cells[column]
        }
        for line in body {
            switch line {
            case .text(let text):
                lines.append(text)
            case .metric(let c):
                let verdict = pad(c, 5, left: true)
                let painted = c[5] == word(.worse) ? style.paint(verdict, .red) : c[5] == word(.better) ? style.paint(verdict, .green) : verdict
                let text = "  \(pad(c, 0, left: true))  \(pad(c, 1)) → \(pad(c, 2))  \(pad(c, 3))  \(pad(c, 4))  \(painted)  \(c[6])"
                lines.append(text.trimmingTrailingSpaces())
            }
        }
        lines.append(style.paint(conclusion(comparison), comparison.fails ? .red : .bold))
        return lines
    }

    /// `words` after `lead`, wrapped at 100 columns with continuation lines indented by 2.
    static func wrap(_ lead: String, _ words: [String]) -> [String] {
        var lines: [String] = []
        var line = lead
        for word in words {
            if line.count + 1 + word.count > 100, line.count > 2 {
                lines.append(line)
                line = " "
            }
            line += " " + word
        }
        return lines + [line]
    }

    // MARK: Markdown

    static func markdown(_ comparison: ResultsComparison) -> [String] {
        var lines = ["### FeedBench results: \(conclusion(comparison))", ""]
        lines.append("Base \(code(comparison.baseName)), new \(code(comparison.newName)), \(comparison.rules.metrics.count) metrics compared.")
        if !comparison.sharedIdentity.isEmpty {
            lines.append("Every row: " + comparison.sharedIdentity.map { code("\($0.column)=\($0.value)") }.joined(separator: " "))
        }
        let header = ["| | row | metric | base | new | delta | change | tolerance |", "|:--|:--|:--|--:|--:|--:|--:|:--|"]
        for group in comparison.groups {
            lines.append("")
            if let name = group.name { lines += ["#### \(code(name))", ""] }
            let notable = listed.filter { $0 != .withinTolerance }.flatMap { verdict in group.rows.filter { $0.verdict == verdict } }
            if !notable.isEmpty { lines += header + notable.flatMap { markdownRows($0, comparison) } + [""] }
            let within = group.rows.filter { $0.verdict == .withinTolerance }
            if !within.isEmpty {
                lines += ["<details><summary>\(rows(within.count)) within tolerance</summary>", ""]
                lines += header + within.flatMap { markdownRows($0, comparison) } + ["", "</details>", ""]
            }
            for (side, rows) in [(group.sides.base, group.onlyInBase), (group.sides.new, group.onlyInNew)] where !rows.isEmpty {
                lines.append("Only in \(code(side)): " + rows.map { code(comparison.label($0)) + " (line \($0.line))" }.joined(separator: ", "))
                lines.append("")
            }
            lines.append("**Summary:** " + summary(group))
        }
        return lines
    }

    /// One table line per moved metric of a row; the row's verdict and name on the first.
    static func markdownRows(_ row: ResultsComparison.RowComparison, _ comparison: ResultsComparison) -> [String] {
        row.changes.filter { $0.verdict != .unchanged }.enumerated().map { index, change in
            let verdict = comparison.fails(change.verdict) ? "**\(word(change.verdict))**" : word(change.verdict)
            let cells = [
                verdict, index == 0 ? escape(comparison.label(row.new)) : "", change.metric.name,
                change.metric.formatWithUnit(change.base), change.metric.formatWithUnit(change.new),
                (change.hasBothValues ? change.metric.formatDeltaWithUnit(change.delta) : ""), relativeChange(change), tolerance(change),
            ]
            return "| " + cells.joined(separator: " | ") + " |"
        }
    }

    /// Text in a code span, safe inside a table cell.
    static func code(_ text: String) -> String { "`" + escape(text).replacingOccurrences(of: "`", with: "'") + "`" }

    static func escape(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }

    // MARK: CSV

    /// Columns: the identity (the new row's; the base row's for rows only in base), then
    /// `group` (the `--by` value compared, empty for two files), `metric`, `base`, `new`,
    /// `delta`, `change_percent`, `tolerance` (as `--tolerance` takes it) and `verdict`:
    /// `unchanged`, `within_tolerance`, `changed`, `better`, `worse`, or `only_in_base` /
    /// `only_in_new` with empty metric cells.
    static func csv(_ comparison: ResultsComparison) -> [String] {
        var lines = [(RunResult.identityColumns + ["group", "metric", "base", "new", "delta", "change_percent", "tolerance", "verdict"]).joined(separator: ",")]
        func identity(_ row: ResultsFile.Row) -> String { row.identity.map(CSVText.field).joined(separator: ",") }
        for group in comparison.groups {
            let name = CSVText.field(group.name ?? "")
            for row in group.rows {
                for change in row.changes {
                    let tolerance = change.tolerance?.setting(for: change.metric) ?? ""
                    let verdict = change.verdict == .withinTolerance ? "within_tolerance" : word(change.verdict)
                    lines.append([identity(row.new), name, change.metric.name, change.metric.format(change.base),
                                  change.metric.format(change.new), (change.hasBothValues ? change.metric.formatDelta(change.delta) : ""),
                                  signedPercent(change), tolerance, verdict].joined(separator: ","))
                }
            }
            for (verdict, rows) in [("only_in_base", group.onlyInBase), ("only_in_new", group.onlyInNew)] {
                for row in rows { lines.append([identity(row), name, "", "", "", "", "", "", verdict].joined(separator: ",")) }
            }
        }
        return lines
    }
}
