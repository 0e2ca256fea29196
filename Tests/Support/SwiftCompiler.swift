import Foundation

/// `swiftc`, for the tests that compile the Swift FeedBench writes for an app against the
/// stand-ins of the image libraries (`Tests/Fixtures/LibraryStandIns`): each stand-in is built
/// as a module of the library's name, then the app's files with a `main.swift` into a program
/// that is run. Tests that need it are skipped, with `missing`, when it cannot be found.
public enum SwiftCompiler {
    /// The compiler beside the `swift` running the tests, else the first on `PATH`.
    public static let path: String? = {
        let environment = ProcessInfo.processInfo.environment
        let folders = (environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/opt/swift/usr/bin", "/usr/bin"]
        return folders.map { $0 + "/swiftc" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()
    public static let missing = "swiftc is not on PATH: the tests that compile the generated Swift are skipped"

    /// The stand-ins' folder.
    public static let standIns = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/LibraryStandIns")

    /// What a compile or a run printed, and how it ended.
    public struct Outcome: Sendable {
        public var status: Int32
        public var output: String
    }

    /// Builds the stand-ins of `module` and of `also` (Network's, say) in `folder`, compiles
    /// `files` (name → text; one of them `main.swift`) against them into a program, and runs it.
    /// A failed compile is returned with the compiler's messages, the program not run.
    public static func run(module: String, also: [String] = [], files: [String: String], in folder: URL) throws -> Outcome {
        for name in [module] + also {
            let library = try execute(path!, ["-emit-library", "-emit-module", "-module-name", name,
                                              standIns.appendingPathComponent(name + ".swift").path,
                                              "-o", folder.appendingPathComponent("lib\(name).so").path], in: folder)
            guard library.status == 0 else { return library }
        }
        for (name, text) in files { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
        let program = folder.appendingPathComponent("program").path
        let compiled = try execute(path!, ["-I", folder.path, "-L", folder.path] + ([module] + also).map { "-l" + $0 }
                                           + ["-Xlinker", "-rpath", "-Xlinker", folder.path, "-o", program]
                                           + files.keys.sorted().map { folder.appendingPathComponent($0).path }, in: folder)
        guard compiled.status == 0 else { return compiled }
        return try execute(program, [], in: folder)
    }

    static func execute(_ executable: String, _ arguments: [String], in folder: URL) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = folder
        let output = folder.appendingPathComponent("output.txt")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        defer { try? handle.close() }
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, output: String(decoding: try Data(contentsOf: output), as: UTF8.self))
    }
}
