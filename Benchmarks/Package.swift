// swift-tools-version:6.1
import PackageDescription

// The benchmark suites, a package of their own so that the main package's build and
// `swift test` never compile package-benchmark. Run from this folder:
//   swift package benchmark
let package = Package(
    name: "FeedBenchBenchmarks",
    dependencies: [
        .package(name: "FeedBench", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "PolicyBenchmarks",
            dependencies: [
                .product(name: "FeedBench", package: "FeedBench"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/PolicyBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
