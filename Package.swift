// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "FeedBench",
    products: [
        .library(name: "FeedBench", targets: ["FeedBench"]),
        .executable(name: "bench", targets: ["bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .target(
            name: "FeedBench",
            dependencies: [
                // Only the two modules used (not the Collections umbrella, whose other modules
                // added minutes to every clean build).
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "HeapModule", package: "swift-collections"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "Yams", package: "Yams"),
                "SQLiteProcessSettings",
            ]
        ),
        .target(name: "SQLiteProcessSettings", linkerSettings: [.linkedLibrary("sqlite3")]),
        // bench serve's HTTP server, in a module of its own: the server libraries (Hummingbird,
        // SwiftNIO) build only for the targets that need them.
        .target(
            name: "FeedServe",
            dependencies: [
                "FeedBench",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "bench",
            dependencies: [
                "FeedBench",
                "FeedServe",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The tests' scratch folders, removed when each test ends.
        .target(name: "TestScratch", path: "Tests/Scratch"),
        .testTarget(name: "FeedBenchTests", dependencies: ["FeedBench", "TestScratch", .product(name: "Histogram", package: "hdrhistogram-swift")]),
        .testTarget(name: "BenchCLITests", dependencies: ["bench", "TestScratch"]),
        .testTarget(name: "FeedServeTests", dependencies: ["FeedServe", "TestScratch"]),
    ]
)
