// swift-tools-version:6.1
import PackageDescription

// The simulator's module is optimized in debug builds too, as one whole module: `swift run bench`,
// the README's first command, is a debug build. Unoptimized, the low-end main job took 38.5 s;
// optimized file by file, 25.4 s, most of it in generic code left unspecialized across files
// (the app over its event queue and transports) and in the runtime's metadata lookups it makes;
// as one module, 3.3 s, as release (docs/setup.md). "-num-threads" keeps one object file per
// source file, which SwiftPM's index store expects. The price: every change recompiles the whole
// module (about 2 min on 2 cores); FEEDBENCH_INCREMENTAL=1 in the environment builds it file by
// file instead (CI's sanitizer and fuzzing builds, whose runs are short). SwiftPM refuses unsafe
// flags in a package fetched as another's dependency (checked out), so such a copy builds without.
let wholeModule = Context.environment["FEEDBENCH_INCREMENTAL"] == "1" ? [] : ["-wmo", "-num-threads", "2"]
let optimizedInDebug: [SwiftSetting] = Context.packageDirectory.contains("/checkouts/")
    ? [] : [.unsafeFlags(["-O"] + wholeModule, .when(configuration: .debug))]

let package = Package(
    name: "FeedBench",
    products: [
        .library(name: "FeedBench", targets: ["FeedBench"]),
        .executable(name: "bench", targets: ["bench"]),
        // bench's HTTP part: bench serve, bench agree and bench run --live, which bench hands
        // over to it. Built on its own so that `swift run bench` never builds SwiftNIO,
        // Hummingbird and AsyncHTTPClient (docs/setup.md).
        .executable(name: "bench-http", targets: ["bench-http"]),
    ],
    traits: [
        // On by default. Off (`--disable-default-traits`), FeedServe and FeedLive are empty and
        // bench-http builds without SwiftNIO, Hummingbird and AsyncHTTPClient (its HTTP commands
        // then refuse in one line); bench itself never needs them.
        .default(enabledTraits: ["HTTP"]),
        .trait(name: "HTTP", description: "bench serve, bench agree and bench run --live: the HTTP server and client"),
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
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-nio-http2", from: "1.46.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
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
            ],
            // The recorded links the recorded network presets run on (GPL-3.0 data, with their
            // licence and citation), copied beside the executable.
            resources: [.copy("RecordedLinks")],
            swiftSettings: optimizedInDebug
        ),
        .target(name: "SQLiteProcessSettings", linkerSettings: [.linkedLibrary("sqlite3")]),
        // bench serve's HTTP server, in a module of its own: the server libraries (Hummingbird,
        // SwiftNIO) build only for the targets that need them, and only with the HTTP trait
        // (without it the module is empty).
        .target(
            name: "FeedServe",
            dependencies: [
                "FeedBench",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["HTTP"])),
                // HTTP/2 and HTTP/1.1 over TLS on one port (ALPN: NIOTLS), with a certificate made
                // at start (X509, Crypto). The HTTP/2 connection is set up here, not by
                // HummingbirdHTTP2, to advertise the conditions' stream limit (NIOHTTP2) and
                // decode each stream as HTTP (NIOHTTPTypesHTTP2).
                .product(name: "HummingbirdCore", package: "hummingbird", condition: .when(traits: ["HTTP"])),
                .product(name: "NIOHTTP2", package: "swift-nio-http2", condition: .when(traits: ["HTTP"])),
                .product(name: "NIOHTTPTypesHTTP2", package: "swift-nio-extras", condition: .when(traits: ["HTTP"])),
                .product(name: "NIOTLS", package: "swift-nio", condition: .when(traits: ["HTTP"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["HTTP"])),
                .product(name: "X509", package: "swift-certificates", condition: .when(traits: ["HTTP"])),
                .product(name: "Crypto", package: "swift-crypto", condition: .when(traits: ["HTTP"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["HTTP"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["HTTP"])),
            ]
        ),
        // bench run --live and bench agree: the live transports over AsyncHTTPClient, kept out of
        // the core module; with the HTTP trait only.
        .target(
            name: "FeedLive",
            dependencies: [
                "FeedBench",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["HTTP"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["HTTP"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["HTTP"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["HTTP"])),
            ]
        ),
        // The commands, shared by bench and bench-http; the HTTP part reaches them through
        // HTTPPart, which only bench-http installs.
        .target(
            name: "BenchCommands",
            dependencies: ["FeedBench", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(name: "bench", dependencies: ["BenchCommands"]),
        .executableTarget(
            name: "bench-http",
            dependencies: [
                "BenchCommands",
                "FeedBench",
                .target(name: "FeedServe", condition: .when(traits: ["HTTP"])),
                .target(name: "FeedLive", condition: .when(traits: ["HTTP"])),
            ]
        ),
        // What the tests share: scratch folders removed when each test ends, the real JPEG decoder, and the turn that runs wall-clock tests one at a time.
        .target(name: "TestSupport", path: "Tests/Support"),
        .testTarget(name: "FeedBenchTests", dependencies: ["FeedBench", "TestSupport", .product(name: "Histogram", package: "hdrhistogram-swift")]),
        .testTarget(name: "BenchCLITests", dependencies: ["bench", "bench-http", "TestSupport"]),
        // Empty without the HTTP trait, as the modules they test.
        .testTarget(name: "FeedServeTests", dependencies: [
            "FeedServe", "TestSupport",
            .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["HTTP"])),
            .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["HTTP"])),
            // A bare HTTP/2 client that reads the server's SETTINGS.
            .product(name: "NIOHTTP2", package: "swift-nio-http2", condition: .when(traits: ["HTTP"])),
            .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["HTTP"])),
        ]),
        .testTarget(name: "FeedLiveTests", dependencies: ["FeedLive", "FeedServe", "TestSupport"]),
    ]
)
