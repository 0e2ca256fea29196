import FeedBench
import Foundation
import TestSupport
import Testing

/// Paths of files the tests read or write.
enum SharedFiles {
    /// The package root, found from this file's path.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared/traces/cloudphysics.csv` beside the package (the outside reference).
    static let cloudPhysics = packageRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/traces/cloudphysics.csv").path

    /// A fresh, empty scratch directory, removed when the test ends (the suite needs the
    /// `.scratchFolder` trait).
    static func scratchDirectory() throws -> URL {
        try ScratchFolder.make()
    }

    /// Writes `text` to a new file in a scratch directory and returns its path.
    static func write(_ text: String, name: String = "input.csv") throws -> String {
        let url = try scratchDirectory().appendingPathComponent(name)
        try text.write(to: url, atomically: false, encoding: .utf8)
        return url.path
    }
}

extension SharedFiles {
    /// Replays the CloudPhysics trace through `policy` at the reference table's three object
    /// capacities and three byte capacities (`shared/traces/README.md`).
    static func cloudPhysicsResults(_ policy: String) throws -> (objects: [CacheSimResult], bytes: [CacheSimResult]) {
        let spec = try PolicySpec.parse(policy, source: "test")
        let objects = try CacheSimulation(policies: [spec], capacities: [489, 4897, 12243], unit: .objects)
            .run(tracePath: cloudPhysics)
        let bytes = try CacheSimulation(policies: [spec], capacities: [20297697, 202976972, 507442432], unit: .bytes)
            .run(tracePath: cloudPhysics)
        return (objects, bytes)
    }
}

extension Trait where Self == ConditionTrait {
    /// Skips a test that reads the CloudPhysics trace when it is not beside the package.
    static var needsCloudPhysics: Self {
        .enabled(if: FileManager.default.isReadableFile(atPath: SharedFiles.cloudPhysics),
                 "\(SharedFiles.cloudPhysics) is missing (it comes with ../shared, beside the package): the libCacheSim reference is not checked")
    }
}
