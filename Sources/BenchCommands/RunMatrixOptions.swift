import ArgumentParser
import FeedBench

/// The options that say which runs `bench run` and `bench agree` make: a profile, and lists of
/// policies or presets, windows, traces, networks, image widths, memory limits and seeds, whose
/// product is the runs (the standard matrix's axes where a list is not given).
struct RunMatrixOptions: ParsableArguments {
    @Option(help: ArgumentHelp("A built-in profile (low-end, mid, high-end, tablet) or a profile JSON file.", valueName: "name|file"))
    var profile: String

    @Option(help: ArgumentHelp("Comma-separated memory-cache policies, with :key=value parameters (default: lru,lfu,fifo,ttl:max-age=300). Ages are in seconds.", valueName: "list"))
    var policy: String?

    @Option(help: ArgumentHelp("Comma-separated presets (default, aggressive, conservative, nuke, nuke@main, kingfisher, sdwebimage) with :parameters (nuke:downsample), instead of --policy; bench presets lists what each does.", valueName: "list"))
    var preset: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Comma-separated prefetch windows: N ahead, N+M ahead and behind, Xscreens, device, velocity, adaptive[:N] (default: 0,5,10,20,30,50).", valueName: "list"))
    var window: String?

    @Option(help: ArgumentHelp("How a launch fills the feed: cacheFirst, networkFirst, cacheAndNetwork, networkOnly, cacheOnly, cacheWithTimeout:2s, preload.", valueName: "strategy"))
    var strategy: String = "cacheFirst"

    @Option(help: ArgumentHelp("Comma-separated behaviours (reader, browser, skimmer, revisitor) or recorded t_ms,offset_pt CSV files (default: browser,skimmer).", valueName: "list"))
    var trace: String?

    @Option(help: .network)
    var network: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Comma-separated memory-cache cost limits: sizes with a unit (200MB, 150MiB), multiples of the profile's (0.25x), or shares of the device's RAM (2%ram) (default: 0.03125x,0.0625x,0.125x,0.25x,0.5x,1x; a preset's own limit).", valueName: "list"))
    var memoryLimit: String?

    @Option(parsing: .unconditional, help: .imageWidth)
    var imageWidth: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Comma-separated seeds of the runs' random generators; the ranking is over their mean and shows their spread (default: 1,2,3).", valueName: "list"))
    var seed: String?

    /// The runs' grid (without the session options, which the command applies), with
    /// `library`'s knobs (for runs of `launches` launches) when it names one, and `widths` when
    /// --image-width is not given. Throws an `InputError` when both --policy and
    /// --preset are given, or either with --library.
    func grid(library: LibraryOption? = nil, launches: Int = 1, widths: [ImageWidth] = [.full]) throws -> SweepGrid {
        if policy != nil && preset != nil {
            throw InputError(source: "--preset", "a preset brings its own policy: give --policy or --preset, not both")
        }
        var grid = SweepGrid()
        grid.profiles = [SweepGrid.Value(profile, source: "--profile")]
        grid.networks = network.map { [SweepGrid.Value($0, source: "--network")] } ?? []
        grid.policies = SweepGrid.values(policy, option: "--policy")
        grid.presets = SweepGrid.values(preset, option: "--preset")
        grid.memoryLimits = SweepGrid.values(memoryLimit, option: "--memory-limit")
        grid.windows = SweepGrid.values(window, option: "--window")
        grid.imageWidths = SweepGrid.values(imageWidth, option: "--image-width")
        if grid.imageWidths.isEmpty && widths != [.full] {
            grid.imageWidths = widths.map { SweepGrid.Value($0.description, source: "--image-width") }
        }
        try grid.addTraces(SweepGrid.values(trace, option: "--trace"))
        grid.strategies = [SweepGrid.Value(strategy, source: "--strategy")]
        grid.seeds = SweepGrid.values(seed, option: "--seed")
        try library?.apply(to: &grid, launches: launches, given: [("--policy", policy != nil), ("--preset", preset != nil)])
        // The standard matrix's own axes where a sweep's grid has other defaults.
        if grid.seeds.isEmpty { grid.seeds = StandardMatrix.seeds.map { SweepGrid.Value(String($0), source: "--seed") } }
        if grid.memoryLimits.isEmpty && grid.presets.isEmpty {
            grid.memoryLimits = StandardMatrix.memoryLimits.map { SweepGrid.Value($0.description, source: "--memory-limit") }
        }
        return grid
    }
}
