@testable import FeedBench
import Foundation
import TestSupport
import Testing

/// `--library`: a library's own knobs, its settings in its own Swift API — compiled against
/// stand-ins that declare what the libraries' sources declare — and `bench apply`'s file, which
/// picks a profile's settings by the device's physical memory.
@Suite(.scratchFolder) struct LibrarySettingsTests {
    /// Each library's main program: applies `settings`, prints its profile and the cost and
    /// disk limits the library's caches then have, and moves a prefetch window over 60 URLs,
    /// then 5 items on.
    static func main(_ library: ImageLibrary, settings: String) -> String {
        let (cost, disk) = switch library {
        case .nuke: ("ImageCache.shared.costLimit", "DataLoader.sharedUrlCache.diskCapacity")
        case .kingfisher: ("ImageCache.default.memoryStorage.config.totalCostLimit", "ImageCache.default.diskStorage.config.sizeLimit")
        case .sdwebimage: ("SDImageCache.shared.config.maxMemoryCost", "SDImageCache.shared.config.maxDiskSize")
        }
        return """
        import Foundation
        import \(library.module)
        let settings = \(settings)
        settings.apply()
        print(settings.profile, \(cost), \(disk))
        let window = FeedBenchPrefetchWindow()
        for first in [0, 5] {
            let urls = (first..<first + 60).map { URL(string: "https://example.com/\\($0).jpg")! }
            window.move(to: urls, settings: settings, cellSize: CGSize(width: 375, height: 375), screenScale: 2)
        }
        """
    }

    /// What the stand-in reports of `main`'s two moves of a window of `size` items: the first
    /// hands over the whole window, the second stops the 5 that left it (where the library can)
    /// and hands over only the 5 that entered — one prefetcher call for them all, or one a URL
    /// (SDWebImage's tokens).
    static func prefetched(_ library: ImageLibrary, window size: Int) -> String {
        guard size > 0 else { return "" }
        func batch(_ count: Int) -> String {
            library == .sdwebimage ? String(repeating: "prefetching 1\n", count: count) : "prefetching \(count)\n"
        }
        let stopped = switch library {
        case .nuke: "stopping 5\n"
        case .kingfisher: ""
        case .sdwebimage: String(repeating: "stopping 1\n", count: 5)
        }
        return batch(size) + stopped + batch(5)
    }

    static func settings(_ library: ImageLibrary, variant: Int, on profile: DeviceProfile, cost: Int64?, window: Int) throws -> LibrarySettings {
        let preset = try CachePreset.named(library.variants(launches: 2)[variant])
        let bytes = cost ?? preset.memoryLimits(on: profile).maxBytes ?? 0
        return try LibrarySettings(library: library, policy: preset.label, memoryLimitBytes: bytes, window: String(window), profile: profile, source: "test")
    }

    @Test func aLibrarysGridIsItsVariantsCostLimitsAndWindows() throws {
        #expect(ImageLibrary.nuke.variants == ["nuke", "nuke:prefetch=4", "nuke:downsample", "nuke:downsample:prefetch=4"])
        #expect(ImageLibrary.kingfisher.variants == ["kingfisher", "kingfisher:prefetch=10", "kingfisher:background-decode",
                                                     "kingfisher:background-decode:prefetch=10", "kingfisher:downsample", "kingfisher:downsample:prefetch=10"])
        #expect(ImageLibrary.sdwebimage.variants.last == "sdwebimage:downsample:prefetch=6")
        #expect(ImageLibrary.sdwebimage.variants(launches: 3).suffix(2) == ["sdwebimage:downsample:prefetch=6", "sdwebimage:downsample:prefetch=6:disk=50MiB"])
        #expect(ImageLibrary.memoryLimits.map(\.description) == ["(setup's)", "0.5%ram", "1%ram", "2%ram", "4%ram", "8%ram"])
        for library in ImageLibrary.allCases {
            for variant in library.variants(launches: 2) {
                let preset = try CachePreset.named(variant)
                #expect(ImageLibrary.of(policy: preset.label)?.library == library)
            }
        }
        #expect(ImageLibrary.of(policy: "nuke@main(clock)") == nil && ImageLibrary.of(policy: "lru") == nil)
        #expect(ImageLibrary.of(policy: try CachePreset.named("kingfisher:sync-disk").label) == nil, "not a variant --library searches")
        #expect(throws: InputError.self) { try ImageLibrary.named("glide", source: "--library") }
    }

    /// The library's default cost limit is the size it is on the profile, written out: a share
    /// of RAM would be another size on another device of the band. Only no limit is left unset.
    @Test func theLibrarysDefaultCostLimitIsWrittenAsTheSizeSimulated() throws {
        let own = try Self.settings(.nuke, variant: 0, on: .lowEnd, cost: nil, window: 5)
        #expect(own.memoryCostLimit == 483_183_820 && own.isDefaultCostLimit)
        #expect(own.statements[0] == "ImageCache.shared.costLimit = 483_183_820 // 460.8 MiB, 15 % of the RAM: the default here (15 % of RAM, at most 768 MiB (ImageCache.defaultCostLimit)), as simulated on every device")
        let none = try Self.settings(.sdwebimage, variant: 0, on: .lowEnd, cost: nil, window: 5)
        #expect(none.memoryCostLimit == nil && none.statements[0] == "// memory cache: no cost limit, the default (0, no limit)")
        let set = try Self.settings(.nuke, variant: 7, on: .lowEnd, cost: 64_424_509, window: 5)
        #expect(set.memoryCostLimit == 64_424_509 && set.downsamples && set.prefetchConcurrency == 4 && set.diskLimit == 50 << 20)
        #expect(set.statements.contains("DataLoader.sharedUrlCache.diskCapacity = 52_428_800 // 50.0 MiB"))
        #expect(set.statements[0] == "ImageCache.shared.costLimit = 64_424_509 // 61.4 MiB, 2 % of the RAM")
        #expect(set.statements.contains("let prefetcher = ImagePrefetcher(maxConcurrentRequestCount: 4) // kept while the feed is on screen"))
    }

    /// A window FeedBench drives itself (velocity, adaptive, screens) is not a number of items
    /// the library's prefetcher can be given: the summary says so instead of printing settings.
    @Test func aWindowTheLibraryCannotBeGivenIsStatedNotPrinted() throws {
        #expect(throws: InputError.self) {
            try LibrarySettings(library: .nuke, policy: "nuke(clock)", memoryLimitBytes: 1, window: "adaptive", profile: .lowEnd, source: "t")
        }
        let candidate = TuneCandidate(number: 0, policy: "nuke(clock)", memoryLimitBytes: 1, window: "velocity", strategy: "")
        let text = LibrarySettings.summary(of: candidate, on: .lowEnd)
        #expect(text.hasPrefix("Settings to apply — Nuke 13.2: none printed;") && !text.contains("ImageCache"))
        #expect(LibrarySettings.summary(of: nil, on: .lowEnd).isEmpty)
    }

    /// Every variant, with and without a cost limit and prefetching: the summary's statements
    /// compile against the stand-in (which declares only what the library's sources declare).
    @Test(.enabled(if: SwiftCompiler.path != nil, Comment(rawValue: SwiftCompiler.missing)), arguments: ImageLibrary.allCases)
    func theSummarysStatementsCompileAgainstTheLibrary(library: ImageLibrary) throws {
        var functions: [String] = []
        for variant in library.variants(launches: 2).indices {
            for (cost, window) in [(nil, 0), (Int64(64_424_509), 20)] {
                let settings = try Self.settings(library, variant: variant, on: .mid, cost: cost, window: window)
                functions.append("func check\(functions.count)(entering: [URL], leaving: [URL], url: URL, cellSize: CGSize, screenScale: CGFloat) {\n"
                                 + settings.statements.map { "    " + $0 }.joined(separator: "\n") + "\n}")
            }
        }
        let main = "import Foundation\nimport \(library.module)\n\n" + functions.joined(separator: "\n") + "\nprint(\"compiled\")\n"
        let outcome = try SwiftCompiler.run(module: library.module, files: ["main.swift": main], in: try ScratchFolder.make())
        #expect(outcome.status == 0 && outcome.output.hasSuffix("compiled\n"), "\(outcome.output)")
    }

    /// `bench apply`'s file for the four built-in profiles compiles, picks the low-end phone's
    /// settings for an iPhone of 3 GB and the tablet's for an iPad of 8 GB, sets the cache's
    /// cost limit, and moves the prefetch window as the run simulates the library's prefetcher.
    @Test(.enabled(if: SwiftCompiler.path != nil, Comment(rawValue: SwiftCompiler.missing)), arguments: ImageLibrary.allCases)
    func theApplyFilePicksTheSettingsByPhysicalMemory(library: ImageLibrary) throws {
        let settings = try [
            Self.settings(library, variant: library.variants(launches: 2).count - 1, on: .lowEnd, cost: 32_000_000, window: 20),
            Self.settings(library, variant: 0, on: .mid, cost: nil, window: 10),
            Self.settings(library, variant: 2, on: .highEnd, cost: 48_000_000, window: 0),
            Self.settings(library, variant: 0, on: .tablet, cost: 96_000_000, window: 30),
        ]
        // The library's own disk limit, which the stand-in starts with.
        let disk = library == .nuke ? "157286400" : "0"
        let file = try LibrarySwiftFile(library: library, settings: settings, sources: ["a.csv", "b.csv", "c.csv", "d.csv"])
        let folder = try ScratchFolder.make()
        for (memory, isPad, expected) in [(3 << 30, false, "low-end 32000000 52428800\n" + Self.prefetched(library, window: 20)),
                                          (8 << 30, true, "tablet 96000000 \(disk)\n" + Self.prefetched(library, window: 30)),
                                          (4 << 30, false, "mid \(settings[1].memoryCostLimit ?? 0) \(disk)\n" + Self.prefetched(library, window: 10)),
                                          (12 << 30, false, "high-end 48000000 \(disk)\n")] {
            let main = Self.main(library, settings: "FeedBenchImageSettings.forDevice(physicalMemory: \(memory), isPad: \(isPad))")
            let outcome = try SwiftCompiler.run(module: library.module, also: ["Network"], files: ["main.swift": main, "FeedBenchImageSettings.swift": file.text], in: folder)
            #expect(outcome.status == 0 && outcome.output == expected, "\(memory) bytes, iPad \(isPad): \(outcome.output)")
        }
    }

    /// Issue 64: a recommendation that asks for the cell's width says how in the summary, and
    /// `bench apply`'s file adds it to an image's URL (`w=`) for that device only.
    @Test(.enabled(if: SwiftCompiler.path != nil, Comment(rawValue: SwiftCompiler.missing)), arguments: ImageLibrary.allCases)
    func theApplyFileAsksForTheRecommendedWidth(library: ImageLibrary) throws {
        let preset = try CachePreset.named(library.variants[0])
        let lowEnd = try LibrarySettings(library: library, policy: preset.label, memoryLimitBytes: 32_000_000, window: "10", imageWidth: 750,
                                         profile: .lowEnd, source: "test")
        let tablet = try Self.settings(library, variant: 0, on: .tablet, cost: 96_000_000, window: 30)
        #expect(lowEnd.statements.contains { $0.hasPrefix("// ask the server for images 750 px wide (the cell: cellSize.width × screenScale)") })
        #expect(!tablet.statements.contains { $0.contains("ask the server") })
        let file = try LibrarySwiftFile(library: library, settings: [lowEnd, tablet], sources: ["a.csv", "b.csv"])
        let main = """
        import Foundation
        import \(library.module)
        let url = URL(string: "https://cdn.example/cats/1.jpg?v=2")!
        print(FeedBenchImageSettings.forDevice(physicalMemory: 3 << 30, isPad: false).imageURL(url))
        print(FeedBenchImageSettings.forDevice(physicalMemory: 8 << 30, isPad: true).imageURL(url))
        """
        let outcome = try SwiftCompiler.run(module: library.module, also: ["Network"], files: ["main.swift": main, "FeedBenchImageSettings.swift": file.text],
                                            in: try ScratchFolder.make())
        #expect(outcome.status == 0 && outcome.output == "https://cdn.example/cats/1.jpg?v=2&w=750\nhttps://cdn.example/cats/1.jpg?v=2\n", "\(outcome.output)")
    }

    /// Settings per network path: the file switches on the class `NWPathMonitor` reports (against
    /// the stand-in of Apple's Network), applying the new settings when the class changes — a
    /// constrained path takes the cellular ones — while a profile with one setting keeps it.
    @Test(.enabled(if: SwiftCompiler.path != nil, Comment(rawValue: SwiftCompiler.missing)), arguments: ImageLibrary.allCases)
    func theApplyFileSwitchesSettingsWhenThePathChanges(library: ImageLibrary) throws {
        let lowEnd = try Self.settings(library, variant: 0, on: .lowEnd, cost: 32_000_000, window: 10)
        let byPath = try [PathClass.wifi: Self.settings(library, variant: 0, on: .lowEnd, cost: 64_000_000, window: 20),
                          .cellular: Self.settings(library, variant: 0, on: .lowEnd, cost: 16_000_000, window: 5)]
        let tablet = try Self.settings(library, variant: 0, on: .tablet, cost: 96_000_000, window: 30)
        let file = try LibrarySwiftFile(library: library, settings: [lowEnd, tablet], pathSettings: [byPath, [:]], sources: ["a.csv", "b.csv"])
        #expect(file.text.contains("// Per network path (NWPathMonitor) where switching beats one setting (docs/populations.md): low-end on wifi, cellular."))
        let main = """
        import Foundation
        import Network
        import \(library.module)
        let queue = DispatchQueue(label: "paths")
        let watcher = FeedBenchPathSettings(physicalMemory: 3 << 30, isPad: false, queue: queue) { settings in
            print("applied", settings.profile, settings.path ?? "every path", settings.prefetchWindow)
        }
        queue.sync {}
        print("now", watcher.current.profile, watcher.current.path ?? "every path")
        for path in [NWPath(interfaces: [.cellular], isExpensive: true, isConstrained: false),
                     NWPath(interfaces: [.wifi], isExpensive: false, isConstrained: true),
                     NWPath(interfaces: [.wifi], isExpensive: true, isConstrained: false),
                     NWPath(interfaces: [.wifi], isExpensive: false, isConstrained: false)] {
            NWPathMonitor.simulate(path)
            queue.sync {}
        }
        let pad = FeedBenchImageSettings.forDevice(physicalMemory: 8 << 30, isPad: true, path: NWPath(interfaces: [.cellular], isExpensive: true, isConstrained: false))
        print("pad", pad.profile, pad.path ?? "every path", pad.prefetchWindow)
        """
        let outcome = try SwiftCompiler.run(module: library.module, also: ["Network"],
                                            files: ["main.swift": main, "FeedBenchImageSettings.swift": file.text], in: try ScratchFolder.make())
        // The monitor starts on Wi-Fi; cellular; Low Data Mode takes the cellular settings (no
        // change); a personal hotspot is cellular (no change); Wi-Fi again.
        #expect(outcome.status == 0 && outcome.output == """
            applied low-end wifi 20
            now low-end wifi
            applied low-end cellular 5
            applied low-end wifi 20
            pad tablet every path 30

            """, "\(outcome.output)")
    }

    @Test func bandsLieHalfwayBetweenTheProfilesRAM() throws {
        let settings = try [DeviceProfile.highEnd, .lowEnd, .mid].map { try Self.settings(.nuke, variant: 0, on: $0, cost: nil, window: 5) }
        let bands = LibrarySwiftFile.bands(settings)
        #expect(bands.map(\.settings.profile.name) == ["low-end", "mid", "high-end"])
        #expect(bands.map(\.below) == [3_758_096_384, 6_442_450_944, nil])
        #expect(LibrarySwiftFile.identifier("high-end") == "highEnd" && LibrarySwiftFile.identifier("2x-phone") == "profile2xPhone")
    }

    /// Two iPhones with the same RAM cannot be told apart by it: refused, naming the file.
    @Test func twoProfilesOfOneKindWithTheSameRAMAreRefused() throws {
        var twin = DeviceProfile.mid
        twin.name = "twin"
        let settings = try [DeviceProfile.mid, twin].map { try Self.settings(.kingfisher, variant: 0, on: $0, cost: nil, window: 5) }
        #expect {
            try LibrarySwiftFile(library: .kingfisher, settings: settings, sources: ["mid.csv", "twin.csv"])
        } throws: { error in
            "\(error)".hasPrefix("twin.csv: profile: expected profiles a device's physical memory tells apart, found twin with the RAM of mid")
        }
    }
}
