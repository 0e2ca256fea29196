/// A recommendation in one library's own settings, for one profile: the memory cache's cost
/// limit and the disk cache's, how many items ahead the app drives the library's prefetcher and
/// how many it runs at once, whether requests decode to the cell, and (Kingfisher) whether
/// images decode off the main thread — read back from the configuration a summary recommends
/// (its `policy` cell names the library's variant).
public struct LibrarySettings: Sendable, Equatable {
    public let library: ImageLibrary
    public let profile: DeviceProfile
    /// The variant recommended (`nuke:downsample`).
    public let preset: CachePreset
    /// The memory cache's cost limit in bytes — the library's default too, written out as the
    /// size it was on the profile (a share of RAM is another size on another device of the
    /// band); `nil`: no cost limit (SDWebImage's default).
    public let memoryCostLimit: Int64?
    /// Items past the last visible one the prefetcher is given (0: no prefetching).
    public let prefetchWindow: Int
    /// The disk cache's size limit in bytes; `nil`: the library's own.
    public let diskLimit: Int64?
    /// The width in pixels the feed asks the image server for; `nil`: the image as stored.
    public let imageWidth: Int?

    /// The settings of a configuration of `library` on `profile`: `policy`, `memoryLimitBytes`
    /// and `window` as a summary or results file holds them (0 bytes: no cost limit). Throws an
    /// `InputError` from `source` when the policy is not one of the library's variants or the
    /// window is not a number of items (FeedBench's own prefetch drivers are no setting of the
    /// library's).
    public init(library: ImageLibrary, policy: String, memoryLimitBytes: Int64, window: String, imageWidth: Int? = nil,
                profile: DeviceProfile, source: String) throws {
        guard let found = ImageLibrary.of(policy: policy), found.library == library else {
            throw InputError(source: source, field: "policy", "expected a configuration of --library \(library.rawValue) (\(library.variants.joined(separator: ", "))), found \(InputError.quote(policy))")
        }
        guard let window = Int(window), window >= 0 else {
            throw InputError(source: source, field: "prefetch_window", "expected a number of items, which \(library.displayName)'s prefetcher can be given; \(InputError.quote(window)) is FeedBench's own prefetch driver, no setting of the library's")
        }
        self.library = library
        self.profile = profile
        preset = found.preset
        memoryCostLimit = memoryLimitBytes == 0 ? nil : memoryLimitBytes
        prefetchWindow = window
        diskLimit = found.preset.diskBytes == library.preset.diskBytes ? nil : found.preset.diskBytes
        self.imageWidth = imageWidth
    }

    /// The settings block a summary ends with when `candidate`, recommended on `profile`, is
    /// one of a library's variants (or why it cannot be set, at a window the library's
    /// prefetcher cannot be given); else nothing.
    public static func summary(of candidate: TuneCandidate?, on profile: DeviceProfile) -> String {
        guard let candidate, let found = ImageLibrary.of(policy: candidate.policy) else { return "" }
        do {
            return try LibrarySettings(library: found.library, policy: candidate.policy, memoryLimitBytes: candidate.memoryLimitBytes,
                                       window: candidate.window, imageWidth: candidate.imageWidth, profile: profile, source: "summary").text
        } catch let refusal as InputError {
            return "Settings to apply — \(found.preset.source): none printed; \(refusal.message)\n"
        } catch {
            return ""
        }
    }

    /// Whether `memoryCostLimit` is the library's own default on the profile.
    public var isDefaultCostLimit: Bool { memoryCostLimit == preset.memoryLimits(on: profile).maxBytes }

    /// Prefetches the library's prefetcher runs at once.
    public var prefetchConcurrency: Int { preset.prefetch.concurrency }

    /// Whether requests decode to the cell's size.
    public var downsamples: Bool { !preset.decodesFullSize }
    /// Whether images decode off the main thread (only Kingfisher can be told otherwise).
    public var decodesInBackground: Bool { !preset.decodesAtFirstDraw }

    /// The Swift that applies the settings, one statement or comment a line, in the library's
    /// API with these values (free names as `LibraryAPI` says).
    public var statements: [String] {
        var lines: [String] = []
        if let memoryCostLimit {
            lines.append(library.limitStatement(.memory, bytes: Self.swiftInteger(memoryCostLimit))
                         + " // \(FixedPoint.mebibytes(memoryCostLimit)), \(Self.percent(memoryCostLimit, of: profile.ramBytes)) of the RAM"
                         + (isDefaultCostLimit ? ": the default here (\(library.defaultCostLimit)), as simulated on every device" : ""))
        } else {
            lines.append("// memory cache: no cost limit, the default (\(library.defaultCostLimit))")
        }
        if let diskLimit {
            lines.append(library.limitStatement(.disk, bytes: Self.swiftInteger(diskLimit)) + " // \(FixedPoint.mebibytes(diskLimit))")
        }
        let decoding = library.decodingValue(downsamples: .init(downsamples), decodesInBackground: .init(decodesInBackground))
        lines.append("let decoding: \(library.decodingType) = \(decoding)")
        lines.append(library.decodingUse)
        if let imageWidth {
            lines.append("// ask the server for images \(imageWidth) px wide (\(imageWidth == profile.cellPixels ? "the cell: " : "")cellSize.width × screenScale), e.g. a resizing CDN's")
            lines.append("// ?w=\(imageWidth) (the Cat API's size= offers small 250 px, med 500 px and full: the smallest at least \(imageWidth) px);")
            lines.append("// a server that cannot resize sends the original: decode it to the cell then (\(library.rawValue):downsample)")
        }
        if prefetchWindow > 0 {
            switch library.prefetcherSetUp(concurrency: String(prefetchConcurrency)) {
            case let .atLaunch(statement): lines.append(statement)
            case let .appsOwn(_, make): lines.append("let prefetcher = \(make) // kept while the feed is on screen")
            case .perBatch: break
            }
            lines += library.windowState.map { $0 + " // kept while the feed is on screen" }
            lines.append("// as the feed scrolls, the window being the \(prefetchWindow) items past the last visible one: entering, the URLs")
            lines.append("// that came into it since it last moved, nearest first; leaving, those that left it (bench apply writes this):")
            let (stop, start) = library.windowStatements(concurrency: String(prefetchConcurrency))
            lines += stop + start
        } else {
            lines.append("// no prefetching: start no prefetcher")
        }
        return lines
    }

    /// The block the summary ends with: the statements, the names they use, and what stays
    /// at the library's default or cannot be set.
    public var text: String {
        var lines = ["Settings to apply — \(preset.source) (docs/libraries.md):"]
        lines += statements.map { "    " + $0 }
        lines.append("  where cellSize is the cell in points, screenScale the screen's scale")
        if diskLimit == nil {
            lines.append("  left at the default: the disk cache (\(library.diskCache)); runs of 2 or more launches try \(ImageLibrary.smallDisk) beside it")
        }
        lines += library.cannotExpress.map { "  not a setting: " + $0 }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `64_424_509`: a Swift integer literal with its thousands grouped.
    static func swiftInteger(_ value: Int64) -> String {
        var digits = Array(String(value))
        var index = digits.count - 3
        while index > 0 {
            digits.insert("_", at: index)
            index -= 3
        }
        return String(digits)
    }

    /// `2 %`, `0.5 %`: `part` of `whole` with at most 2 decimals.
    static func percent(_ part: Int64, of whole: Int64) -> String {
        FixedPoint.ratio(part * 100, whole, decimals: 2).trimmingZeroDecimals() + " %"
    }
}
