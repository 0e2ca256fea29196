// swift-tools-version:6.1
import PackageDescription

// libFuzzer harnesses for FeedBench's parsers, a package of its own so that the main package's
// build and `swift test` never see the fuzzer flags. Build and run with `Fuzz/run` (docs/robustness.md,
// "Fuzzing").
let package = Package(
    name: "FeedBenchFuzz",
    dependencies: [
        .package(name: "FeedBench", path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "FeedBenchFuzz",
            dependencies: [.product(name: "FeedBench", package: "FeedBench")]
        ),
    ]
)
