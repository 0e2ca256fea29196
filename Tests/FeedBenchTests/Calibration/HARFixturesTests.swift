import Foundation
import Testing
@testable import FeedBench

/// Real captures from nine exporters (Tests/Fixtures/HAR, ORIGINS.md there) parse, with the
/// counts their origins list and plausible values in every entry.
@Suite struct HARFixturesTests {
    /// File, entries, creator name and the images among the entries (content type image/…).
    static let captures: [(file: String, entries: Int, creator: String, images: Int)] = [
        ("chrome-devtools.har", 19, "WebInspector", 7),
        ("firefox.har", 14, "Firefox", 6),
        ("safari.har", 19, "WebKit Web Inspector", 5),
        ("charles.har", 1, "Charles Proxy", 0),
        ("mitmproxy.har", 5, "mitmproxy", 3),
        ("fiddler.har", 87, "Fiddler", 58),
        ("chrome-har-browsertime.har", 174, "chrome-har", 65),
        ("chrome-har-capturer.har", 292, "Chrome HAR Capturer", 141),
        ("playwright.har", 3, "Playwright", 0),
    ]

    static func path(_ file: String) -> String {
        SharedFiles.packageRoot.appendingPathComponent("Tests/Fixtures/HAR/" + file).path
    }

    @Test(arguments: captures)
    func parsesWithPlausibleValues(capture: (file: String, entries: Int, creator: String, images: Int)) throws {
        var entries: [HAREntry] = []
        let summary = try HARReader(path: Self.path(capture.file)).forEachEntry { entries.append($0) }
        #expect(summary.version == "1.2" && summary.creatorName == capture.creator)
        #expect(summary.entries == capture.entries && entries.count == capture.entries)
        #expect(entries.map(\.index) == Array(0..<capture.entries))
        // chrome-har writes the whole capture on one line.
        #expect(entries.map(\.line) == entries.map(\.line).sorted() && entries.allSatisfy { $0.line >= 1 })
        for entry in entries {
            #expect(entry.status == 0 || (100...599).contains(entry.status), "entry \(entry.index)")
            #expect(entry.time >= 0, "entry \(entry.index)")
            let phases = [entry.timings.blocked, entry.timings.dns, entry.timings.connect, entry.timings.ssl,
                          entry.timings.send, entry.timings.wait, entry.timings.receive]
            #expect(phases.allSatisfy { ($0 ?? 0) >= 0 }, "entry \(entry.index)")
            #expect(entry.url.hasPrefix("http"), "entry \(entry.index)")
        }
        // ORIGINS.md counts content.mimeType starting image/; contentType also reads the header.
        let images = entries.filter { $0.mimeType?.lowercased().hasPrefix("image/") == true }
        #expect(images.count == capture.images)
        #expect(images.allSatisfy { $0.contentType?.hasPrefix("image/") == true })
    }
}
