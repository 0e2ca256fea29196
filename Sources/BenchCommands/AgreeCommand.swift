import ArgumentParser
import FeedBench
import Foundation

struct AgreeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "agree",
        abstract: "Run configurations simulated and live against a bench serve started here, and show where they differ.",
        discussion: """
        For each configuration (the product of the lists given, as bench run makes them), starts \
        bench serve on 127.0.0.1 with the configuration's network, API model and seed, runs the \
        configuration in real time against it (bench run --live), simulates it, and prints the \
        figures the network decides side by side with their bands: api_requests, image_requests \
        and bytes_downloaded within 2 % of the simulation, stalls within 15 %, stall_ms_p95 within \
        25 %. cancelled_requests, display_latency_ms_p95, first_image_ms and hit_rate are shown \
        without a band, to tell which part of the model is off when a band is missed.

        Defaults: --policy lru, --window 20, --memory-limit 1x, --trace browser, --seed 1, \
        --duration 30s; each configuration takes its session's length in real time. Exits 0 when \
        every configuration is within every band, 1 when one is not.

        With --emulated (as root, from the repository's folder), each live session runs instead \
        through an emulated link (Validation/emulation): bench serve --pace none and the live run \
        in two network namespaces, ns-3 running the configuration's network between them in real \
        time, so the model is held to the kernel's own TCP, TLS and HTTP/2; the image downloads' \
        median and p90 durations are banded too (live over simulated within 0.8…1.25).

        Examples:
          bench agree --profile low-end --network wifi,lte,3g,edge --policy lru,fifo --window 0,20
          sudo bench agree --emulated --network lte,3g --http 2
          bench agree --profile mid --network 3g --out agree.csv

        Docs: docs/live-runs.md, "The simulation held to the live run: bench agree".
        """
    )

    @OptionGroup var matrix: RunMatrixOptions

    @OptionGroup var session: SessionOptions

    @Option(help: ArgumentHelp("Also write every figure of every configuration here (CSV: identity, metric, simulated, live, band, within).", valueName: "file"))
    var out: String?

    @Flag(help: """
        Run each live session through an emulated link instead: bench serve --pace none and the live run in two \
        network namespaces, ns-3 running the configuration's network between them in real time, the kernel's own \
        TCP on each side; the image downloads' median and p90 are banded too (0.8…1.25). Needs root, TUN/TAP and \
        the link (.ci/ns3-check --build).
        """)
    var emulated = false

    @Option(help: ArgumentHelp("With --emulated: the link's harness.", valueName: "file"))
    var emulationHarness = "Validation/emulation/emulated-link"

    /// The live side of --emulated, which the harness starts in the client's namespace.
    @Option(help: .hidden)
    var emulatedLive: String?

    func run() throws {
        var matrix = self.matrix
        if matrix.preset == nil { matrix.policy = matrix.policy ?? "lru" }
        matrix.window = matrix.window ?? "20"
        matrix.memoryLimit = matrix.memoryLimit ?? (matrix.preset == nil ? "1x" : nil)
        matrix.trace = matrix.trace ?? "browser"
        matrix.seed = matrix.seed ?? "1"
        var session = self.session
        session.duration = session.duration ?? "30s"
        var grid = try matrix.grid()
        // bench run takes one network; bench agree a list of them.
        grid.networks = SweepGrid.values(matrix.network, option: "--network")
        try session.apply(to: &grid.session)
        let configurations = try SweepPlan(grid).configurations
        for configuration in configurations {
            if let refusal = configuration.liveRefusal {
                throw InputError(source: "agree", refusal)
            }
        }
        if let emulatedLive { return try EmulatedLink.runLiveSide(emulatedLive, configurations: configurations) }
        try out.map { try OutputPath.check([.file($0, option: "--out")]) }
        let part = try HTTPPart.required(by: "agree")
        if emulated { try EmulatedLink.check(harness: emulationHarness) }

        var rows: [String] = []
        var agreeing = 0
        for (index, configuration) in configurations.enumerated() {
            let row = configuration.emptyResult
            let name = "\(row.profile) \(row.network) \(row.policy) memory \(row.memoryLimitBytes) B window \(row.prefetchWindow) \(row.trace) seed \(row.seed)"
            FileDescriptorOutput.write("[\(index + 1)/\(configurations.count)] \(name)\n", to: 1)
            if emulated {
                let measured = try EmulatedLink.run(index: index, network: configuration.network, api: configuration.api, seed: configuration.seed,
                                                    arguments: Array(CommandLine.arguments.dropFirst()), harness: emulationHarness)
                var recorded = configuration
                recorded.recording.requests = true
                let simulated = try FeedSimulation.run(recorded)
                let agreement = Agreement(simulated: simulated, liveValues: measured.values)
                let downloads = EmulatedLink.distributions(live: measured.downloads, simulated: EmulatedLink.downloads(simulated.requests))
                FileDescriptorOutput.write(([agreement.table] + downloads.lines + [measured.link]).joined(separator: "\n") + "\n", to: 1)
                if let note = Agreement.busyMachineNote(framesLate: measured.framesLate) { FileDescriptorOutput.write(note + "\n", to: 1) }
                rows += agreement.csvRows(identity: simulated)
                if agreement.agrees && downloads.within { agreeing += 1 }
                continue
            }
            let (live, framesLate) = try part.runAgainstOwnServer(configuration)
            let simulated = try FeedSimulation.run(configuration)
            let agreement = Agreement(simulated: simulated, live: live)
            FileDescriptorOutput.write(agreement.table + "\n", to: 1)
            if let note = Agreement.busyMachineNote(framesLate: framesLate) { FileDescriptorOutput.write(note + "\n", to: 1) }
            rows += agreement.csvRows(identity: simulated)
            if agreement.agrees { agreeing += 1 }
        }
        if let out {
            CommandOutput.createFolder(of: out)
            try AtomicFile.write(([Agreement.csvColumns.joined(separator: ",")] + rows).joined(separator: "\n") + "\n", to: out)
        }
        FileDescriptorOutput.write("\(agreeing) of \(configurations.count) configurations within every band\n", to: 1)
        if agreeing < configurations.count { throw ExitCode(1) }
    }
}
