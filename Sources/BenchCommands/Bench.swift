import ArgumentParser
import FeedBench
import Foundation

/// The `bench` command: a thin shell over the FeedBench library.
package struct Bench: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Simulate image-feed caching on iOS device classes and report memory, hit rate and stalls.",
        discussion: """
        Every refused input is reported in one line naming the file, line and field, with exit \
        status 2. Outputs are written to a temporary file and renamed, never left half-written.

        Docs: README.md (the answer and how to read it) and its map of docs/.
        """,
        version: "bench \(FeedBench.version)",
        subcommands: [RunCommand.self, SweepCommand.self, MergeCommand.self, TuneCommand.self, CompareCommand.self,
                      ReportCommand.self, ApplyCommand.self, CheckCommand.self, CacheSimCommand.self, TraceCommand.self, ProfilesCommand.self,
                      PresetsCommand.self, ServeCommand.self, AgreeCommand.self, CalibrateCommand.self],
        defaultSubcommand: RunCommand.self
    )

    package init() {}
}

/// Standard error as a `TextOutputStream`.
struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        FileDescriptorOutput.write(string, to: 2)
    }
}

/// Writes command output to stdout or, atomically, to a file.
enum CommandOutput {
    static func emit(_ text: String, to path: String?) throws {
        if let path {
            try AtomicFile.write(text, to: path)
        } else {
            FileDescriptorOutput.write(text, to: 1)
        }
    }

    /// Creates the folder a file will be written to, if it is missing (errors surface when the
    /// file is written). Through `URL`: swift-corelibs-foundation's
    /// `NSString.deletingLastPathComponent` traps on a one-character path (`--out 0`).
    static func createFolder(of path: String) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }
}
