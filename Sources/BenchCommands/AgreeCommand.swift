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

        Examples:
          bench agree --profile low-end --network wifi,lte,3g,edge --policy lru,fifo --window 0,20
          bench agree --profile mid --network 3g --out agree.csv

        Docs: docs/serve-and-live.md, "The simulation held to the live run: bench agree".
        """
    )

    @OptionGroup var matrix: RunMatrixOptions

    @OptionGroup var session: SessionOptions

    @Option(help: ArgumentHelp("Also write every figure of every configuration here (CSV: identity, metric, simulated, live, band, within).", valueName: "file"))
    var out: String?

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
        try out.map { try OutputPath.check([.file($0, option: "--out")]) }
        let part = try HTTPPart.required(by: "agree")

        var rows: [String] = []
        var agreeing = 0
        for (index, configuration) in configurations.enumerated() {
            let row = configuration.emptyResult
            let name = "\(row.profile) \(row.network) \(row.policy) memory \(row.memoryLimitBytes) B window \(row.prefetchWindow) \(row.trace) seed \(row.seed)"
            FileDescriptorOutput.write("[\(index + 1)/\(configurations.count)] \(name)\n", to: 1)
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
