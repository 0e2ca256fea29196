/// The Swift file `bench apply` writes: one library's recommended settings for each profile,
/// and a function that picks them at launch by the device's physical memory — iPads (profiles
/// whose model is an iPad) and iPhones apart when both are given, each kind in bands of RAM
/// whose edges lie halfway between its profiles' RAM (3 GiB and 4 GiB: 3.5 GiB), below the
/// first edge the smallest profile's, above the last the largest's. Where a profile's results
/// recommend settings per network path (`PopulationSummary`), they are there too, picked by the
/// path `NWPathMonitor` reports, and `FeedBenchPathSettings` applies them when it changes.
public struct LibrarySwiftFile: Sendable {
    public let library: ImageLibrary
    /// One profile's settings each, in the order given.
    public let settings: [LibrarySettings]
    /// Per profile (as `settings`), its settings per path class where switching beats its one
    /// setting; empty where it does not.
    public let pathSettings: [[PathClass: LibrarySettings]]
    /// The results files, for the header.
    public let sources: [String]

    /// Refuses two profiles of one kind (iPad or iPhone) with the same RAM, which no band can
    /// tell apart, naming `sources[i]` for `settings[i]`.
    public init(library: ImageLibrary, settings: [LibrarySettings], pathSettings: [[PathClass: LibrarySettings]]? = nil,
                sources: [String]) throws {
        precondition(settings.count == sources.count && !settings.isEmpty, "LibrarySwiftFile: one source per settings")
        precondition(pathSettings.map { $0.count == settings.count } ?? true, "LibrarySwiftFile: path settings per profile")
        for (index, item) in settings.enumerated() {
            if let earlier = settings[..<index].first(where: { Self.isPad($0.profile) == Self.isPad(item.profile) && $0.profile.ramBytes == item.profile.ramBytes }) {
                throw InputError(source: sources[index], field: "profile", "expected profiles a device's physical memory tells apart, found \(item.profile.name) with the RAM of \(earlier.profile.name) (\(Self.gibibytes(item.profile.ramBytes)))")
            }
        }
        self.library = library
        self.settings = settings
        self.pathSettings = pathSettings ?? settings.map { _ in [:] }
        self.sources = sources
    }

    /// The file for the recommendations in `files` (`bench run --library` results, one or more
    /// built-in profiles each): every run must be one of `library`'s variants, and each
    /// profile must have a recommendation at a number of items ahead. Refusals name the file
    /// (and line and field). Ranked as `bench run --library` ranks them: within `maxHitchRatio`
    /// (thousandths of a ms per second) on every seed.
    public init(library: ImageLibrary, results files: [ResultsFile], maxHitchRatio: Int64 = ImageLibrary.maxHitchRatio) throws {
        let policy = RunResult.identityIndex("policy"), profile = RunResult.identityIndex("profile")
        var firstFile: [String: String] = [:]
        for file in files {
            for row in file.rows where !row.isAggregate {
                if ImageLibrary.of(policy: row.identity[policy])?.library != library {
                    throw InputError(source: file.path, line: row.line, field: "policy", "expected a run of bench run --library \(library.rawValue) (\(library.variants.joined(separator: ", "))), found \(InputError.quote(row.identity[policy]))")
                }
                if firstFile[row.identity[profile]] == nil { firstFile[row.identity[profile]] = file.path }
            }
        }
        var settings: [LibrarySettings] = []
        var pathSettings: [[PathClass: LibrarySettings]] = []
        var sources: [String] = []
        for (name, rows) in try ReportRows(files).byProfile {
            let source = firstFile[name]!
            guard let device = DeviceProfile.builtIn.first(where: { $0.name == name }) else {
                throw InputError(source: source, field: "profile", "expected results of built-in profiles (\(DeviceProfile.builtIn.map(\.name).joined(separator: ", "))), whose RAM and memory limit are known, found \(InputError.quote(name))")
            }
            let runs = rows.map(\.summaryRun)
            var byPath: [PathClass: LibrarySettings] = [:]
            let best: TuneCandidate?
            if let population = try NetworkPopulation.matching(profile: device, networks: runs.map(\.network)) {
                let answer = PopulationSummary(profile: device, runs: runs, population: population, maxHitchRatio: maxHitchRatio)
                best = answer.overall.recommended
                if answer.split?.beatsSingle == true {
                    for setting in answer.paths {
                        let chosen = setting.summary.recommended!
                        byPath[setting.path] = try LibrarySettings(library: library, policy: chosen.policy, memoryLimitBytes: chosen.memoryLimitBytes,
                                                                   window: chosen.window, imageWidth: chosen.imageWidth, profile: device, source: source)
                    }
                }
            } else {
                best = MatrixSummary(profile: device, runs: runs, maxHitchRatio: maxHitchRatio).recommended
            }
            guard let best else {
                throw InputError(source: source, "expected a recommendation for \(name), found every configuration over its memory limit or the hitch ratio allowed: nothing to apply")
            }
            settings.append(try LibrarySettings(library: library, policy: best.policy, memoryLimitBytes: best.memoryLimitBytes,
                                                window: best.window, imageWidth: best.imageWidth, profile: device, source: source))
            pathSettings.append(byPath)
            sources.append(source)
        }
        guard !settings.isEmpty else {
            throw InputError(source: files.first?.path ?? "bench apply", "expected runs of bench run --library \(library.rawValue), found none")
        }
        try self.init(library: library, settings: settings, pathSettings: pathSettings, sources: sources)
    }

    /// `3.5 GiB`.
    static func gibibytes(_ bytes: Int64) -> String {
        FixedPoint.ratio(bytes, 1 << 30, decimals: 2).trimmingZeroDecimals() + " GiB"
    }

    static func isPad(_ profile: DeviceProfile) -> Bool { profile.model.hasPrefix("iPad") }

    /// `low-end` on Wi-Fi → `lowEndOnWifi`: a profile's settings (for one path class) as a
    /// Swift identifier.
    static func identifier(_ name: String, path: PathClass?) -> String {
        identifier(name) + (path.map { "On" + $0.rawValue.prefix(1).uppercased() + $0.rawValue.dropFirst() } ?? "")
    }

    /// `low-end` → `lowEnd`: a profile's name as a Swift identifier.
    static func identifier(_ name: String) -> String {
        var words = name.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
        guard !words.isEmpty else { return "profile" }
        for index in words.indices.dropFirst() { words[index] = words[index].prefix(1).uppercased() + words[index].dropFirst() }
        let joined = words.joined()
        return joined.first!.isNumber ? "profile" + joined : joined
    }

    /// The profiles of one kind by RAM, each with the RAM below which it is picked (`nil`: the last).
    static func bands(_ settings: [LibrarySettings]) -> [(settings: LibrarySettings, below: Int64?)] {
        let sorted = settings.sorted { $0.profile.ramBytes < $1.profile.ramBytes }
        return sorted.indices.map { index in
            let next = index + 1 < sorted.count ? sorted[index + 1].profile.ramBytes : nil
            return (sorted[index], next.map { sorted[index].profile.ramBytes / 2 + $0 / 2 })
        }
    }

    /// The file's text.
    public var text: String {
        let pads = settings.filter { Self.isPad($0.profile) }, phones = settings.filter { !Self.isPad($0.profile) }
        let kinds: [(name: String, settings: [LibrarySettings])] = pads.isEmpty || phones.isEmpty
            ? [("any device", settings)] : [("iPhone", phones), ("iPad", pads)]
        var lines = [
            "// FeedBench's recommended \(settings[0].preset.source) settings for each class of device, written by",
            "// `bench apply --library \(library.rawValue)` (FeedBench \(FeedBench.version)) from \(ReportRows.distinct(sources).joined(separator: ", ")).",
            "// FeedBenchImageSettings.forDevice(isPad:) picks one at launch by the device's physical memory,",
            "// in bands whose edges lie halfway between the profiles' RAM (docs/libraries.md):",
        ]
        for kind in kinds {
            let bands = Self.bands(kind.settings).map { band in
                band.below.map { "below \(Self.gibibytes($0)) \(band.settings.profile.name)" }
                    ?? (kind.settings.count == 1 ? band.settings.profile.name : "else \(band.settings.profile.name)")
            }
            lines.append("//   \(kind.name): " + bands.joined(separator: "; "))
        }
        let switching = zip(settings, pathSettings).filter { !$0.1.isEmpty }
        lines.append(switching.isEmpty
            ? "// One setting serves every network path on each device; FeedBenchPathSettings applies it all the same."
            : "// Per network path (NWPathMonitor) where switching beats one setting (docs/populations.md): "
                + switching.map { item in "\(item.0.profile.name) on " + PathClass.allCases.filter { item.1[$0] != nil }.map(\.rawValue).joined(separator: ", ") }.joined(separator: "; ") + ".")
        lines += ["import Foundation", "import Network", "import \(library.module)", ""]
        lines += declaration(kinds: kinds)
        lines += pathDeclarations()
        return lines.joined(separator: "\n") + "\n"
    }

    func declaration(kinds: [(name: String, settings: [LibrarySettings])]) -> [String] {
        let kingfisher = library == .kingfisher
        var lines = [
            "/// The image settings FeedBench recommends for one class of device (and, where it pays, one class of network path).",
            "struct FeedBenchImageSettings {",
            "    /// The FeedBench profile the settings were simulated on.",
            "    var profile: String",
            "    /// The path class they are for (`wifi`, `cellular`, `constrained`); `nil`: every path.",
            "    var path: String? = nil",
            "    /// The memory cache's cost limit in bytes; `nil`: \(library.displayName)'s default (\(library.defaultCostLimit)).",
            "    var memoryCostLimit: Int?",
            "    /// Items past the last visible one to prefetch as the feed scrolls; 0: no prefetching.",
            "    var prefetchWindow: Int",
            "    /// Prefetches the prefetcher runs at once.",
            "    var prefetchConcurrency: Int",
            "    /// The disk cache's size limit in bytes; `nil`: \(library.displayName)'s default (\(library.diskCache)).",
            "    var diskLimit: Int?",
            "    /// Whether images are decoded to the cell's size rather than their own.",
            "    var downsamples: Bool",
        ]
        if kingfisher {
            lines += ["    /// Whether images are decoded off the main thread (`.backgroundDecode`), not at their first draw.",
                      "    var decodesInBackground: Bool"]
        }
        lines += ["    /// The width in pixels to ask the image server for (`imageURL(_:)`); `nil`: the image as stored.",
                  "    var imageWidth: Int? = nil"]
        for (item, byPath) in zip(settings, pathSettings) {
            let figures = "\(item.profile.model), \(Self.gibibytes(item.profile.ramBytes)) of RAM"
            for (path, setting) in [(PathClass?.none, item)] + PathClass.allCases.compactMap({ path in byPath[path].map { (Optional(path), $0) } }) {
                let cost = setting.memoryCostLimit.map { "\(LibrarySettings.swiftInteger($0)) /* \(FixedPoint.mebibytes($0)) */" } ?? "nil"
                let disk = setting.diskLimit.map { "\(LibrarySettings.swiftInteger($0)) /* \(FixedPoint.mebibytes($0)) */" } ?? "nil"
                lines += [
                    "",
                    "    /// \(item.profile.name) (\(figures))\(path.map { " on \($0.rawValue)" } ?? ""): \(setting.preset.label).",
                    "    static let \(Self.identifier(item.profile.name, path: path)) = FeedBenchImageSettings(",
                    "        profile: \"\(item.profile.name)\",\(path.map { " path: \"\($0.rawValue)\"," } ?? "") memoryCostLimit: \(cost), prefetchWindow: \(setting.prefetchWindow), prefetchConcurrency: \(setting.prefetchConcurrency),",
                    "        diskLimit: \(disk), downsamples: \(setting.downsamples)\(kingfisher ? ", decodesInBackground: \(setting.decodesInBackground)" : "")\(setting.imageWidth.map { ", imageWidth: \($0)" } ?? ""))",
                ]
            }
        }
        lines += [
            "",
            "    /// The settings for a device with `physicalMemory` bytes of RAM (an iPad when `isPad`).",
            "    static func forDevice(physicalMemory: UInt64 = ProcessInfo.processInfo.physicalMemory, isPad: Bool) -> FeedBenchImageSettings {",
        ]
        func choice(_ settings: [LibrarySettings], indent: String) -> [String] {
            let bands = Self.bands(settings)
            guard bands.count > 1 else { return [indent + "return .\(Self.identifier(bands[0].settings.profile.name))"] }
            return [indent + "switch physicalMemory {"] + bands.map { band in
                let name = Self.identifier(band.settings.profile.name)
                return indent + (band.below.map { "case ..<\(LibrarySettings.swiftInteger($0)): return .\(name)" } ?? "default: return .\(name)")
            } + [indent + "}"]
        }
        if kinds.count == 2 {
            lines += ["        if isPad {"] + choice(kinds[1].settings, indent: "            ") + ["        }"]
            lines += choice(kinds[0].settings, indent: "        ")
        } else {
            lines += choice(kinds[0].settings, indent: "        ")
        }
        let decoding = library.decodingValue(downsamples: .when("downsamples"), decodesInBackground: .when("decodesInBackground"))
        var atLaunch: [String] = []
        if case let .atLaunch(statement) = library.prefetcherSetUp(concurrency: "prefetchConcurrency") { atLaunch = ["        " + statement] }
        lines += [
            "    }",
            "",
            "    /// Sets the caches' limits\(atLaunch.isEmpty ? "" : " and the prefetcher's concurrency"): call once at launch, before the first image loads.",
            "    func apply() {",
            "        if let memoryCostLimit { \(library.limitStatement(.memory, bytes: "memoryCostLimit")) }",
            "        if let diskLimit { \(library.limitStatement(.disk, bytes: "diskLimit")) }",
        ] + atLaunch + [
            "    }",
            "",
            "    /// The decoding options of a cell of `cellSize` points on a screen of `screenScale`: give them to",
            "    /// every request of the cell's image, and to the prefetcher, so the prefetched image is the one shown.",
            "    func decoding(cellSize: CGSize, screenScale: CGFloat) -> \(library.decodingType) {",
            "        \(decoding)",
            "    }",
            "",
            "    /// `url` asking the image server for `imageWidth` pixels (the cell's points × the screen's scale), as a",
            "    /// resizing CDN takes it (`w=`; name the parameter as your server does: the Cat API's `size=` offers",
            "    /// small (250 px), med (500 px) and full, so ask the smallest at least `imageWidth` wide); `url` itself",
            "    /// when `imageWidth` is nil. A server that cannot resize sends the original: keep `downsamples` on then.",
            "    func imageURL(_ url: URL) -> URL {",
            "        guard let imageWidth, var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }",
            "        parts.queryItems = (parts.queryItems ?? []) + [URLQueryItem(name: \"w\", value: String(imageWidth))]",
            "        return parts.url ?? url",
            "    }",
            "}",
        ]
        return lines + windowDeclaration()
    }

    /// `FeedBenchPrefetchWindow`: the prefetcher driven as the run simulated it — each move of
    /// the window stops what left it (where the library's prefetcher can) and hands what entered
    /// it over as one batch, nearest first, never the whole window again (Kingfisher would start
    /// a prefetcher for every call, and each would run its limit at once). The app's own
    /// prefetcher (Nuke's) is the window's, made again when the settings' concurrency changes.
    func windowDeclaration() -> [String] {
        let concurrency = "settings.prefetchConcurrency"
        let (stop, start) = library.windowStatements(concurrency: concurrency)
        var prefetcher: (type: String, make: String)?
        if case let .appsOwn(type, make) = library.prefetcherSetUp(concurrency: concurrency) { prefetcher = (type, make) }
        var lines = [
            "",
            "/// The prefetch window as FeedBench simulated it: keep one while the feed is on screen and move it as",
            "/// the feed scrolls. What left the window is stopped\(stop.isEmpty ? " only where the library can (\(library.displayName)'s prefetchers are never stopped, as simulated)" : ""), then what",
            "/// entered it goes to the prefetcher as one batch, nearest first.",
            "final class FeedBenchPrefetchWindow {",
            "    private var window: [URL] = []",
        ]
        if let prefetcher {
            lines += ["    private var prefetcher: \(prefetcher.type)?", "    private var concurrency = 0"]
        }
        lines += library.windowState.map { "    private " + $0 }
        lines += [
            "",
            "    init() {}",
            "",
            "    /// Moves the window to the first `settings.prefetchWindow` of `urls`, the URLs of the items past the",
            "    /// last visible one in the direction of scrolling, nearest first.",
            "    func move(to urls: [URL], settings: FeedBenchImageSettings, cellSize: CGSize, screenScale: CGFloat) {",
            "        let next = Array(urls.prefix(settings.prefetchWindow))",
        ] + (stop.isEmpty ? ["        let was = Set(window)"] : [
            "        let (was, now) = (Set(window), Set(next))",
            "        let leaving = window.filter { !now.contains($0) }",
        ]) + [
            "        \(prefetcher == nil ? "let" : "var") entering = next.filter { !was.contains($0) }",
            "        window = next",
            "        let decoding = settings.decoding(cellSize: cellSize, screenScale: screenScale)",
        ]
        if let prefetcher {
            lines += [
                "        if self.prefetcher == nil || concurrency != settings.prefetchConcurrency {",
                "            self.prefetcher?.stopPrefetching()",
                "            self.prefetcher = \(prefetcher.make)",
                "            concurrency = settings.prefetchConcurrency",
                "            entering = next",
                "        }",
                "        let prefetcher = self.prefetcher!",
            ]
        }
        lines += stop.map { "        " + $0 }
        lines.append("        guard !entering.isEmpty else { return }")
        lines += start.map { "        " + $0 }
        return lines + ["    }", "}"]
    }

    /// The path classes, the settings for a device on a path, and the watcher that applies them
    /// as the path changes. A constrained path takes its own settings, else the cellular ones (the
    /// thriftier), else the device's one setting.
    func pathDeclarations() -> [String] {
        var cases: [String] = []
        for (item, byPath) in zip(settings, pathSettings) where !byPath.isEmpty {
            for path in PathClass.allCases {
                guard let chosen = byPath[path] != nil ? path : (path == .constrained && byPath[.cellular] != nil ? .cellular : nil) else { continue }
                cases.append("        case (\"\(item.profile.name)\", .\(path.rawValue)): return .\(Self.identifier(item.profile.name, path: chosen))")
            }
        }
        let body = cases.isEmpty
            ? ["        forDevice(physicalMemory: physicalMemory, isPad: isPad)"]
            : ["        let device = forDevice(physicalMemory: physicalMemory, isPad: isPad)",
               "        switch (device.profile, FeedBenchPathClass(path)) {"] + cases + ["        default: return device", "        }"]
        return [
            "",
            "/// The classes of network path FeedBench's settings can differ by, as `NWPathMonitor` reports them:",
            "/// Low Data Mode on any interface, Wi-Fi that is not a personal hotspot, and the rest (cellular).",
            "enum FeedBenchPathClass {",
            "    case wifi, cellular, constrained",
            "",
            "    init(_ path: NWPath) {",
            "        if path.isConstrained {",
            "            self = .constrained",
            "        } else if path.usesInterfaceType(.wifi) && !path.isExpensive {",
            "            self = .wifi",
            "        } else {",
            "            self = .cellular",
            "        }",
            "    }",
            "}",
            "",
            "extension FeedBenchImageSettings {",
            "    /// The settings for a device with `physicalMemory` bytes of RAM (an iPad when `isPad`) on `path`.",
            "    static func forDevice(physicalMemory: UInt64 = ProcessInfo.processInfo.physicalMemory, isPad: Bool, path: NWPath) -> FeedBenchImageSettings {",
        ] + body + [
            "    }",
            "}",
            "",
            "/// Applies FeedBench's settings at launch and again whenever the network path's class changes;",
            "/// `current` is the settings in use (give its prefetch window to the feed's prefetching).",
            "final class FeedBenchPathSettings {",
            "    private let monitor = NWPathMonitor()",
            "    private let lock = NSLock()",
            "    private var settings: FeedBenchImageSettings",
            "",
            "    var current: FeedBenchImageSettings {",
            "        lock.lock()",
            "        defer { lock.unlock() }",
            "        return settings",
            "    }",
            "",
            "    /// Applies the device's settings now, then those for each path the monitor reports, on `queue`;",
            "    /// `onChange` is told each change.",
            "    init(physicalMemory: UInt64 = ProcessInfo.processInfo.physicalMemory, isPad: Bool,",
            "         queue: DispatchQueue = DispatchQueue(label: \"FeedBenchPathSettings\"),",
            "         onChange: @escaping (FeedBenchImageSettings) -> Void = { _ in }) {",
            "        settings = FeedBenchImageSettings.forDevice(physicalMemory: physicalMemory, isPad: isPad)",
            "        settings.apply()",
            "        monitor.pathUpdateHandler = { [weak self] path in",
            "            guard let self else { return }",
            "            let next = FeedBenchImageSettings.forDevice(physicalMemory: physicalMemory, isPad: isPad, path: path)",
            "            self.lock.lock()",
            "            let changed = next.profile != self.settings.profile || next.path != self.settings.path",
            "            if changed { self.settings = next }",
            "            self.lock.unlock()",
            "            guard changed else { return }",
            "            next.apply()",
            "            onChange(next)",
            "        }",
            "        monitor.start(queue: queue)",
            "    }",
            "",
            "    deinit { monitor.cancel() }",
            "}",
        ]
    }
}
