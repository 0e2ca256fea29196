import Foundation
import Testing

/// Colour reaches a terminal only, and never with NO_COLOR set: `bench run`'s summary through
/// a pipe (what tests and CI see) and through a pseudo-terminal (util-linux's `script`).
@Suite struct TerminalColourTests {
    static let quick = ["run", "--profile", "low-end", "--policy", "lru,fifo", "--window", "0,20", "--trace", "browser", "--duration", "8s"]

    @Test func aPipeGetsNoColour() throws {
        let folder = try BenchProcess.scratch()
        let result = try BenchProcess.run(Self.quick + ["--out", folder.appendingPathComponent("r.csv").path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Recommended: ") && !result.stdout.contains("\u{1B}"))
        let compare = try BenchProcess.run(["compare", folder.appendingPathComponent("r.csv").path, folder.appendingPathComponent("r.csv").path])
        #expect(compare.status == 0 && !compare.stdout.contains("\u{1B}"))
    }

    static let script = FileManager.default.isExecutableFile(atPath: "/usr/bin/script") ? "/usr/bin/script" : nil

    /// `bench` with stdout on a pseudo-terminal, and `environment` added.
    static func onATerminal(_ arguments: [String], environment: [String: String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: script!)
        let command = ([BenchProcess.executable.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        process.arguments = ["-qec", command, "/dev/null"]
        var variables = ProcessInfo.processInfo.environment
        variables["NO_COLOR"] = nil
        variables.merge(environment) { $1 }
        process.environment = variables
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test(.enabled(if: script != nil, "util-linux's script is not installed: no pseudo-terminal to test with"))
    func aTerminalGetsColourUnlessNoColorIsSet() throws {
        let folder = try BenchProcess.scratch()
        let arguments = Self.quick + ["--out", folder.appendingPathComponent("r.csv").path]
        let coloured = try Self.onATerminal(arguments, environment: [:])
        #expect(coloured.contains("Recommended: ") && coloured.contains("\u{1B}[32m"))
        let plain = try Self.onATerminal(arguments, environment: ["NO_COLOR": "1"])
        #expect(plain.contains("Recommended: ") && !plain.contains("\u{1B}"))
    }
}
