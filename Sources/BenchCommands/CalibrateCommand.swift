import ArgumentParser
import FeedBench
import Foundation

struct CalibrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Fit the network, API and image models to captures of your own traffic (HAR, bench serve logs).",
        discussion: """
        Reads HAR 1.2 captures (Safari or Chrome Web Inspector, Charles, Proxyman, mitmproxy, \
        Playwright, …; streamed, so captures of hundreds of MB are fine) and bench serve request \
        logs, tells the feed API's calls from the image downloads (JSON responses and image/* by \
        default, or URLs matching --api and --images, where * matches anything), and writes a \
        workload: the API's latency (log-normal by mean and p99) and failure share, the images' \
        byte sizes (a quantile table) and dimensions, the network's round trip, bandwidth and \
        connections. Prints what it fitted, with how far each fit is from its sample.

        bench run, sweep and tune take the file with --workload; the scenario column then names \
        the workload (;workload= and 8 hex digits of its hash), and bench compare refuses to \
        compare runs of different workloads.

        Examples:
          bench calibrate --har session.har --out workload.json
          bench calibrate --har a.har --har b.har --api '*/v2/feed*' --images '*cdn.example.com/*' --out w.json
          bench run --profile low-end --workload w.json

        Docs: docs/calibration.md.
        """
    )

    @Option(help: ArgumentHelp("A HAR 1.1 or 1.2 capture. Repeatable.", valueName: "file"))
    var har: [String] = []

    @Option(help: ArgumentHelp("A bench serve --log request log. Repeatable.", valueName: "file"))
    var log: [String] = []

    @Option(help: ArgumentHelp("URLs (paths for a log) of the feed API's calls (default: JSON responses).", valueName: "pattern"))
    var api: String?

    @Option(help: ArgumentHelp("URLs (paths for a log) of the images (default: image/* responses).", valueName: "pattern"))
    var images: String?

    @Option(help: ArgumentHelp("Where to write the workload JSON (atomically).", valueName: "file"))
    var out: String

    func run() throws {
        guard !har.isEmpty || !log.isEmpty else {
            throw InputError(source: "calibrate", "expected captures to read: --har FILE or --log FILE")
        }
        try OutputPath.check([.file(out, option: "--out")])
        var calibration = Calibration(classifier: RequestClassifier(api: api, images: images))
        for path in har { try calibration.addHAR(HARReader(path: path)) }
        for path in log { try calibration.addLog(path: path) }
        let workload = try calibration.workload(source: (har + log).joined(separator: ", "))
        try AtomicFile.write(workload.json, to: out)
        FileDescriptorOutput.write(CalibrationSummary(calibration: calibration, workload: workload).text
                                   + "wrote \(out) (\(workload.scenarioTag))\n", to: 1)
    }
}
