import Foundation
import Testing

/// A trait that gives each test — each case of a parameterized one — a scratch folder of its
/// own in the temporary directory, and removes it with everything in it when the test ends,
/// passed or failed. `ScratchFolder.make()` creates folders inside it; outside a test with the
/// trait it throws, so no test can leave files behind.
///
///     @Suite(.scratchFolder) struct MyTests {
///         @Test func writes() throws {
///             let folder = try ScratchFolder.make()  // removed after the test
///         }
///     }
public struct ScratchFolder: SuiteTrait, TestTrait, TestScoping {
    /// The running test's folder, set while it runs.
    @TaskLocal static var current: URL?

    public init() {}

    /// Applied to a suite, every test in it (and in its nested suites) gets its own folder.
    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        let root = try Self.newFolder(in: FileManager.default.temporaryDirectory, prefix: "feedbench-")
        defer { try? FileManager.default.removeItem(at: root) }
        try await Self.$current.withValue(root) { try await function() }
    }

    /// A fresh, empty folder inside the running test's scratch folder.
    public static func make() throws -> URL {
        guard let root = current else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [
                NSLocalizedDescriptionKey: "no scratch folder: give the test or its suite the .scratchFolder trait",
            ])
        }
        return try newFolder(in: root, prefix: "")
    }

    /// A folder that did not exist, `prefix` and 8 random hex digits (short, so that paths in
    /// messages stay readable).
    static func newFolder(in parent: URL, prefix: String) throws -> URL {
        while true {
            let url = parent.appendingPathComponent(prefix + String(UUID().uuidString.prefix(8)).lowercased())
            do {
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
                return url
            } catch CocoaError.fileWriteFileExists {
                continue
            }
        }
    }
}

extension Trait where Self == ScratchFolder {
    /// Each test gets a scratch folder, removed when it ends (`ScratchFolder`).
    public static var scratchFolder: Self { ScratchFolder() }
}
