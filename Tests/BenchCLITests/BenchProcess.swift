import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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

    /// `environment` is added to this process's (a `nil` value removes a variable).
    static func run(_ arguments: [String], in directory: URL? = nil, environment: [String: String?] = [:]) throws -> BenchProcess {
        try run(executable, arguments, in: directory, environment: environment)
    }

    /// Runs `program` (another executable than bench: the fuzz driver) the same way.
    static func run(_ program: URL, _ arguments: [String], in directory: URL? = nil, environment: [String: String?] = [:]) throws -> BenchProcess {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if !environment.isEmpty {
            var merged = ProcessInfo.processInfo.environment
            for (name, value) in environment { merged[name] = value }
            process.environment = merged
        }
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

    /// Runs `bench` with stdout and stderr on a new pseudo-terminal, as in an interactive shell,
    /// and returns everything the terminal received (in `stdout`; `stderr` is empty). The
    /// terminal turns each `\n` into `\r\n`. `environment` replaces this process's.
    static func runInTerminal(_ arguments: [String], environment: [String: String]) throws -> BenchProcess {
        let (master, terminal) = try openTerminal()
        defer { close(master) }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        let handle = FileHandle(fileDescriptor: terminal, closeOnDealloc: false)
        process.standardOutput = handle
        process.standardError = handle
        // Read while the child writes, so a full terminal buffer never blocks it; the read ends
        // (EIO) once no one holds the terminal side open.
        let received = ReceivedBytes()
        let done = DispatchSemaphore(value: 0)
        Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(master, &buffer, buffer.count)
                if count <= 0 { break }
                received.append(buffer[0..<count])
            }
            done.signal()
        }.start()
        try process.run()
        close(terminal)
        process.waitUntilExit()
        done.wait()
        return BenchProcess(status: process.terminationStatus, stdout: String(decoding: received.bytes, as: UTF8.self), stderr: "")
    }

    /// A new pseudo-terminal's two sides: (the side a test reads, the side `bench` writes to).
    /// `posix_openpt` and friends, which Swift's Glibc module does not export, are looked up in
    /// the C library.
    static func openTerminal() throws -> (master: Int32, terminal: Int32) {
        typealias OpenMaster = @convention(c) (Int32) -> Int32
        typealias Prepare = @convention(c) (Int32) -> Int32
        typealias Name = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
        func function<F>(_ name: String, as _: F.Type) throws -> F {
            guard let symbol = dlsym(dlopen(nil, RTLD_NOW), name) else {
                throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "no \(name) in the C library"])
            }
            return unsafeBitCast(symbol, to: F.self)
        }
        let master = try function("posix_openpt", as: OpenMaster.self)(O_RDWR | O_NOCTTY)
        guard master >= 0, try function("grantpt", as: Prepare.self)(master) == 0,
              try function("unlockpt", as: Prepare.self)(master) == 0,
              let name = try function("ptsname", as: Name.self)(master) else {
            throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "no pseudo-terminal: errno \(errno)"])
        }
        let terminal = open(String(cString: name), O_RDWR | O_NOCTTY)
        guard terminal >= 0 else {
            close(master)
            throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "cannot open \(String(cString: name))"])
        }
        return (master, terminal)
    }

    /// Bytes gathered by one thread and read by another.
    final class ReceivedBytes: @unchecked Sendable {
        private let lock = NSLock()
        private var gathered: [UInt8] = []

        func append(_ bytes: ArraySlice<UInt8>) { lock.withLock { gathered += bytes } }

        var bytes: [UInt8] { lock.withLock { gathered } }
    }

    /// A fresh scratch folder, removed when the test ends (the suite needs the `.scratchFolder`
    /// trait).
    static func scratch() throws -> URL {
        try ScratchFolder.make()
    }

    /// The package root, found from this file's path.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The committed results folder, `results/`.
    static let results = packageRoot.appendingPathComponent("results")
    /// `Tests/Fixtures`: results files kept still for tests that read one.
    static let fixtures = packageRoot.appendingPathComponent("Tests/Fixtures")

    /// `../shared/traces/cloudphysics.csv` beside the package.
    static let cloudPhysics = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/traces/cloudphysics.csv").path
}
