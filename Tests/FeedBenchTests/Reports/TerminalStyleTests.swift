import Foundation
import Testing
@testable import FeedBench

/// Colour only on a terminal and only without NO_COLOR (no-color.org: any non-empty value
/// disables it); coloured tables keep their alignment.
@Suite struct TerminalStyleTests {
    @Test(arguments: [
        (true, [String: String](), true),
        (true, ["NO_COLOR": ""], true),
        (true, ["NO_COLOR": "1"], false),
        (true, ["NO_COLOR": "0"], false),
        (true, ["TERM": "xterm-256color", "NO_COLOR": "yes"], false),
        (false, [String: String](), false),
        (false, ["NO_COLOR": ""], false),
    ])
    func colourOnlyOnATerminalWithoutNoColor(isTerminal: Bool, environment: [String: String], colour: Bool) {
        #expect(TerminalStyle(isTerminal: isTerminal, environment: environment).usesColour == colour)
    }

    @Test func aPipeIsNotATerminal() throws {
        let pipe = Pipe()
        #expect(!TerminalStyle.forDescriptor(pipe.fileHandleForWriting.fileDescriptor, environment: [:]).usesColour)
    }

    static func stripped(_ text: String) -> String {
        text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }

    @Test func colouredSummaryIsThePlainOneWithEscapesAround() throws {
        let results = try RunBatch.run(StandardMatrix.plan(profile: .lowEnd, windows: [.items(PrefetchWindow(ahead: 0)), .items(PrefetchWindow(ahead: 20))],
                                                                   duration: 10_000_000_000).configurations, jobs: 2)
        let summary = MatrixSummary(profile: .lowEnd, results: results)
        let plain = summary.table(), coloured = summary.table(style: TerminalStyle(usesColour: true))
        #expect(!plain.contains("\u{1B}"))
        #expect(coloured.contains("\u{1B}[32m") && coloured != plain)
        #expect(Self.stripped(coloured) == plain)
        #expect(plain.split(separator: "\n").allSatisfy { $0.count <= 100 })
    }

    @Test func plainPaintsNothing() {
        #expect(TerminalStyle.plain.paint("worse", .red) == "worse")
        #expect(TerminalStyle(usesColour: true).paint("worse", .red) == "\u{1B}[31mworse\u{1B}[0m")
    }
}
