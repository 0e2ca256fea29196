#if HTTP
import ArgumentParser
import FeedBench
import FeedLive
import FeedServe
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

        var rows: [String] = []
        var agreeing = 0
        for (index, configuration) in configurations.enumerated() {
            let row = configuration.emptyResult
            let name = "\(row.profile) \(row.network) \(row.policy) memory \(row.memoryLimitBytes) B window \(row.prefetchWindow) \(row.trace) seed \(row.seed)"
            FileDescriptorOutput.write("[\(index + 1)/\(configurations.count)] \(name)\n", to: 1)
            let (live, framesLate) = try Self.live(configuration)
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

    /// Runs `configuration` live against a `bench serve` started in this process for it (its
    /// network, API model and seed), drawing the progress on stderr, and stops the server.
    /// Returns the results row and the frames the run handled late.
    static func live(_ configuration: RunConfiguration) throws -> (RunResult, framesLate: Int) {
        let settings = ServeSettings(host: "127.0.0.1", port: 0, seed: configuration.seed, catalog: configuration.api.catalog,
                                     conditions: ServeConditions(network: configuration.network, api: configuration.api))
        let server = try InProcessServer(settings)
        defer { server.stop() }
        return try LiveSession.runDrawingProgress(configuration, server: server.url)
    }
}

/// A `bench serve` running in this process on Swift's concurrency pool, for a command that
/// blocks its own thread meanwhile (a live run): started and stopped synchronously.
final class InProcessServer: @unchecked Sendable {
    let url: String
    private let task: Task<Void, Error>

    /// Starts serving; returns once the socket is bound. Throws what the server throws then.
    init(_ settings: ServeSettings) throws {
        let started = DispatchSemaphore(value: 0)
        let outcome = Locked<Result<(url: String, task: Task<Void, Error>), Error>?>(nil)
        Task {
            do {
                let running = try await FeedServer(settings: settings).start()
                outcome.withLock { $0 = .success(running) }
            } catch {
                outcome.withLock { $0 = .failure(error) }
            }
            started.signal()
        }
        started.wait()
        (url, task) = try outcome.withLock { $0! }.get()
    }

    /// Stops the server (the responses under way finish) and waits for it.
    func stop() {
        let stopped = DispatchSemaphore(value: 0)
        task.cancel()
        Task { [task] in
            _ = try? await task.value
            stopped.signal()
        }
        stopped.wait()
    }
}
#endif
