import Foundation
import TestSupport
import Testing

/// Every command's `--help` ends by naming the docs page that explains it, and the page is
/// there: a newcomer goes from the command line to the docs in one step (issue 29).
@Suite struct HelpDocsTests {
    static let commands = [["run"], ["sweep"], ["merge"], ["tune"], ["compare"], ["report"], ["check"], ["cachesim"],
                           ["trace", "generate"], ["trace", "zipf"], ["profiles"], ["presets"], ["serve"], ["agree"], ["calibrate"]]

    @Test(arguments: commands)
    func helpNamesAnExistingDocsPage(_ command: [String]) throws {
        let help = try BenchProcess.run(command + ["--help"])
        #expect(help.status == 0, "\(help.stderr)")
        let text = help.stdout.replacingOccurrences(of: "\n", with: " ")
        guard let range = text.range(of: "Docs: ") else {
            Issue.record("\(command.joined(separator: " ")) --help names no docs page")
            return
        }
        let pages = text[range.upperBound...].split(separator: " ").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ".,;:\"")) }
            .filter { $0.hasPrefix("docs/") && $0.hasSuffix(".md") }
        #expect(!pages.isEmpty, "\(text[range.upperBound...])")
        for page in pages {
            #expect(FileManager.default.fileExists(atPath: BenchProcess.packageRoot.appendingPathComponent(page).path), "\(page)")
        }
    }
}
