// swift-tools-version:6.1
import PackageDescription

// The benchmark suites, a package of their own so that the main package's build and
// `swift test` never compile package-benchmark. Run from this folder:
//   swift package benchmark
let package = Package(
    name: "FeedBenchBenchmarks",
    dependencies: [
        // Without the HTTP trait: the benchmarks need no server or client, and CI builds its
        // release `bench` here (`swift build -c release --product bench`) so that `bench check`
        // and the benchmarks share one release build of FeedBench.
        .package(name: "FeedBench", path: "..", traits: []),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        // Only to measure FeedBench's byte-level key-trace parser against a CSV library.
        .package(url: "https://github.com/yaslab/CSV.swift", from: "2.5.2"),
    ],
    targets: [
        .executableTarget(
            name: "FeedBenchBenchmarks",
            dependencies: [
                .product(name: "FeedBench", package: "FeedBench"),
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "CSV", package: "CSV.swift"),
            ],
            path: "Benchmarks/FeedBenchBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
