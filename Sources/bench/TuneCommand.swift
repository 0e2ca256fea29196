import ArgumentParser
import FeedBench
import Foundation

struct TuneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tune",
        abstract: "Find the best policy, memory-cache limit and prefetch window for a profile, over several seeds.",
        discussion: """
        Candidates are every policy (and preset) × memory-cache limit × window (× strategy) \
        given, each scored on every workload (default: the browser and skimmer behaviours) and \
        every seed. A candidate is feasible when, on every seed, it meets each --constraint, \
        stays within --memory-budget (default: the profile's memory-warning threshold) and is \
        never killed. The recommendation is the feasible candidate with the best mean \
        objective (ties: lower mean peak memory, then fewer requests).

        Search: spaces of at most 500 runs are searched exhaustively; larger ones by successive \
        halving over seeds — every candidate on one seed, the best third (and any tied with the \
        last kept) on three, the best third of those on all seeds (η = 3) — which simulates \
        about a third as many runs. --search exhaustive or halving forces one.

        Prints the Pareto front of the fully evaluated feasible candidates (stalls, peak \
        memory, requests and the objective: none beaten on all at once) and the recommendation \
        with its mean, min and max over the seeds; writes the front as CSV.

        Defaults: policies lru, lfu, fifo, ttl:max-age=300; memory limits ¼, ½, 1 and 1½ × the \
        profile's memory cache; windows 0, 5, 10, 20, 30, 50; 5 seeds.

        Examples:
          bench tune --profile low-end
          bench tune --profile mid --memory-budget 150MB --objective stall_p95
          bench tune --profile low-end --policy lru,s3fifo,sieve --constraint requests<=700
        """
    )

    @Option(help: ArgumentHelp("A built-in profile or a profile JSON file.", valueName: "name|file"))
    var profile: String

    @Option(help: ArgumentHelp("Comma-separated policies to consider.", valueName: "list"))
    var policy: [String] = []

    @Option(help: ArgumentHelp("Comma-separated presets to consider as well.", valueName: "list"))
    var preset: [String] = []

    @Option(help: ArgumentHelp("Comma-separated memory-cache limits to consider (e.g. 50MB,100MB).", valueName: "list"))
    var memoryLimit: [String] = []

    @Option(help: ArgumentHelp("Comma-separated prefetch windows to consider.", valueName: "list"))
    var window: [String] = []

    @Option(help: ArgumentHelp("Comma-separated launch strategies to consider.", valueName: "list"))
    var strategy: [String] = []

    @Option(help: ArgumentHelp("Comma-separated behaviours to score on.", valueName: "list"))
    var behavior: [String] = []

    @Option(help: ArgumentHelp("Comma-separated recorded traces to score on.", valueName: "list"))
    var trace: [String] = []

    @Option(help: ArgumentHelp("Network preset; default: the profile's.", valueName: "name"))
    var network: String?

    @Option(help: "Seeds each finalist is scored on (seeds 1…N; at least 2).")
    var seeds: Int = 5

    @Option(help: ArgumentHelp("What to minimise: \(TuneFigure.objectives.map(\.name).joined(separator: ", ")).", valueName: "figure"))
    var objective: String = "stalls"

    @Option(help: ArgumentHelp("Peak tracked memory allowed on every seed (default: the profile's memory-warning threshold).", valueName: "size"))
    var memoryBudget: String?

    @Option(help: ArgumentHelp("FIGURE<=VALUE or FIGURE<VALUE on every seed, repeatable; figures: \(TuneFigure.all.map(\.name).joined(separator: ", ")).", valueName: "bound"))
    var constraint: [String] = []

    @Option(help: ArgumentHelp("auto, exhaustive or halving.", valueName: "method"))
    var search: String = "auto"

    @OptionGroup var session: SessionOptions

    @Option(help: ArgumentHelp("Where to write the front (default: results/<profile>-tune.csv).", valueName: "file"))
    var out: String?

    @OptionGroup var jobs: JobsOption

    func run() throws {
        let started = DispatchTime.now()
        guard (2...1_000).contains(seeds) else { throw InputError(source: "--seeds", "expected 2...1000 seeds, found \(seeds)") }
        guard let method = TuneMethod(rawValue: search) else {
            throw InputError(source: "--search", "expected one of \(TuneMethod.allCases.map(\.rawValue).joined(separator: ", ")), found \(InputError.quote(search))")
        }
        let objective = try TuneFigure.named(self.objective, among: TuneFigure.objectives, source: "--objective")
        let device = try DeviceProfile.named(profile)

        var grid = SweepGrid()
        grid.profiles = [SweepGrid.Value(profile, source: "--profile")]
        grid.networks = network.map { [SweepGrid.Value($0, source: "--network")] } ?? []
        grid.policies = SweepGrid.values(policy, option: "--policy")
        grid.presets = SweepGrid.values(preset, option: "--preset")
        grid.memoryLimits = SweepGrid.values(memoryLimit, option: "--memory-limit")
        if grid.memoryLimits.isEmpty {
            grid.memoryLimits = [1, 2, 4, 6].map { quarters in
                SweepGrid.Value(String(device.memoryCacheBytes / 4 * Int64(quarters)), source: "--memory-limit")
            }
        }
        grid.windows = SweepGrid.values(window, option: "--window")
        grid.strategies = SweepGrid.values(strategy, option: "--strategy")
        grid.behaviors = SweepGrid.values(behavior, option: "--behavior")
        grid.traces = SweepGrid.values(trace, option: "--trace")
        grid.seeds = (1...seeds).map { SweepGrid.Value(String($0), source: "--seeds") }
        try session.apply(to: &grid.session)

        let budget = try memoryBudget.map { try Quantities.byteCount($0, source: "--memory-budget") } ?? device.memoryWarningBytes
        var constraints = [
            TuneConstraint(figure: .peakMemory, atMost: budget),
            TuneConstraint(figure: .kills, atMost: 0),
        ]
        constraints += try constraint.map { try TuneConstraint.parse($0, source: "--constraint") }

        let tuning = TuneSearch(space: try TuneSpace(plan: SweepPlan(grid)), objective: objective, constraints: constraints)
        let outcome = try tuning.run(method: method, jobs: try jobs.checked())
        let report = TuneReport(profile: device, search: tuning, outcome: outcome)
        let destination = out ?? "results/\(device.name)-tune.csv"
        CommandOutput.createFolder(of: destination)
        try AtomicFile.write(report.csv, to: destination)
        FileDescriptorOutput.write(report.table, to: 1)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        FileDescriptorOutput.write("wrote \(destination): \(report.front.count) configurations on the front; \(outcome.runs) runs in \(FixedPoint.decimal(seconds, decimals: 2)) s\n", to: 2)
    }
}
