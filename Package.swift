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
    ],
    targets: [
        .target(name: "FeedBench"),
        .executableTarget(
            name: "bench",
            dependencies: [
                "FeedBench",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "FeedBenchTests", dependencies: ["FeedBench"]),
        .testTarget(name: "BenchCLITests", dependencies: ["bench"]),
    ]
)
