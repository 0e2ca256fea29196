import ArgumentParser
import FeedBench

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Draw results CSVs (and a timeline) as one self-contained HTML page of charts.",
        discussion: """
        For each profile: the recommendation in words (the ranking bench run prints); a heatmap \
        per policy of mean stalls over prefetch window × memory cache, the recommendation and \
        the configurations tied with it within the seeds' noise marked, those over the memory \
        limit hatched; stalls and peak memory against the memory cache at the recommended \
        window; the memory/stall Pareto front; for each trace, hit rate, display-latency p95 \
        and peak memory against the window at the recommended memory cache, one line per \
        policy. Seeds are aggregated (mean, min–max bars); a sweep's mean/min/max rows are \
        left out. Then a sortable table of every run. With --timeline, memory over time of each \
        run in it, with memory warnings and jetsam kills marked. The page has no outside \
        resources: it opens offline, and the same inputs write the same bytes.

        Examples:
          bench report results/low-end.csv --out report.html
          bench report results/low-end.csv results/mid.csv --out devices.html
          bench run --profile low-end --window 20 --timeline t.csv --out r.csv
          bench report r.csv --timeline t.csv --out r.html

        Docs: docs/report.md.
        """
    )

    @Argument(help: ArgumentHelp("Results CSVs written by bench run; each run may appear in only one.", valueName: "results.csv"))
    var files: [String] = []

    @Option(help: ArgumentHelp("A timeline CSV (bench run --timeline) of runs in the results files.", valueName: "file"))
    var timeline: String?

    @Option(help: ArgumentHelp("Where to write the HTML page.", valueName: "file"))
    var out: String

    func run() throws {
        guard !files.isEmpty else { throw InputError(source: "report", "expected at least one results CSV") }
        try OutputPath.check([.file(out, option: "--out")])
        let results = try files.map { try ResultsFile.read(path: $0) }
        let timeline = try self.timeline.map { try TimelineFile.read(path: $0, matching: results) }
        let page = try HTMLReport.render(results: results, timeline: timeline)
        try AtomicFile.write(page, to: out)
        FileDescriptorOutput.write("wrote \(out): \(results.reduce(0) { $0 + $1.rows.filter { !$0.isAggregate }.count }) runs\(timeline.map { ", \($0.runs.count) timelines" } ?? "")\n", to: 2)
    }
}
