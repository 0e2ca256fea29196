import ArgumentParser
import FeedBench
import Foundation

struct TuneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tune",
        abstract: "Find the best policy, memory-cache limit and prefetch window for a profile, over several seeds.",
        discussion: """
        Candidates are every image width × policy (and preset) × memory-cache limit × window \
        (× strategy) given, each scored on every workload (default: the browser and skimmer behaviours) and \
        every seed. A candidate is feasible when, on every seed, it meets each --constraint, \
        stays within --memory-budget (default: the profile's memory-warning threshold), is \
        never killed and asks for images at least as wide as the cell's pixels. The recommendation is the feasible candidate with the best mean \
        objective (ties: lower mean p95 stall, then fewer bytes downloaded — bench run's rule — \
        then lower peak memory, then fewer requests).

        Search: spaces of at most 500 runs are searched exhaustively; larger ones by successive \
        halving over seeds — every candidate on one seed, the best third (and any tied with the \
        last kept) on three, the best third of those on all seeds (η = 3) — which simulates \
        about a third as many runs. --search exhaustive or halving forces one.

        Prints the Pareto front of the fully evaluated feasible candidates (memory limit, \
        stalls, p95 stall, peak memory, requests and the objective: none beaten on all at once) \
        and the recommendation with its mean, min and max over the seeds, with a note when it \
        is the smallest or largest memory limit or the largest window tried; writes the front \
        as CSV. On a terminal, a progress bar on stderr shows the runs done.

        Defaults: policies lru, lfu, fifo, ttl:max-age=300; memory limits ¼, ½, 1 and 1½ × the \
        profile's memory cache; windows 0, 5, 10, 20, 30, 50; 5 seeds; the profile's network \
        (--networks tunes for a population of them, as bench run's main job answers).

        With --results, nothing is simulated: the candidates are the configurations in the \
        files (a bench sweep's output, merged shards, bench run's), each scored on the seed rows \
        it has, over every workload; a sweep's mean/min/max rows are checked against its seed \
        rows. --profile and --network pick among the files' when they hold several, and \
        --networks reads a population's networks, each weighted by its share as bench run \
        ranks them (bench tune --results low-end.csv --networks phones, on a main job's file: \
        the configurations a screened one ran on the first seed only are left out, and counted; \
        --search full gives every configuration every seed); the options that \
        shape a search (--policy … --seeds, --search, the session options) are refused.

        Examples:
          bench tune --profile low-end
          bench tune --profile mid --memory-budget 150MB --objective stall_p95
          bench tune --profile low-end --policy lru,s3fifo,sieve --constraint requests<=700
          bench tune --profile low-end --networks phones --seeds 3
          bench sweep --config sweep.yaml --out sweep.csv && bench tune --results sweep.csv --profile mid

        Docs: docs/tuning.md.
        """
    )

    @Option(help: ArgumentHelp("A built-in profile or a profile JSON file (with --results: optional when the files hold one profile).", valueName: "name|file"))
    var profile: String?

    @Option(help: ArgumentHelp("Tune over the runs in this results CSV instead of simulating; repeatable.", valueName: "file"))
    var results: [String] = []

    @Option(help: ArgumentHelp("Comma-separated policies to consider.", valueName: "list"))
    var policy: [String] = []

    @Option(help: ArgumentHelp("Comma-separated presets to consider as well (nuke, kingfisher:downsample; bench presets lists them).", valueName: "list"))
    var preset: [String] = []

    @Option(parsing: .unconditionalSingleValue, help: ArgumentHelp("Comma-separated memory-cache limits with a unit to consider (e.g. 50MB,100MB).", valueName: "list"))
    var memoryLimit: [String] = []

    @Option(parsing: .unconditionalSingleValue, help: ArgumentHelp("Comma-separated prefetch windows to consider.", valueName: "list"))
    var window: [String] = []

    @Option(parsing: .unconditionalSingleValue, help: .imageWidth)
    var imageWidth: [String] = []

    @Option(help: ArgumentHelp("Comma-separated launch strategies to consider.", valueName: "list"))
    var strategy: [String] = []

    @Option(help: ArgumentHelp("Comma-separated behaviours to score on.", valueName: "list"))
    var behavior: [String] = []

    @Option(help: ArgumentHelp("Comma-separated behaviours or recorded traces to score on, as bench run takes them.", valueName: "list"))
    var trace: [String] = []

    @Option(help: ArgumentHelp("Network preset; default: the profile's.", valueName: "name"))
    var network: String?

    @Option(help: ArgumentHelp("A population of networks to tune for (phones, tablets or a population JSON file, as bench run takes it): each candidate's stalls on every network, weighted by its share; the memory budget holds on each. Only with --objective stalls.", valueName: "name|file"))
    var networks: String?

    @Option(parsing: .unconditional, help: "Seeds each finalist is scored on (seeds 1…N; at least 2; default 5).")
    var seeds: Int?

    @Option(help: ArgumentHelp("What to minimise: \(TuneFigure.objectives.map(\.name).joined(separator: ", ")).", valueName: "figure"))
    var objective: String = "stalls"

    @Option(parsing: .unconditional, help: ArgumentHelp("Peak tracked memory allowed on every seed, with a unit (e.g. 800MB; default: the profile's memory-warning threshold).", valueName: "size"))
    var memoryBudget: String?

    @Option(help: ArgumentHelp("FIGURE<=VALUE or FIGURE<VALUE on every seed, repeatable; figures: \(TuneFigure.all.map(\.name).joined(separator: ", ")).", valueName: "bound"))
    var constraint: [String] = []

    @OptionGroup var hitches: HitchRatioOption

    @OptionGroup var library: LibraryOption

    @Option(help: ArgumentHelp("auto (the default), exhaustive or halving.", valueName: "method"))
    var search: String?

    @OptionGroup var session: SessionOptions

    @Option(help: ArgumentHelp("Where to write the front (default: results/<profile>-tune.csv).", valueName: "file"))
    var out: String?

    @OptionGroup var jobs: JobsOption

    func run() throws {
        let started = DispatchTime.now()
        var objective = try TuneFigure.named(self.objective, among: TuneFigure.objectives, source: "--objective")
        if networks != nil {
            guard objective == .stalls else {
                throw InputError(source: "--networks", "expected --objective stalls with a population (its stalls weighted by each network's share), found \(InputError.quote(objective.name))")
            }
            objective = .weightedStalls
        }
        let report = try results.isEmpty ? simulate(objective: objective) : readResults(objective: objective)
        let destination = self.destination(for: report.profile)
        CommandOutput.createFolder(of: destination)
        try AtomicFile.write(report.csv, to: destination)
        FileDescriptorOutput.write(report.table, to: 1)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        FileDescriptorOutput.write("wrote \(destination): \(report.front.count) configurations on the front; \(report.origin) in \(FixedPoint.decimal(seconds, decimals: 2)) s\n", to: 2)
    }

    /// Where the front goes.
    func destination(for profile: DeviceProfile) -> String { out ?? "results/\(profile.name)-tune.csv" }

    /// Searches the space the options describe, simulating its runs.
    func simulate(objective: TuneFigure) throws -> TuneReport {
        guard let profile else {
            throw InputError(source: "--profile", "expected a built-in profile or a profile JSON file to tune for (or --results with runs to read)")
        }
        let seeds = self.seeds ?? 5
        guard (2...1_000).contains(seeds) else { throw InputError(source: "--seeds", "expected 2...1000 seeds, found \(seeds)") }
        let search = self.search ?? TuneMethod.auto.rawValue
        guard let method = TuneMethod(rawValue: search) else {
            throw InputError(source: "--search", "expected one of \(TuneMethod.allCases.map(\.rawValue).joined(separator: ", ")), found \(InputError.quote(search))")
        }
        let device = try DeviceProfile.named(profile)

        var grid = SweepGrid()
        grid.profiles = [SweepGrid.Value(profile, source: "--profile")]
        grid.networks = network.map { [SweepGrid.Value($0, source: "--network")] } ?? []
        let population = try networks.map { try BenchCommands.population($0, network: network, workload: session.workload != nil) }
        if let population {
            grid.networks = population.members.map { SweepGrid.Value($0.reference, source: networks ?? "--networks") }
        }
        grid.policies = SweepGrid.values(policy, option: "--policy")
        grid.presets = SweepGrid.values(preset, option: "--preset")
        grid.memoryLimits = SweepGrid.values(memoryLimit, option: "--memory-limit")
        grid.windows = SweepGrid.values(window, option: "--window")
        grid.imageWidths = SweepGrid.values(imageWidth, option: "--image-width")
        try library.apply(to: &grid, launches: session.launches ?? 1, given: [("--policy", !policy.isEmpty), ("--preset", !preset.isEmpty)])
        if grid.memoryLimits.isEmpty {
            grid.memoryLimits = [1, 2, 4, 6].map { quarters in
                SweepGrid.Value("\(device.memoryCacheBytes / 4 * Int64(quarters))B", source: "--memory-limit")
            }
        }
        grid.strategies = SweepGrid.values(strategy, option: "--strategy")
        grid.behaviors = SweepGrid.values(behavior, option: "--behavior")
        try grid.addTraces(SweepGrid.values(trace, option: "--trace"))
        grid.seeds = (1...seeds).map { SweepGrid.Value(String($0), source: "--seeds") }
        try session.apply(to: &grid.session)

        let tuning = TuneSearch(space: try TuneSpace(plan: SweepPlan(grid), population: population), criteria: try criteria(objective: objective, device: device))
        let jobs = try self.jobs.checked()
        try OutputPath.check([.file(destination(for: device), option: "--out")])
        var bar = ProgressBar(label: "tune")
        let outcome = try tuning.run(method: method, jobs: jobs) { bar.update($0, of: $1) }
        bar.finish()
        guard outcome.candidates.contains(where: { $0.samples.contains { $0.displays > 0 } }) else {
            throw InputError.noDisplays(source: "tune", runs: outcome.runs)
        }
        return TuneReport(profile: device, search: tuning, outcome: outcome)
    }

    /// Scores the configurations the `--results` files hold.
    func readResults(objective: TuneFigure) throws -> TuneReport {
        let shaping = [("--library", library.library != nil), ("--policy", !policy.isEmpty), ("--preset", !preset.isEmpty), ("--memory-limit", !memoryLimit.isEmpty),
                       ("--window", !window.isEmpty), ("--image-width", !imageWidth.isEmpty), ("--strategy", !strategy.isEmpty), ("--behavior", !behavior.isEmpty),
                       ("--trace", !trace.isEmpty), ("--seeds", seeds != nil), ("--search", search != nil)]
            .filter(\.1).map(\.0) + session.given
        if let option = shaping.first {
            throw InputError(source: "--results", "expected no \(option) with --results: the files' runs are what is scored (give it to bench sweep instead)")
        }
        let device = try profile.map(DeviceProfile.named)
        let population = try networks.map { try BenchCommands.population($0, network: network, workload: false) }
        let files = try results.map(ResultsFile.read(path:))
        let found = try TuneResults(files, profile: device?.name, network: network, population: population)
        let tuned: DeviceProfile
        if let device {
            tuned = device
        } else {
            do {
                tuned = try DeviceProfile.named(found.profile)
            } catch is InputError {
                throw InputError(source: "--profile", "expected the JSON file of the results' profile \(InputError.quote(found.profile)), which is not built in (its memory-warning threshold is the default budget)")
            }
        }
        try OutputPath.check([.file(destination(for: tuned), option: "--out")])
        if found.seeds.count < 5 {
            FileDescriptorOutput.write("note: \(found.seeds.count) seed\(found.seeds.count == 1 ? "" : "s") per configuration; a spread over seeds wants 5 or more (bench sweep --seed 1,2,3,4,5)\n", to: 2)
        }
        let source = results.count == 1 ? results[0] : "\(results.count) results files"
        // A library's runs (bench run or sweep --library) are ranked as --library ranks them.
        let ofLibrary = ImageLibrary.common(to: found.candidates.map(\.policy)) != nil
        return TuneReport(profile: tuned, criteria: try criteria(objective: objective, device: tuned, library: ofLibrary), candidates: found.candidates,
                          seeds: found.seeds.count, origin: "read from \(source), \(found.runs) runs" + screenedOut(found.screenedOut))
    }

    /// What the origin adds for a screened main job's file: the configurations left out.
    func screenedOut(_ count: Int) -> String {
        guard count > 0 else { return "" }
        return "; \(count) configuration\(count == 1 ? "" : "s") left out: the first seed only, as a screened main job runs those it screens out (--search full runs every seed)"
    }

    /// The objective and every bound: the memory budget, no kill, each --constraint, and the
    /// hitch ratio's (`--max-hitch-ratio`, else a library's when searching one or reading a
    /// library's runs, `library`).
    func criteria(objective: TuneFigure, device: DeviceProfile, library ofLibrary: Bool = false) throws -> TuneCriteria {
        let budget = try memoryBudget.map { try Quantities.byteSize($0, source: "--memory-budget") } ?? device.memoryWarningBytes
        var constraints = [
            TuneConstraint(figure: .peakMemory, atMost: budget),
            TuneConstraint(figure: .kills, atMost: 0),
        ]
        constraints += try constraint.map { try TuneConstraint.parse($0, source: "--constraint") }
        if let bound = try library.maxHitchRatio(hitches) ?? (ofLibrary ? ImageLibrary.maxHitchRatio : nil) { constraints.append(TuneConstraint(figure: .hitchRatio, atMost: bound)) }
        return TuneCriteria(objective: objective, constraints: constraints, cellPixels: device.cellPixels)
    }
}
