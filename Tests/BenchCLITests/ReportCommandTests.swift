import Foundation
import TestSupport
import Testing

/// `bench report` and `bench run --timeline` end to end: the page is written, self-contained
/// and deterministic; a sweep's aggregate rows are not counted as runs; timelines match their
/// runs; refusals are one line, exit 2, no page; and, where Chromium is installed, the page
/// renders at desktop and phone widths to screenshots that are not blank.
@Suite(.scratchFolder) struct ReportCommandTests {
    static let lowEnd = BenchProcess.results.appendingPathComponent("low-end.csv").path
    static let quick = ["--image-width", "full", "--profile", "low-end", "--network", "lte", "--policy", "lru,fifo", "--memory-limit", "100MB", "--window", "0,20", "--trace", "browser",
                        "--seed", "1", "--duration", "12s"]

    /// A results file and its timeline, from a quick run in `folder`.
    static func runWithTimeline(in folder: URL, jobs: String = "2") throws -> (results: String, timeline: String) {
        let results = folder.appendingPathComponent("r-\(jobs).csv").path, timeline = folder.appendingPathComponent("t-\(jobs).csv").path
        let run = try BenchProcess.run(["run", "--jobs", jobs, "--out", results, "--timeline", timeline] + quick)
        #expect(run.status == 0, "\(run.stderr)")
        return (results, timeline)
    }

    @Test func writesOneSelfContainedDeterministicPage() throws {
        let folder = try BenchProcess.scratch()
        let pages = [folder.appendingPathComponent("a.html"), folder.appendingPathComponent("b.html")]
        for page in pages {
            let result = try BenchProcess.run(["report", Self.lowEnd, "--out", page.path])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr == "wrote \(page.path): 3420 runs\n")
        }
        let html = try String(contentsOf: pages[0], encoding: .utf8)
        #expect(try Data(contentsOf: pages[0]) == Data(contentsOf: pages[1]))
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("hatched grey. Drawn for the recommendation's width: images 750 px (the cell)."), "the maps say which width they draw")
        // Nothing to fetch: no links, sources or addresses but the SVG namespace.
        #expect(html.replacingOccurrences(of: "http://www.w3.org/2000/svg", with: "").range(of: "https?://", options: .regularExpression) == nil)
        #expect(!html.contains("<link") && !html.contains(" src="))
        // 4 stall heatmaps with their key (no hitches anywhere: one line, no maps), stalls and
        // peak memory by cache, the Pareto front, the stalls on each network, 3 per trace on
        // each of the 5 networks at each of the 2 image widths.
        #expect(html.components(separatedBy: "<svg class=\"chart").count - 1 == (4 + 1) + 2 + 1 + 1 + 3 * 2 * 5 * 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["a.html", "b.html"])
    }

    @Test func timelinesAreTheSameWhateverTheJobsAndAreDrawn() throws {
        let folder = try BenchProcess.scratch()
        let one = try Self.runWithTimeline(in: folder, jobs: "1"), two = try Self.runWithTimeline(in: folder, jobs: "2")
        #expect(try Data(contentsOf: URL(fileURLWithPath: one.timeline)) == Data(contentsOf: URL(fileURLWithPath: two.timeline)))
        let lines = try String(contentsOfFile: one.timeline, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 1 + 4 * 12, "4 runs × 12 seconds")
        let page = folder.appendingPathComponent("r.html").path
        let report = try BenchProcess.run(["report", one.results, "--timeline", one.timeline, "--out", page])
        #expect(report.status == 0, "\(report.stderr)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.components(separatedBy: "data-chart=\"timeline\"").count - 1 == 4)
        #expect(html.contains("data-area=\"memory cache\"") && html.contains("data-area=\"on-screen bitmaps\"") && html.contains("data-area=\"in-flight downloads\""))
    }

    @Test func aSweepsMeanMinAndMaxRowsAreNotCountedAsRuns() throws {
        let folder = try BenchProcess.scratch()
        let sweep = folder.appendingPathComponent("sweep.csv").path, page = folder.appendingPathComponent("sweep.html").path
        let run = try BenchProcess.run(["sweep", "--profile", "low-end", "--policy", "lru,fifo", "--window", "0,20", "--behavior", "browser",
                                        "--memory-limit", "100MB", "--seed", "1,2,3", "--duration", "5s", "--out", sweep])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try BenchProcess.run(["report", sweep, "--out", page])
        #expect(report.status == 0, "\(report.stderr)")
        #expect(report.stderr == "wrote \(page): 12 runs\n", "4 configurations × 3 seeds; their 12 mean, min and max rows are not runs")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("(12 runs; its 12 mean, min and max rows are left out"))
        #expect(!html.contains(">mean<") && !html.contains("seed mean"))
    }

    /// Writes `text` to `name` in `folder` and returns its path.
    static func file(_ text: String, _ name: String, in folder: URL) throws -> String {
        let url = folder.appendingPathComponent(name)
        try text.write(to: url, atomically: false, encoding: .utf8)
        return url.path
    }

    @Test func refusesBadInputInOneLineAndWritesNoPage() throws {
        let folder = try BenchProcess.scratch()
        let (results, timeline) = try Self.runWithTimeline(in: folder)
        let timelineText = try String(contentsOfFile: timeline, encoding: .utf8)
        var lines = timelineText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header = lines[0]
        let lowEndResults = try String(contentsOfFile: Self.lowEnd, encoding: .utf8)

        let wrongSchema = try Self.file(lowEndResults.replacingOccurrences(of: "hit_rate,memory_hit_rate", with: "hits,memory_hit_rate"), "schema.csv", in: folder)
        lines[3] = lines[3].replacingOccurrences(of: "low-end,lte,2,lru,", with: "low-end,lte,2,arc,")
        let orphan = try Self.file(lines.joined(separator: "\n"), "orphan.csv", in: folder)
        var malformedLines = timelineText.split(separator: "\n").map(String.init)
        malformedLines[2] = malformedLines[2].split(separator: ",", omittingEmptySubsequences: false).enumerated()
            .map { $0.offset == 13 ? "lots" : String($0.element) }.joined(separator: ",")
        let malformed = try Self.file(malformedLines.joined(separator: "\n"), "malformed.csv", in: folder)
        let badHeader = try Self.file(header.replacingOccurrences(of: "bitmap_bytes", with: "bitmaps") + "\n", "header.csv", in: folder)

        let cases: [([String], String)] = [
            ([wrongSchema], "bench: \(wrongSchema):1: expected the results columns as bench run writes them; column 17 should be \"hit_rate\", found \"hits\""),
            ([results, "--timeline", orphan], "bench: \(orphan):4: expected the identity of a run in \(results), found \"low-end,lte,2,arc,"),
            ([results, "--timeline", malformed], "bench: \(malformed):3: memory_cache_bytes: expected a non-negative integer, found \"lots\""),
            ([results, "--timeline", badHeader], "bench: \(badHeader):1: expected the timeline columns as bench run --timeline writes them; column 15 should be \"bitmap_bytes\", found \"bitmaps\""),
            ([results, "--timeline", folder.appendingPathComponent("missing.csv").path], "bench: \(folder.path)/missing.csv"),
            ([Self.lowEnd, Self.lowEnd], "bench: \(Self.lowEnd):2: expected each run once across the results files"),
            ([timeline], "bench: \(timeline):1: expected the results columns as bench run writes them"),
        ]
        for (arguments, message) in cases {
            let page = folder.appendingPathComponent("page.html")
            let result = try BenchProcess.run(["report"] + arguments + ["--out", page.path])
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1)
            #expect(!FileManager.default.fileExists(atPath: page.path), "no page")
        }
    }

    /// Chromium's executable, if installed (Debian's `chromium`; .ci/run installs it).
    static let chromium: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test(.enabled(if: chromium != nil, "chromium is not installed (apt-get install chromium): the screenshot test is skipped"),
          arguments: [1280, 390])
    func thePageRendersToAScreenshotThatIsNotBlank(width: Int) throws {
        let folder = try BenchProcess.scratch()
        let (results, timeline) = try Self.runWithTimeline(in: folder)
        let page = folder.appendingPathComponent("report.html"), screenshot = folder.appendingPathComponent("report.png")
        let mid = BenchProcess.results.appendingPathComponent("mid.csv").path
        let report = try BenchProcess.run(["report", results, mid, "--timeline", timeline, "--out", page.path])
        #expect(report.status == 0, "\(report.stderr)")
        let browser = Process()
        browser.executableURL = URL(fileURLWithPath: Self.chromium!)
        browser.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                             "--user-data-dir=\(folder.appendingPathComponent("profile").path)",
                             "--screenshot=\(screenshot.path)", "--window-size=\(width),2400", page.absoluteString]
        browser.standardOutput = FileHandle.nullDevice
        browser.standardError = FileHandle.nullDevice
        try browser.run()
        // Chromium can hang on a broken machine; give it two minutes.
        let deadline = Date().addingTimeInterval(120)
        while browser.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        if browser.isRunning { browser.terminate() }
        browser.waitUntilExit()
        let image = try PNGPixels(contentsOf: screenshot)
        #expect(image.width == width && image.height == 2400)
        // A blank page is one colour; charts with antialiased lines, text and fills have hundreds.
        #expect(image.distinctColours > 200, "\(image.distinctColours) colours")
        #expect(image.inkedShare > 0.04, "\(image.inkedShare) of the pixels are not white")
    }
}
