import ArgumentParser
import FeedBench

/// `--library`: search one image library's own knobs instead of FeedBench's policies — its
/// variants (as shipped, downsampling; Kingfisher's background decoding), memory-cache cost
/// limits as shares of the device's RAM and its own default, and prefetch windows — for
/// `bench run`, `sweep` and `tune`. A recommendation of a library's variant ends with the
/// settings to apply in its Swift API (`LibrarySettings`).
struct LibraryOption: ParsableArguments {
    @Option(help: ArgumentHelp("Search this library's own settings (nuke, kingfisher, sdwebimage): its presets with and without downsampling and its prefetcher's concurrency doubled, cost limits of 0.5–8 % of RAM and its default, windows 0–50, within 5 ms/s of hitches unless --max-hitch-ratio says otherwise; the answer ends with the settings in its Swift API (not with --policy or --preset).", valueName: "name"))
    var library: String?

    /// The hitch bound of the ranking: `--max-hitch-ratio`'s when given, else a library's
    /// (`ImageLibrary.maxHitchRatio`) with --library, else none.
    func maxHitchRatio(_ hitches: HitchRatioOption) throws -> Int64? {
        try hitches.bound() ?? (library == nil ? nil : ImageLibrary.maxHitchRatio)
    }

    /// Sets `grid`'s caches to the library's variants (for runs of `launches` launches) and,
    /// where not given, its memory limits and windows. Refuses an unknown library, and
    /// --policy or --preset beside it (`given`: the options the command was given that name
    /// caches).
    func apply(to grid: inout SweepGrid, launches: Int, given: [(option: String, isGiven: Bool)]) throws {
        guard let library else { return }
        let chosen = try ImageLibrary.named(library, source: "--library")
        if let option = given.first(where: \.isGiven)?.option {
            throw InputError(source: "--library", "a library brings its own caches: give --library or \(option), not both")
        }
        grid.presets = chosen.variants(launches: launches).map { SweepGrid.Value($0, source: "--library") }
        if grid.memoryLimits.isEmpty {
            grid.memoryLimits = ImageLibrary.memoryLimits.map { SweepGrid.Value($0 == .setups ? "1x" : $0.description, source: "--library") }
        }
        if grid.windows.isEmpty { grid.windows = ImageLibrary.windows.map { SweepGrid.Value(String($0), source: "--library") } }
    }
}
