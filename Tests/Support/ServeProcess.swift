import Foundation

/// `bench serve` in a process of its own, started by a test and spoken to on 127.0.0.1: through
/// `bench` as a user runs it, or the `bench-http` beside the tests, for what is counted per
/// process (its open descriptors and resident memory, which clients in the test process and the
/// tests running beside it would blur).
public struct ServeProcess {
    public let process: Process
    /// The URL it printed.
    public let url: String
    /// What it printed up to that URL (a TLS certificate's fingerprint before it).
    public let output: String

    /// The built `bench-http`, if it is beside the test bundle.
    public static let executable: String? = {
        let products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        return [products, products.deletingLastPathComponent()].map { $0.appendingPathComponent("bench-http").path }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }()
    public static let missing = "bench-http is not built beside the tests (swift build --build-tests): the per-process counts are skipped"
    /// Whether a process's descriptors and memory can be read (Linux's /proc).
    public static let countable = FileManager.default.fileExists(atPath: "/proc/self/fd")

    /// Starts `serve --port 0` with `arguments` (`program`: `bench-http` unless given) and
    /// returns once it has printed the URL it listens on.
    public static func start(_ arguments: [String], program: String? = nil) throws -> ServeProcess {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program ?? executable!)
        process.arguments = ["serve", "--port", "0"] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        var text = ""
        while !text.contains("listening on ") || !text.hasSuffix("\n") {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        let url = text.components(separatedBy: "listening on ").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        return ServeProcess(process: process, url: url, output: text)
    }

    public var port: Int { Int(url.split(separator: ":").last ?? "") ?? 0 }

    /// The descriptors the server has open.
    public func descriptors() throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.processIdentifier)/fd").count
    }

    /// The server's resident memory in bytes (`/proc/PID/statm`'s second field, in pages).
    public func residentBytes() throws -> Int {
        let fields = try String(contentsOfFile: "/proc/\(process.processIdentifier)/statm", encoding: .utf8).split(separator: " ")
        return Int(fields[1])! * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Stops it with SIGTERM and returns its exit status; `nil` if it was still running 15 s
    /// later (it is killed then: a server waiting for connections that never close) or a
    /// signal ended it.
    public func stop() -> Int32? {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        let deadline = ContinuousClock.now + .seconds(15)
        while process.isRunning && ContinuousClock.now < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return process.terminationReason == .exit ? process.terminationStatus : nil
    }
}
