import Foundation

/// Runs the built `bench` binary as a user would, capturing exit status, stdout and stderr.
struct BenchProcess {
    var status: Int32
    var stdout: String
    var stderr: String

    /// The `bench` executable beside the test bundle in the build products folder.
    static let executable: URL = {
        let productsFolder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [
            productsFolder.appendingPathComponent("bench"),
            productsFolder.deletingLastPathComponent().appendingPathComponent("bench"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }()

    static func run(_ arguments: [String], in directory: URL? = nil) throws -> BenchProcess {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return BenchProcess(status: process.terminationStatus,
                            stdout: String(decoding: outData, as: UTF8.self),
                            stderr: String(decoding: errData, as: UTF8.self))
    }

    /// A fresh scratch folder.
    static func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bench-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The package root, found from this file's path.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The committed results folder, `results/`.
    static let results = packageRoot.appendingPathComponent("results")

    /// `../shared/traces/cloudphysics.csv` beside the package.
    static let cloudPhysics = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/traces/cloudphysics.csv").path
}
