import Foundation

/// `bench compare`'s report of a `GateComparison`, the answer first: each profile's
/// recommendation before and after; how the gated checks moved over the configurations (how
/// many better, worse, within noise, and the largest of each); every configuration that got
/// worse; the most improved, and the first that changed only on ungated metrics; the verdict
/// last. As a terminal table folded to 100 columns, as Markdown for a pull-request comment (never
/// longer than `markdownLimit`: what does not fit is left out and counted), as GitHub Actions
/// annotations, or as CSV with one line per configuration and metric.
public enum GateReport {
    /// The forms of `bench compare --format`.
    public enum Format: String, CaseIterable, Sendable {
        case table, csv, markdown, github
    }

    /// The most characters `--format markdown` writes: under a GitHub comment's 65,536.
    public static let markdownLimit = 60_000

    /// The most `::error` annotations `--format github` prints (GitHub shows ten a step).
    public static let annotationLimit = 10

    /// The report, ending with a line end. `csvCommand` is the command that writes the CSV, for
    /// the Markdown's note on what it left out.
    public static func render(_ comparison: GateComparison, as format: Format, style: TerminalStyle = .plain,
                              csvCommand: String = "bench compare BASE NEW --format csv") -> String {
        switch format {
        case .table: table(comparison, style: style)
        case .csv: csv(comparison)
        case .markdown: markdown(comparison, csvCommand: csvCommand)
        case .github: annotations(comparison) + table(comparison, style: .plain)
        }
    }

    // MARK: Words and numbers

    static func word(_ verdict: GateComparison.Verdict) -> String {
        switch verdict {
        case .unchanged: "unchanged"
        case .withinNoise: "within noise"
        case .withinTolerance: "within tolerance"
        case .changed: "changed"
        case .better: "better"
        case .worse: "worse"
        }
    }

    /// A mean with its seeds' range: `366 (356–382)`, `822.6 ms (801.0–840.1)`; one value
    /// when the seeds agree; `none` without a value.
    static func spread(_ spread: GateComparison.Spread?, _ metric: ResultMetric) -> String {
        guard let spread else { return "none" }
        let mean = value(spread.mean, metric)
        return spread.min == spread.max ? mean : "\(mean) (\(number(Double(spread.min), metric))–\(number(Double(spread.max), metric)))"
    }

    /// A scaled value for people: counts to one decimal where they are means (`141.7`), times in
    /// ms with one decimal, rates with 4, bytes in MiB with 1.
    static func value(_ scaled: Double, _ metric: ResultMetric) -> String {
        switch metric.kind {
        case .count, .rate, .weightedCount: number(scaled, metric)
        case .bytes: number(scaled, metric) + " MiB"
        case .milliseconds: number(scaled, metric) + " ms"
        case .millisecondsPerSecond: number(scaled, metric) + " ms/s"
        case .perMinute: number(scaled, metric) + " /min"
        }
    }

    /// `value` without its unit.
    static func number(_ scaled: Double, _ metric: ResultMetric) -> String {
        switch metric.kind {
        case .count: FixedPoint.decimal(scaled, decimals: scaled.rounded() == scaled ? 0 : 1)
        case .bytes: FixedPoint.decimal(scaled / 1_048_576, decimals: 1)
        case .rate: FixedPoint.decimal(scaled / 1_000_000, decimals: 4)
        case .milliseconds, .millisecondsPerSecond, .perMinute, .weightedCount: FixedPoint.decimal(scaled / 1_000, decimals: 1)
        }
    }

    /// `-61.3 %`, `+0.4 %`, `from 0`, or `` without both sides.
    static func percent(_ change: GateComparison.MetricChange) -> String {
        guard change.base != nil, change.new != nil else { return "" }
        guard let relative = change.relative else { return change.delta == 0 ? "0.0 %" : "from 0" }
        let text = FixedPoint.decimal(abs(relative) * 100, decimals: 1)
        return (relative > 0 ? "+" : relative < 0 ? "-" : "") + text + " %"
    }

    static func tolerance(_ change: GateComparison.MetricChange) -> String { change.tolerance?.description(for: change.metric) ?? "" }

    /// `fifo 14.1 MiB, window 5` (`, 750 px` when its images are asked narrower than full
    /// size), or `nothing` when nothing is recommended.
    static func configuration(_ recommendation: GateComparison.Recommendation?) -> String {
        guard let recommendation else { return "nothing" }
        return "\(recommendation.policy) \(FixedPoint.mebibytes(recommendation.memoryLimitBytes)), window \(recommendation.window)"
            + (recommendation.imageWidth.map { ", \($0) px" } ?? "")
    }

    /// The answer of a profile in one line: `low-end: fifo 14.1 MiB, window 5 → fifo 28.1 MiB,
    /// window 10 (another configuration)`.
    static func answerLine(_ answer: GateComparison.Answer) -> String {
        let what = answer.changed ? "another configuration" : "the same configuration"
        return "\(answer.profile): \(configuration(answer.before)) → \(configuration(answer.after)) (\(what); \(word(answer.verdict)))"
    }

    /// `stalls 366 (356–382) → 141.7 (120–178), -61.3 %, better (±5 %)`.
    static func changeLine(_ change: GateComparison.MetricChange) -> String {
        var parts = ["\(change.metric.name) \(spread(change.base, change.metric)) → \(spread(change.new, change.metric))"]
        let percent = percent(change)
        if !percent.isEmpty { parts.append(percent) }
        parts.append(word(change.verdict) + (tolerance(change).isEmpty ? "" : " (\(tolerance(change)))") + (change.gated ? "" : ", not gated"))
        return parts.joined(separator: ", ")
    }

    // MARK: What the report is made of

    /// One gated check over every configuration: how many got better, worse, or stayed within
    /// the noise (or tolerance), and the largest change of each way, with its configuration.
    struct CheckSummary {
        let check: GateRules.Check
        var better = 0, worse = 0, same = 0
        var largestBetter: (change: String, label: String)?
        var largestWorse: (change: String, label: String)?
    }

    static func summaries(_ comparison: GateComparison) -> [CheckSummary] {
        comparison.rules.gate.map { check in
            var summary = CheckSummary(check: check)
            var best = 0.0, worst = 0.0
            for pair in comparison.pairs {
                switch check {
                case .memoryLimit:
                    switch pair.memoryLimit ?? .unchanged {
                    case .worse: summary.worse += 1
                    case .better: summary.better += 1
                    default: summary.same += 1
                    }
                case let .metric(metric):
                    let change = pair.changes.first { $0.metric == metric }!
                    let size = abs(change.relative ?? (change.delta == 0 ? 0 : .infinity))
                    switch change.verdict {
                    case .worse:
                        summary.worse += 1
                        if size > worst || summary.largestWorse == nil { (worst, summary.largestWorse) = (size, (percent(change), comparison.label(pair.identity))) }
                    case .better:
                        summary.better += 1
                        if size > best || summary.largestBetter == nil { (best, summary.largestBetter) = (size, (percent(change), comparison.label(pair.identity))) }
                    default:
                        summary.same += 1
                    }
                }
            }
            return summary
        }
    }

    /// The changes beyond tolerance and noise of a pair, gated first (then in metric order).
    static func notable(_ pair: GateComparison.Pair) -> [GateComparison.MetricChange] {
        let moved = pair.changes.filter { $0.verdict >= .changed }
        return moved.filter(\.gated) + moved.filter { !$0.gated }
    }

    /// The pairs that got worse on a gated check, then those with any other change beyond
    /// tolerance and noise, each in the base's order.
    static func sections(_ comparison: GateComparison) -> (worse: [GateComparison.Pair], rest: [GateComparison.Pair]) {
        let worse = comparison.pairs.filter { $0.gatedVerdict == .worse }
        let rest = comparison.pairs.filter { $0.gatedVerdict != .worse && (!notable($0).isEmpty || $0.memoryLimit == .better) }
        return (worse, rest)
    }

    /// The closing line: the gate's verdict and why.
    static func conclusion(_ comparison: GateComparison) -> String {
        let worse = comparison.pairs.filter { $0.gatedVerdict == .worse }.count
        let answersWorse = comparison.answers.filter { $0.verdict == .worse }.map(\.profile)
        var reasons: [String] = []
        if !answersWorse.isEmpty { reasons.append("the answer got worse (\(answersWorse.joined(separator: ", ")))") }
        if worse > 0 && !comparison.rules.answerOnly { reasons.append("\(configurations(worse)) worse on a gated check") }
        if reasons.isEmpty {
            let counted = comparison.rules.answerOnly ? "the answer" : "no gated check, nor the answer,"
            return "gate: pass — \(counted) got worse beyond tolerance and noise"
        }
        return "gate: FAIL — " + reasons.joined(separator: "; ")
    }

    static func configurations(_ count: Int) -> String { count == 1 ? "1 configuration" : "\(count) configurations" }

    /// The head: the files, what changed in every row, what every configuration shares, the seeds
    /// and the gate.
    static func head(_ comparison: GateComparison) -> [String] {
        var lines = ["base: \(comparison.basePath)", "new:  \(comparison.newPath)"]
        if !comparison.conditions.isEmpty {
            lines.append("changed in every row: " + comparison.conditions.map { "\($0.column) \(shown($0.base)) → \(shown($0.new))" }.joined(separator: ", "))
        }
        if !comparison.sharedIdentity.isEmpty {
            lines.append("every configuration: " + comparison.sharedIdentity.map { "\($0.column)=\($0.value)" }.joined(separator: " "))
        }
        lines.append("means over seeds \(comparison.seeds.joined(separator: ", ")); a change counts beyond its tolerance and the seeds' noise")
        if comparison.onCommonSeeds > 0 {
            let count = comparison.onCommonSeeds
            lines.append("\(count) configuration\(count == 1 ? "" : "s") ran fewer seeds on one side (screened out): compared on the seeds both ran")
        }
        lines.append("gated: " + comparison.rules.gate.map(\.name).joined(separator: ", ") + (comparison.rules.answerOnly ? " (only the answer fails)" : ""))
        return lines
    }

    /// An identity value as written in reports: `(none)` for the empty value of an older file.
    static func shown(_ value: String) -> String { value.isEmpty ? "(none)" : value }

    // MARK: The table

    static func table(_ comparison: GateComparison, style: TerminalStyle) -> String {
        var lines: [String] = []
        /// `text` folded to 100 columns, painted red when worse and green when better.
        func add(_ text: String, _ verdict: GateComparison.Verdict = .unchanged) {
            for line in fold(text) {
                lines.append(verdict == .worse ? style.paint(line, .red) : verdict == .better ? style.paint(line, .green) : line)
            }
        }
        head(comparison).forEach { add($0) }
        add("")
        add("The answer:")
        if comparison.answers.isEmpty { add("  no profile is in both files") }
        for answer in comparison.answers {
            add("  " + answerLine(answer), answer.verdict)
            for change in answer.changes { add("    " + changeLine(change), change.verdict) }
        }
        add("")
        add("\(configurations(comparison.pairs.count)) compared on the gated checks:")
        checkTable(summaries(comparison)).forEach { add("  " + $0) }
        let (worse, rest) = sections(comparison)
        add("")
        add("worse (\(worse.count)):")
        for pair in worse { pairLines(comparison, pair).forEach { add($0, .worse) } }
        func improved(_ pair: GateComparison.Pair) -> Bool { pair.memoryLimit == .better || pair.changes.contains { $0.gated && $0.verdict == .better } }
        let (better, ungated) = (ranked(rest.filter(improved), .better), rest.filter { !improved($0) })
        for (pairs, title, which) in [(better, "better on a gated check", "the \(listLimit) most improved"), (ungated, "changed only on ungated metrics", "the first \(listLimit)")] {
            add("\(title) (\(pairs.count))" + (pairs.count > listLimit ? ", \(which):" : ":"))
            for pair in pairs.prefix(listLimit) { pairLines(comparison, pair).forEach { add($0) } }
            if pairs.count > listLimit { add("  \(pairs.count - listLimit) more: --format csv lists every change") }
        }
        let oneSided = [(comparison.onlyInBase, "base"), (comparison.onlyInNew, "new")].filter { !$0.0.isEmpty }
        for (configurations, side) in oneSided {
            add("only in \(side) (\(configurations.count)): " + configurations.prefix(3).map { comparison.label($0.identity) + " (line \($0.line))" }.joined(separator: "; ")
                + (configurations.count > 3 ? "; …" : ""))
        }
        add("")
        add(conclusion(comparison), comparison.fails ? .worse : .better)
        return lines.joined(separator: "\n") + "\n"
    }

    /// `line` in lines of at most `width` characters, broken at spaces; the lines after the
    /// first indented 4 more than it. A word longer than the width stays whole. O(line).
    static func fold(_ line: String, width: Int = 100) -> [String] {
        guard line.count > width else { return [line] }
        let indent = String(repeating: " ", count: line.prefix { $0 == " " }.count)
        var lines: [String] = []
        var current = indent
        var empty = true
        for word in line.split(separator: " ") {
            if !empty, current.count + 1 + word.count > width {
                lines.append(current)
                (current, empty) = (indent + "    ", true)
            }
            current += (empty ? "" : " ") + word
            empty = false
        }
        return lines + [current]
    }

    /// How many configurations the table lists that got better, and that changed only on
    /// ungated metrics (`--format csv` lists every one).
    static let listLimit = 5

    /// `pairs` by their largest gated change of `verdict`, largest first (a change from 0, and
    /// the memory limit's, the largest), ties in the base's order.
    static func ranked(_ pairs: [GateComparison.Pair], _ verdict: GateComparison.Verdict) -> [GateComparison.Pair] {
        pairs.map { pair -> Double in
            let sizes = pair.changes.filter { $0.gated && $0.verdict == verdict }.map { abs($0.relative ?? .infinity) }
            return max(sizes.max() ?? 0, pair.memoryLimit == verdict ? .infinity : 0)
        }.enumerated().sorted { ($0.element, -$0.offset) > ($1.element, -$1.offset) }.map { pairs[$0.offset] }
    }

    /// One configuration: its label, each gated change beyond tolerance and noise, then its
    /// ungated ones in a line: `not gated: memory_hit_rate -54.2 % worse, …`.
    static func pairLines(_ comparison: GateComparison, _ pair: GateComparison.Pair) -> [String] {
        let position = pair.lines.base == pair.lines.new ? "line \(pair.lines.base)" : "lines \(pair.lines.base) → \(pair.lines.new)"
        var lines = ["  " + comparison.label(pair.identity) + " (\(position))"]
        if let limit = pair.memoryLimit, limit == .worse || limit == .better {
            lines.append("    memory_limit: " + (limit == .worse ? "over the profile's limit now" : "within the profile's limit now"))
        }
        let changes = notable(pair)
        lines += changes.filter(\.gated).map { "    " + changeLine($0) }
        let ungated = changes.filter { !$0.gated }.map { "\($0.metric.name) \(percent($0).isEmpty ? "" : percent($0) + " ")\(word($0.verdict))" }
        if !ungated.isEmpty { lines.append("    not gated: " + ungated.joined(separator: ", ")) }
        return lines
    }

    /// The gated checks' counts as aligned columns.
    static func checkTable(_ summaries: [CheckSummary]) -> [String] {
        let header = ["check", "better", "worse", "within noise", "largest better", "largest worse"]
        let rows = summaries.map { summary in
            [summary.check.name, String(summary.better), String(summary.worse), String(summary.same),
             summary.largestBetter?.change ?? "", summary.largestWorse?.change ?? ""]
        }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max()! }
        return ([header] + rows).map { cells in
            cells.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 ? cell + pad : pad + cell
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }
    }

    // MARK: Markdown

    static func markdown(_ comparison: GateComparison, csvCommand: String) -> String {
        var head = ["### bench compare: `\(comparison.basePath)` → `\(comparison.newPath)`", ""]
        head.append(self.head(comparison).dropFirst(2).map { "- " + $0 }.joined(separator: "\n"))
        head += ["", "**The answer**", "", "| profile | before | after | stalls | display wait p95 | verdict |", "|---|---|---|---|---|---|"]
        for answer in comparison.answers {
            let cells = answer.changes.map { "\(spread($0.base, $0.metric)) → \(spread($0.new, $0.metric)) \(percent($0))" }
            head.append("| \(answer.profile) | \(configuration(answer.before)) | \(configuration(answer.after)) | \(cells.first ?? "") | \(cells.dropFirst().first ?? "") | \(word(answer.verdict))\(answer.changed ? ", another configuration" : "") |")
        }
        head += ["", "**\(configurations(comparison.pairs.count)) compared on the gated checks**", "",
                 "| check | better | worse | within noise | largest better | largest worse |", "|---|--:|--:|--:|---|---|"]
        for summary in summaries(comparison) {
            head.append("| \(summary.check.name) | \(summary.better) | \(summary.worse) | \(summary.same) | "
                        + "\(summary.largestBetter.map { "\($0.change) `\($0.label)`" } ?? "") | \(summary.largestWorse.map { "\($0.change) `\($0.label)`" } ?? "") |")
        }
        let verdict = "**\(conclusion(comparison))**"
        let (worse, rest) = sections(comparison)
        let rowHeader = ["| configuration | metric | base | new | change | verdict |", "|---|---|---|---|---|---|"]
        func rows(_ pair: GateComparison.Pair) -> [String] {
            var lines = notable(pair).map { change in
                "| `\(comparison.label(pair.identity))` | \(change.metric.name)\(change.gated ? "" : " (not gated)") | \(spread(change.base, change.metric)) | "
                    + "\(spread(change.new, change.metric)) | \(percent(change)) | \(word(change.verdict)) |"
            }
            if let limit = pair.memoryLimit, limit == .worse || limit == .better {
                lines.insert("| `\(comparison.label(pair.identity))` | memory_limit | | | | \(word(limit)) |", at: 0)
            }
            return lines
        }
        let worseHead = worse.isEmpty ? [] : ["", "**Worse (\(worse.count))**", ""] + rowHeader
        let restHead = rest.isEmpty ? [] : ["", "<details><summary>Other changes (\(rest.count) configurations)</summary>", ""] + rowHeader
        let restTail = rest.isEmpty ? [] : ["", "</details>"]
        // What always goes in, and the note on what was left out; the configurations' rows fill
        // what is left, each with its line end.
        let fixed = (head + worseHead + restHead + restTail + ["", verdict]).joined(separator: "\n") + "\n"
        let note = "\n_\(configurations(worse.count + rest.count).capitalizedFirst) left out to stay under \(markdownLimit) characters: `\(csvCommand)` lists every one._\n"
        var budget = markdownLimit - fixed.count - note.count
        var left = 0
        func take(_ pairs: [GateComparison.Pair]) -> [String] {
            var lines: [String] = []
            for pair in pairs {
                let block = rows(pair)
                let size = block.reduce(0) { $0 + $1.count + 1 }
                guard size <= budget else {
                    left += 1
                    continue
                }
                budget -= size
                lines += block
            }
            return lines
        }
        let body = worseHead + take(worse) + restHead + take(rest) + restTail
        var text = (head + body + ["", verdict]).joined(separator: "\n") + "\n"
        if left > 0 { text += "\n_\(configurations(left).capitalizedFirst) left out to stay under \(markdownLimit) characters: `\(csvCommand)` lists every one._\n" }
        return text
    }

    // MARK: GitHub

    /// GitHub Actions' workflow commands: an `::error` for each configuration worse on a gated
    /// check (the `annotationLimit` largest, then one counting the rest) and for an answer that
    /// got worse, a `::notice` for each profile's answer otherwise.
    static func annotations(_ comparison: GateComparison) -> String {
        var lines: [String] = []
        for answer in comparison.answers {
            let kind = answer.verdict == .worse ? "error" : "notice"
            lines.append(command(kind, title: "bench compare: the answer for \(answer.profile)", message: answerLine(answer)))
        }
        let worse = ranked(sections(comparison).worse, .worse)
        for pair in worse.prefix(annotationLimit) {
            let changes = notable(pair).filter { $0.gated && $0.verdict == .worse }.map(changeLine)
                + (pair.memoryLimit == .worse ? ["memory_limit: over the profile's limit now"] : [])
            lines.append(command("error", title: "bench compare: worse", message: comparison.label(pair.identity) + ": " + changes.joined(separator: "; ")))
        }
        if worse.count > annotationLimit {
            lines.append(command("error", title: "bench compare: worse", message: "\(worse.count - annotationLimit) more configurations worse on a gated check"))
        }
        return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
    }

    /// `::KIND title=TITLE::MESSAGE`, escaped as GitHub's workflow commands require (`%`, line
    /// ends; in a property also `:` and `,`).
    static func command(_ kind: String, title: String, message: String) -> String {
        func escaped(_ text: String, property: Bool) -> String {
            var result = text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
                .replacingOccurrences(of: "\n", with: "%0A")
            if property { result = result.replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C") }
            return result
        }
        return "::\(kind) title=\(escaped(title, property: true))::\(escaped(message, property: false))"
    }

    // MARK: CSV

    /// The CSV's columns: the identity but the seed, then one metric's change.
    public static var csvColumns: [String] {
        RunResult.identityColumns.filter { $0 != "seed" } + ["metric", "gated", "base_mean", "base_min", "base_max", "new_mean", "new_min", "new_max",
                                                              "change_percent", "tolerance", "noise_margin", "verdict"]
    }

    static func csv(_ comparison: GateComparison) -> String {
        let seed = RunResult.identityIndex("seed")
        var lines = [csvColumns.joined(separator: ",")]
        for pair in comparison.pairs {
            let identity = pair.identity.enumerated().filter { $0.offset != seed }.map { CSVText.field($0.element) }
            for change in pair.changes {
                func cells(_ spread: GateComparison.Spread?) -> [String] {
                    guard let spread else { return ["", "", ""] }
                    return [FixedPoint.decimal(spread.mean / scale(change.metric), decimals: change.metric.kind.decimals + 1),
                            change.metric.format(spread.min), change.metric.format(spread.max)]
                }
                let percent = change.relative.map { ($0 < 0 ? "-" : "") + FixedPoint.decimal(abs($0) * 100, decimals: 1) } ?? ""
                lines.append((identity + [change.metric.name, change.gated ? "yes" : "no"] + cells(change.base) + cells(change.new)
                              + [percent, change.tolerance?.setting(for: change.metric) ?? "",
                                 FixedPoint.decimal(change.margin / scale(change.metric), decimals: change.metric.kind.decimals + 1),
                                 word(change.verdict)]).joined(separator: ","))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// 10^decimals of the metric's cells.
    static func scale(_ metric: ResultMetric) -> Double {
        var scale = 1.0
        for _ in 0..<metric.kind.decimals { scale *= 10 }
        return scale
    }
}

extension String {
    /// With its first letter in capitals.
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
