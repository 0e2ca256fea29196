import ArgumentParser
import FeedBench
import Foundation

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Simulate scroll sessions and write the results CSV (the default command).",
        discussion: """
        With only --profile, runs that profile's standard matrix — images asked at the cell's \
        width and at full size × policies lru, lfu, fifo and ttl (5-minute lifetime) × memory \
        caches 1/32, 1/16, ⅛, ¼, ½ and 1 × the profile's × prefetch windows 0, 5, 10, 20, 30, \
        50 × the browser and skimmer behaviours × seeds 1, 2, 3, on the networks the profile's \
        users are on — writes results/<profile>.csv and prints the configurations ranked by \
        mean stalls among those that stay within the profile's memory limit on every seed; of \
        those within the seeds' noise of the fewest stalls, the smallest cache (then the fewest \
        bytes downloaded) is recommended, never a width below the cell's pixels. Every other \
        option narrows or replaces one axis of that matrix.

        With --library nuke, kingfisher or sdwebimage, the matrix is that library's own \
        settings instead: its preset as shipped and with each decoding option it has, each \
        with its prefetcher's concurrency and twice it, memory cache cost limits of 0.5, 1, 2, \
        4 and 8 % of the device's RAM and the library's own default, and windows 0 to 50, \
        ranked within 5 ms/s of hitches (Apple's good) unless --max-hitch-ratio says \
        otherwise. The summary ends with the settings to apply in the library's Swift API, and \
        bench apply turns several profiles' results into one Swift file.

        Only the standard matrix as it stands writes results/<profile>.csv, the committed \
        baseline. Any other option that changes the runs (all but --out, --per-launch, \
        --timeline and --jobs) writes, without --out, a file named after the options given: \
        results/low-end+network-3g.csv (cut, with a hash of them all, past 80 characters).

        The same arguments always write the same bytes, whatever --jobs is.

        Examples:
          bench --profile low-end
          bench run --profile mid --policy lru,s3fifo --window 0,20 --network 3g
          bench run --profile tablet --preset nuke,kingfisher --launches 3
          bench run --profile low-end --library kingfisher
          bench run --profile my-phone.json --trace my-recording.csv

        With --live URL, runs one configuration (one policy or preset, memory limit, window, \
        trace and seed; one launch) in real time against the feed API and images at URL — \
        bench serve started with the same --seed serves the feed the simulation sees — and writes \
        the same columns, the scenario ending in ;mode=live. Disk reads and decodes keep their \
        modelled durations; the network is measured. A progress line on stderr shows the seconds \
        run, displays, stalls and frames handled more than a frame late. A server that cannot \
        be reached or answers something else than the feed API is refused (exit 2, no file):
          bench serve --network 3g --seed 1 &
          bench run --live http://127.0.0.1:8080 --profile low-end --network 3g --policy lru \
            --memory-limit 1x --window 20 --trace browser --seed 1 --duration 30s

        Docs: docs/main-job.md, docs/model.md, docs/results.md; --library: docs/libraries.md; --live: docs/live-runs.md.
        """
    )

    @OptionGroup var matrix: RunMatrixOptions

    @Option(help: .networks)
    var networks: String?

    @OptionGroup var library: LibraryOption

    @Option(help: ArgumentHelp("Also write each launch's figures here (CSV).", valueName: "file"))
    var perLaunch: String?

    @Option(help: ArgumentHelp("Also write each simulated second of every run here (CSV: memory by part, stalls, requests, evictions, warnings, kills).", valueName: "file"))
    var timeline: String?

    @Option(help: ArgumentHelp("Also write the requests the run sends, in bench serve --log's columns, to compare with an app's session against bench serve (one run only: give one policy or preset, memory limit, window, trace and seed).", valueName: "file"))
    var requests: String?

    @Option(help: ArgumentHelp("Also write every display — when its cell came on screen, how its image was found, when the cell showed it and whether it stalled — to set beside --requests (one run only; CSV).", valueName: "file"))
    var displays: String?

    @OptionGroup var session: SessionOptions

    @OptionGroup var hitches: HitchRatioOption

    @Option(help: ArgumentHelp("Where to write the results CSV (default: results/<profile>.csv for the standard matrix, else a name built from the options given, e.g. results/low-end+network-3g.csv).", valueName: "file"))
    var out: String?

    @OptionGroup var jobs: JobsOption

    @Option(help: ArgumentHelp("Run the one configuration in real time against this server of the feed API (bench serve) instead of simulating it.", valueName: "URL"))
    var live: String?

    @Option(help: ArgumentHelp("With --live: trust this PEM certificate as the server's root (bench serve --tls's own, or --tls-cert's) instead of the system's roots.", valueName: "file"))
    var liveCA: String?

    @Option(help: ArgumentHelp("How the configurations are searched: screened (every configuration on the first seed, the remaining seeds only for those within 15 % of the best there; the default over a population of networks) or full (every seed of every configuration; the default on one network).", valueName: "screened|full"))
    var search: MainJobSearch?

    @Option(help: ArgumentHelp("Keep each run's SQLite feed store in this folder (one file per run, named after its identity) and continue from it on the next invocation (default: a fresh in-memory store per run).", valueName: "folder"))
    var store: String?

    func run() throws {
        let started = DispatchTime.now()
        let maxHitchRatio = try library.maxHitchRatio(hitches)
        var grid = try matrix.grid(library: library, launches: session.launches ?? 1, widths: StandardMatrix.imageWidths)
        try session.apply(to: &grid.session)
        // One run's diagnostics, and a captured workload (its sizes are what the app asked for),
        // keep the original width unless --image-width says otherwise.
        if matrix.imageWidth == nil && (live != nil || requests != nil || displays != nil || grid.session.workload != nil) {
            grid.imageWidths = []
        }
        let population = try self.population(workload: grid.session.workload != nil)
        if let population {
            grid.networks = population.members.map { SweepGrid.Value($0.reference, source: networks ?? "--networks") }
        }
        let plan = try SweepPlan(grid)
        let device = plan.profiles[0]

        let jobs = try self.jobs.checked()
        let destination = out ?? ResultsFileName.path(profile: device.name, changes: changes)
        try OutputPath.check([.file(destination, option: "--out")] + [
            perLaunch.map { .file($0, option: "--per-launch") }, timeline.map { .file($0, option: "--timeline") },
            requests.map { .file($0, option: "--requests") }, displays.map { .file($0, option: "--displays") },
            store.map { .folder($0, option: "--store") },
        ].compactMap { $0 })

        for (path, option) in [(requests, "--requests"), (displays, "--displays")] where path != nil && plan.configurations.count != 1 {
            throw InputError(source: option, "expected options that make one run (one policy or preset, memory limit, window, image width, trace and seed), found \(plan.configurations.count) runs")
        }
        let prepare = { (run: RunConfiguration) -> RunConfiguration in
            var run = run
            run.recording.timeline = timeline != nil
            run.recording.requests = requests != nil
            run.recording.displays = displays != nil
            return run
        }
        let results: [RunResult]
        if liveCA != nil && live == nil {
            throw InputError(source: "--live-ca", "expected --live too: it names the live server's certificate")
        }
        if let live {
            results = [try Self.runLive(plan.configurations.map(prepare), server: live, store: store, certificate: liveCA, httpAsked: session.http != nil)]
        } else {
            if let store { try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: true) }
            var bar = ProgressBar(label: "run")
            switch search ?? (population != nil ? .screened : .full) {
            case .screened:
                let criteria = MatrixSummary.criteria(for: device, maxHitchRatio: maxHitchRatio, weighted: population != nil)
                results = try ScreenedSearch.run(plan, criteria: criteria, weights: population?.weights, jobs: jobs,
                                                 storeDirectory: store, prepare: prepare) { bar.update($0, of: $1) }
            case .full:
                let runs = plan.configurations.map(prepare)
                results = try RunBatch.run(runs, groups: plan.sharingGroups, jobs: jobs,
                                           storeDirectory: store) { bar.update($0, of: runs.count) }
            }
            bar.finish()
        }
        let displayed = results.reduce(0) { $0 + $1.displays }
        guard displayed > 0 else { throw InputError.noDisplays(source: "run", runs: results.count) }
        for path in [destination, perLaunch, timeline, requests, displays].compactMap({ $0 }) { CommandOutput.createFolder(of: path) }
        // Every output or none: a disk that fills on the timeline leaves no --out either.
        var outputs = [(contents: RunResult.csv(results), path: destination)]
        if let perLaunch { outputs.append((LaunchFigures.csv(results), perLaunch)) }
        if let timeline { outputs.append((TimelineSecond.csv(results), timeline)) }
        if let requests { outputs.append((RequestLogFile.csv(results[0].requests), requests)) }
        if let displays { outputs.append((DisplayLogFile.csv(results[0].displayLog), displays)) }
        try AtomicFile.write(all: outputs)

        let style = TerminalStyle.forDescriptor(1, environment: ProcessInfo.processInfo.environment)
        let runsRanked = results.map(MatrixSummary.Run.init)
        var summary: (table: String, settings: String)
        if let population {
            let answer = PopulationSummary(profile: device, runs: runsRanked, population: population, maxHitchRatio: maxHitchRatio)
            summary = (answer.table(style: style), LibrarySettings.summary(of: answer.overall.recommended, on: device))
            if answer.split?.beatsSingle == true {
                // A library's settings per path, after its one setting's.
                for setting in answer.paths {
                    let text = LibrarySettings.summary(of: setting.summary.recommended, on: device)
                    summary.settings += text.replacingOccurrences(of: "Settings to apply —", with: "Settings to apply on \(setting.path.rawValue) —")
                }
            }
        } else {
            let answer = MatrixSummary(profile: device, runs: runsRanked, maxHitchRatio: maxHitchRatio)
            summary = (answer.table(style: style), LibrarySettings.summary(of: answer.recommended, on: device))
        }
        // How far ns-3 holds each network simulated (a live run's network is measured instead).
        let simulated = live != nil ? [] : plan.simulatedNetworks
        let agreement = NetworkAgreement.lines(networks: simulated, workloads: plan.firstProfileWorkloads).map { $0 + "\n" }.joined()
        FileDescriptorOutput.write(summary.table + agreement + summary.settings, to: 1)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        let shared = results.filter(\.isShared).count
        let runs = shared == 0 ? "\(results.count) runs" : "\(results.count) runs (\(shared) shared with an identical run)"
        FileDescriptorOutput.write("wrote \(destination): \(runs), \(displayed) displays in \(String(format: "%.2f", seconds)) s\n", to: 2)
    }

    /// The population the runs answer for: --networks', else a built-in profile's own unless
    /// --network names one network or the runs are one run's diagnostics (--live, --requests,
    /// --displays) or a captured workload's (which brings its own network).
    func population(workload: Bool) throws -> NetworkPopulation? {
        if let networks {
            return try BenchCommands.population(networks, network: matrix.network, live: live != nil, workload: workload)
        }
        guard matrix.network == nil, live == nil, requests == nil, displays == nil, !workload,
              let profile = DeviceProfile.builtIn.first(where: { $0.name == matrix.profile }),
              let name = NetworkPopulation.defaultName(for: profile) else { return nil }
        return try NetworkPopulation.builtIn(named: name, source: "--profile")
    }

    /// The options given that change the runs from the profile's standard matrix, without
    /// their dashes, with their values (a recorded trace and a store by their names, not paths).
    var changes: [(option: String, value: String)] {
        func name(_ path: String) -> String { URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent }
        let traces = matrix.trace.map { list in
            list.split(separator: ",", omittingEmptySubsequences: false).map { item in
                ScrollBehavior(rawValue: String(item)) == nil ? name(String(item)) : String(item)
            }.joined(separator: ",")
        }
        let options: [(String, String?)] = [
            ("--library", library.library), ("--policy", matrix.policy), ("--preset", matrix.preset), ("--window", matrix.window), ("--image-width", matrix.imageWidth), ("--strategy", matrix.strategy == "cacheFirst" ? nil : matrix.strategy),
            ("--trace", traces), ("--network", matrix.network), ("--networks", networks.map { NetworkPopulation.builtInNames.contains($0) ? $0 : name($0) }), ("--memory-limit", matrix.memoryLimit), ("--seed", matrix.seed), ("--search", search?.rawValue),
        ] + session.changes.map { ($0.option, $0.value) } + [("--store", store.map(name)), ("--live", live.map { _ in "" }),
                                                             ("--live-ca", liveCA.map(name))]
        return options.compactMap { option, value in value.map { (String(option.dropFirst(2)), $0) } }
    }
}

/// How `bench run` searches its configurations (`--search`).
enum MainJobSearch: String, ExpressibleByArgument, CaseIterable {
    /// `ScreenedSearch`: the first seed for all, every seed for the contenders.
    case screened
    /// Every seed of every configuration.
    case full
}
