/// An iOS image library whose own settings `--library` searches and prints: the preset that
/// follows its release, the variants of that preset an app can choose with the library's own
/// options, and the ladder of memory-cache cost limits, as shares of the device's RAM (how Nuke
/// and Kingfisher size their defaults; SDWebImage's has none).
public enum ImageLibrary: String, CaseIterable, Sendable {
    case nuke
    case kingfisher
    case sdwebimage

    /// The library `text` names; `source` is the option, for the refusal.
    public static func named(_ text: String, source: String) throws -> ImageLibrary {
        guard let library = ImageLibrary(rawValue: text) else {
            throw InputError(source: source, "unknown library \(InputError.quote(text)); expected one of \(allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return library
    }

    /// The library's name as its users write it.
    public var displayName: String {
        switch self {
        case .nuke: "Nuke"
        case .kingfisher: "Kingfisher"
        case .sdwebimage: "SDWebImage"
        }
    }

    /// The preset that follows the library's release (its `source` names the version).
    public var preset: CachePreset {
        switch self {
        case .nuke: .nuke
        case .kingfisher: .kingfisher
        case .sdwebimage: .sdwebimage
        }
    }

    /// The presets searched, as `--preset` takes them: the library as it ships and with each
    /// decoding option it has (downsampling to the cell; Kingfisher's background decoding),
    /// each with its prefetcher's own concurrency and with twice it (`:prefetch=N`). On lte
    /// the prefetcher's concurrency decides the stalls: Nuke's 2 at a time left 163.7 a seed on
    /// the low-end phone (downsampling, its default cost limit, window 20), 3 left 31.3.
    public var variants: [String] { variants(launches: 1) }

    /// The variants for runs of `launches` launches: with more than one, each also with a
    /// disk cache of `smallDisk` (`:disk=50MiB`) — the disk cache is what a later launch finds;
    /// within one, it serves only images the launch already showed, so it is not searched.
    public func variants(launches: Int) -> [String] {
        let decoding = switch self {
        case .nuke, .sdwebimage: [rawValue, rawValue + ":downsample"]
        case .kingfisher: [rawValue, rawValue + ":background-decode", rawValue + ":downsample"]
        }
        let prefetch = decoding.flatMap { [$0, $0 + ":prefetch=\(2 * preset.prefetch.concurrency)"] }
        return launches > 1 ? prefetch.flatMap { [$0, $0 + ":disk=" + Self.smallDisk] } : prefetch
    }

    /// The smaller disk cache searched beside the library's own (Nuke's 150 MiB; no limit for
    /// Kingfisher and SDWebImage) when runs have several launches.
    public static let smallDisk = "50MiB"

    /// The memory-cache cost limits searched: the library's own default, then 0.5 %, 1 %, 2 %,
    /// 4 % and 8 % of the device's RAM (on the low-end phone's 3 GB, 15 MiB to 246 MiB).
    public static let memoryLimits: [CacheSize] = [.setups] + [5_000, 10_000, 20_000, 40_000, 80_000].map { .ramShare(millionths: $0) }

    /// The hitch time ratio a library's recommendation must stay within on every seed, in
    /// thousandths of a ms per second, unless `--max-hitch-ratio` says otherwise: Apple's
    /// "good", under 5 ms/s. Unbounded, Kingfisher as it ships (with its prefetcher's
    /// concurrency doubled) was the low-end phone's answer, decoding full-size images on the
    /// main thread: 77.5 ms/s of hitches, which no one ships knowingly. The main job's policies decode off the main thread and never hitch.
    public static let maxHitchRatio: Int64 = 5_000

    /// How far ahead the app drives the library's prefetcher: the standard matrix's windows.
    public static let windows = StandardMatrix.windows

    /// The library every one of `policies` is a variant of, if they are all one library's
    /// (a `--library` run's results).
    public static func common(to policies: some Sequence<String>) -> ImageLibrary? {
        let libraries = Set(policies.map { of(policy: $0)?.library })
        guard libraries.count == 1, let library = libraries.first else { return nil }
        return library
    }

    /// The library and preset a results row's `policy` cell names when it is one of the
    /// library variants (`nuke:downsample(clock)`); `nil` for anything else.
    public static func of(policy: String) -> (library: ImageLibrary, preset: CachePreset)? {
        guard let open = policy.firstIndex(of: "(") else { return nil }
        let name = String(policy[..<open])
        guard let library = allCases.first(where: { $0.variants(launches: 2).contains(name) }),
              let preset = try? CachePreset.named(name), preset.label == policy else { return nil }
        return (library, preset)
    }
}
