import ArgumentParser
import FeedBench
import Foundation

struct SweepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sweep",
        abstract: "Run the cartesian product of profiles, networks, image widths, policies, limits, windows, workloads, strategies and seeds.",
        discussion: """
        The grid comes from a JSON or YAML config (--config), from the flags below (each \
        repeatable and comma-separated), or both — a flag replaces the config's list for its \
        axis. Config keys: \(SweepConfigFile.axisKeys.joined(separator: ", ")) (lists) and \
        \(SweepConfigFile.settingKeys.joined(separator: ", ")). An absent axis takes the default: \
        the four built-in profiles; each profile's network, memory- and disk-cache limits; \
        images at full size; policies lru, lfu, fifo, ttl:max-age=300; windows 0, 5, 10, 20, 30, 50; behaviours \
        browser and skimmer; strategy cacheFirst; seed 1.

        Rows come out in grid order — profiles, networks, image widths, caches (policies, then presets), \
        memory limits, disk limits, windows, workloads (behaviours, then traces), strategies, \
        seeds, the last varying fastest — and are the same bytes whatever --jobs is. Two columns \
        follow the results columns: sweep_run (the run's place, 17/1000) and sweep_grid (the \
        grid's fingerprint). With more than one seed, each configuration's seed rows are followed \
        by its mean, min and max rows (seed = mean, min, max).

        Ctrl-C or SIGTERM: the runs under way finish and the file is written with every finished \
        run (exit status 130 or 143); the same command with --resume runs only the missing ones \
        and writes the bytes an uninterrupted sweep would. --shard K/N runs every N-th run from \
        the K-th; `bench merge` joins the shards. --shard auto takes K and N from the job \
        engine's task: Kubernetes JOB_COMPLETION_INDEX (0-based, with --shard-count N), Slurm \
        SLURM_ARRAY_TASK_ID − SLURM_ARRAY_TASK_MIN of SLURM_ARRAY_TASK_COUNT, GitLab \
        CI_NODE_INDEX (1-based) of CI_NODE_TOTAL, Buildkite BUILDKITE_PARALLEL_JOB of \
        BUILDKITE_PARALLEL_JOB_COUNT, CircleCI CIRCLE_NODE_INDEX of CIRCLE_NODE_TOTAL (both \
        0-based); a GitHub Actions matrix passes K/N itself. The examples/ folder has a workflow, \
        a Kubernetes Indexed Job and a Slurm array.

        Examples:
          bench sweep --config sweep.json --out sweep.csv
          bench sweep --profile low-end,mid --policy lru,lfu --window 0,10,20 --seed 1,2,3
          bench sweep --config sweep.yaml --shard 2/4 --out shard-2.csv
          bench sweep --config sweep.yaml --shard auto --out shard-$SLURM_ARRAY_TASK_ID.csv

        Docs: docs/sweeps.md.
        """
    )

    @Option(help: ArgumentHelp("A JSON or YAML file of axes (see above).", valueName: "file"))
    var config: String?

    @Option(help: ArgumentHelp("Profiles: built-in names or profile JSON files.", valueName: "list"))
    var profile: [String] = []

    @Option(help: ArgumentHelp("Network presets (wifi, dsl, lte, 3g, edge, very-bad, verizon-lte, tmobile-lte, att-lte-driving, tmobile-umts-driving) or network files.", valueName: "list"))
    var network: [String] = []

    @Option(help: ArgumentHelp("A population's networks as the network axis (phones, tablets or a population JSON file, as bench run takes it): bench report ranks a built-in one's runs by its shares. Not with --network.", valueName: "name|file"))
    var networks: String?

    @Option(help: ArgumentHelp("Memory-cache policies, with :key=value parameters.", valueName: "list"))
    var policy: [String] = []

    @Option(help: ArgumentHelp("Presets (default, aggressive, conservative, nuke, nuke@main, kingfisher, sdwebimage) with :parameters (nuke:downsample); bench presets lists them.", valueName: "list"))
    var preset: [String] = []

    @Option(parsing: .unconditionalSingleValue, help: ArgumentHelp("Memory-cache cost limits with a unit (e.g. 100MB).", valueName: "list"))
    var memoryLimit: [String] = []

    @Option(parsing: .unconditionalSingleValue, help: ArgumentHelp("Disk-cache limits with a unit (e.g. 150MB).", valueName: "list"))
    var diskLimit: [String] = []

    @Option(parsing: .unconditionalSingleValue, help: .imageWidth)
    var imageWidth: [String] = []

    @Option(parsing: .unconditionalSingleValue, help: ArgumentHelp("Prefetch windows (N, N+M, Xscreens, device, velocity, adaptive[:N]).", valueName: "list"))
    var window: [String] = []

    @Option(help: ArgumentHelp("Scroll behaviours (reader, browser, skimmer, revisitor).", valueName: "list"))
    var behavior: [String] = []

    @Option(help: ArgumentHelp("Behaviours or recorded t_ms,offset_pt CSV traces, as bench run takes them.", valueName: "list"))
    var trace: [String] = []

    @Option(help: ArgumentHelp("Launch strategies (cacheFirst, networkFirst, …).", valueName: "list"))
    var strategy: [String] = []

    @Option(parsing: .unconditionalSingleValue, help: ArgumentHelp("Seeds.", valueName: "list"))
    var seed: [String] = []

    @OptionGroup var library: LibraryOption

    @OptionGroup var session: SessionOptions

    @Option(help: ArgumentHelp("Run only shard K of N (e.g. 2/4), or `auto`: the shard the job engine's task is (Kubernetes, Slurm, GitLab, Buildkite, CircleCI).", valueName: "K/N|auto"))
    var shard: String?

    @Option(help: ArgumentHelp("With --shard auto: the number of shards, where the engine does not say (a Kubernetes Indexed Job's completions).", valueName: "N"))
    var shardCount: Int?

    @Flag(help: "Keep the runs already in --out (from an interrupted sweep of the same grid) and run the rest.")
    var resume = false

    @Option(help: ArgumentHelp("Where to write the results CSV.", valueName: "file"))
    var out: String = "results/sweep.csv"

    @OptionGroup var jobs: JobsOption

    func run() throws {
        let started = DispatchTime.now()
        var grid = try config.map { try SweepConfigFile.read(path: $0) } ?? SweepGrid()
        var flags = SweepGrid()
        flags.profiles = SweepGrid.values(profile, option: "--profile")
        flags.networks = SweepGrid.values(network, option: "--network")
        if let networks {
            guard network.isEmpty else {
                throw InputError(source: "--networks", "expected --network or --networks, not both: a list of networks or a population's")
            }
            flags.networks = try PopulationFile.resolve(networks, option: "--networks").members.map { SweepGrid.Value($0.reference, source: networks) }
        }
        flags.policies = SweepGrid.values(policy, option: "--policy")
        flags.presets = SweepGrid.values(preset, option: "--preset")
        flags.memoryLimits = SweepGrid.values(memoryLimit, option: "--memory-limit")
        flags.diskLimits = SweepGrid.values(diskLimit, option: "--disk-limit")
        flags.windows = SweepGrid.values(window, option: "--window")
        flags.imageWidths = SweepGrid.values(imageWidth, option: "--image-width")
        flags.behaviors = SweepGrid.values(behavior, option: "--behavior")
        try flags.addTraces(SweepGrid.values(trace, option: "--trace"))
        flags.strategies = SweepGrid.values(strategy, option: "--strategy")
        flags.seeds = SweepGrid.values(seed, option: "--seed")
        grid.override(with: flags)
        try session.apply(to: &grid.session)
        try library.apply(to: &grid, launches: grid.session.launches, given: [("--policy", !grid.policies.isEmpty), ("--preset", !grid.presets.isEmpty)])
        let jobs = try self.jobs.checked()
        let shard = try chosenShard()
        let plan = try SweepPlan(grid)
        try OutputPath.check([.file(out, option: "--out")])
        CommandOutput.createFolder(of: out)

        let interruption = Interruption { _ in
            FileDescriptorOutput.write("\nstopping: finishing the runs under way (Ctrl-C again to quit at once)\n", to: 2)
        }
        var bar = ProgressBar(label: "sweep")
        let summary = try SweepJob(plan: plan, shard: shard, destination: out)
            .run(jobs: jobs, resume: resume, stop: interruption.request) { bar.update($0, of: $1) }
        bar.finish()

        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        let rate = seconds > 0 ? Double(summary.simulated) / seconds : 0
        let part = shard == .whole ? "" : " (shard \(shard) of a \(plan.count)-run grid)"
        let resumed = summary.resumed > 0 ? ", \(summary.resumed) kept from before" : ""
        let written = summary.resumed + summary.simulated
        switch summary.outcome {
        case .finished:
            FileDescriptorOutput.write("wrote \(out): \(written) runs\(part)\(resumed); \(summary.simulated) simulated in \(FixedPoint.decimal(seconds, decimals: 2)) s (\(FixedPoint.decimal(rate, decimals: 1)) runs/s); grid \(plan.fingerprint)\n", to: 2)
        case .stopped:
            FileDescriptorOutput.write("interrupted: wrote \(out) with \(written) of \(summary.runs) runs\(part); the same command with --resume runs the rest\n", to: 2)
            throw ExitCode(interruption.exitStatus)
        }
    }

    /// --shard K/N, or the job engine's with --shard auto; the whole grid without --shard.
    func chosenShard() throws -> Shard {
        switch shard {
        case nil:
            guard shardCount == nil else { throw InputError(source: "--shard-count", "expected only with --shard auto") }
            return .whole
        case "auto":
            return try JobEngineShard.shard(environment: ProcessInfo.processInfo.environment, count: shardCount)
        case let text?:
            guard shardCount == nil else { throw InputError(source: "--shard-count", "expected only with --shard auto; --shard \(text) gives the count") }
            return try Shard.parse(text, source: "--shard")
        }
    }
}
