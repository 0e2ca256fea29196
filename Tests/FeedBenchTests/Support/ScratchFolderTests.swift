import Foundation
import TestSupport
import Testing

/// The tests leave nothing in the temporary directory: a test's scratch folder goes when the
/// test ends, passed or failed, and no scratch file can be made outside one.
@Suite struct ScratchFolderTests {
    /// Where a scope made its folder, carried out of the scope's closure.
    final class Made: @unchecked Sendable {
        var folder: URL?
    }

    struct Failure: Error {}

    @Test func aTestsScratchFolderIsRemovedWhenItEndsPassedOrFailed() async throws {
        let test = try #require(Test.current)
        for fails in [false, true] {
            let made = Made()
            do {
                try await ScratchFolder().provideScope(for: test, testCase: Test.Case.current) {
                    let folder = try ScratchFolder.make()
                    try "data".write(to: folder.appendingPathComponent("out.csv"), atomically: true, encoding: .utf8)
                    made.folder = folder
                    if fails { throw Failure() }
                }
                #expect(!fails)
            } catch is Failure {
                #expect(fails)
            }
            let folder = try #require(made.folder)
            #expect(!FileManager.default.fileExists(atPath: folder.path))
            #expect(!FileManager.default.fileExists(atPath: folder.deletingLastPathComponent().path), "the test's whole folder")
        }
    }

    @Test func noScratchFolderOutsideATestWithTheTrait() {
        #expect(throws: CocoaError.self) { try ScratchFolder.make() }
    }
}
