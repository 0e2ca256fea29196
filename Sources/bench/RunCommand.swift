import ArgumentParser
import FeedBench
import Foundation

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Simulate scroll sessions and write the results CSV (the default command).",
        discussion: """
        With only --profile, runs that profile's standard matrix — policies lru, lfu, fifo and \
        ttl (5-minute lifetime) × prefetch windows 0, 5, 10, 20, 30, 50 × the browser and skimmer \
        behaviours, with the profile's memory-cache limit and network — writes \
        results/<profile>.csv and prints the configurations ranked by stalls among those that \
        stay within the profile's memory limit. Every other option narrows or replaces one axis \
        of that matrix.

        The same arguments always write the same bytes, whatever --jobs is.

        Examples:
          bench --profile low-end
          bench run --profile mid --policy lru,s3fifo --window 0,20 --trace skimmer --network 3g
          bench run --profile my-phone.json --trace my-recording.csv --out results/mine.csv
        """
    )

    @Option(help: ArgumentHelp("A built-in profile (low-end, mid, high-end, tablet) or a profile JSON file.", valueName: "name|file"))
    var profile: String

    @Option(help: ArgumentHelp("Comma-separated memory-cache policies, with :key=value parameters (default: lru,lfu,fifo,ttl:max-age=300). Ages are in seconds.", valueName: "list"))
    var policy: String?

    @Option(help: ArgumentHelp("Comma-separated prefetch windows: N items ahead, or N+M ahead and behind (default: 0,5,10,20,30,50).", valueName: "list"))
    var window: String?

    @Option(help: ArgumentHelp("Comma-separated behaviours (reader, browser, skimmer, revisitor) or recorded t_ms,offset_pt CSV files (default: browser,skimmer).", valueName: "list"))
    var trace: String?

    @Option(help: ArgumentHelp("Network preset (wifi, dsl, lte, 3g, edge, very-bad); default: the profile's.", valueName: "name"))
    var network: String?

    @Option(help: ArgumentHelp("Memory-cache cost limit (e.g. 200MB); default: the profile's.", valueName: "size"))
    var memoryLimit: String?

    @Option(help: "Seed of the run's random generators.")
    var seed: UInt64 = 1

    @Option(help: "App launches per run; the feed store and disk cache persist between them.")
    var launches: Int = 1

    @Option(help: ArgumentHelp("Simulated time between launches (e.g. 8h).", valueName: "duration"))
    var gap: String = "8h"

    @Option(help: ArgumentHelp("Length of each launch's scroll session for built-in behaviours (e.g. 2m, 30s).", valueName: "duration"))
    var duration: String = "2m"

    @Option(help: ArgumentHelp("Where to write the results CSV (default: results/<profile>.csv).", valueName: "file"))
    var out: String?

    @Option(help: "Runs simulated in parallel (default: the number of cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    func run() throws {
        let started = DispatchTime.now()
        let device = try DeviceProfile.named(profile)
        guard launches >= 1 else { throw InputError(source: "--launches", "expected at least 1 launch, found \(launches)") }
        guard jobs >= 1 else { throw InputError(source: "--jobs", "expected at least 1 job, found \(jobs)") }
        let duration = try Quantities.duration(self.duration, source: "--duration")
        let gap = try Quantities.duration(self.gap, source: "--gap")
        let policies = try policy.map { try PolicySpec.parseList($0, source: "--policy") }
        let windows = try window.map { list in
            try list.split(separator: ",", omittingEmptySubsequences: false).map { try PrefetchWindow.parse(String($0), source: "--window") }
        }
        let workloads = try trace.map { list in
            try list.split(separator: ",", omittingEmptySubsequences: false).map { item -> ScrollWorkload in
                let name = String(item)
                if let behavior = ScrollBehavior(rawValue: name) { return .behavior(behavior, duration: duration) }
                if name.hasSuffix(".csv") { return .recorded(try RecordedScrollTrace.read(path: name, refreshRate: device.refreshRate)) }
                throw InputError(source: "--trace", "unknown behaviour \(InputError.quote(name)); expected one of \(ScrollBehavior.allCases.map(\.rawValue).joined(separator: ", ")) or a .csv file")
            }
        }
        let network = try self.network.map { try NetworkProfile.named($0) }
        var runs = try StandardMatrix.configurations(profile: device, network: network, policies: policies, windows: windows,
                                                     workloads: workloads, seed: seed, launches: launches, gap: gap, duration: duration)
        if let memoryLimit {
            let bytes = try Quantities.byteCount(memoryLimit, source: "--memory-limit")
            for i in runs.indices { runs[i].pipeline.memoryLimits = .bytes(bytes) }
        }

        let results = try RunBatch.run(runs, jobs: jobs)
        let destination = out ?? "results/\(device.name).csv"
        let folder = (destination as NSString).deletingLastPathComponent
        if !folder.isEmpty { try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        try AtomicFile.write(RunResult.csv(results), to: destination)

        FileDescriptorOutput.write(MatrixSummary(profile: device, results: results).table(), to: 1)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        let displays = results.reduce(0) { $0 + $1.displays }
        FileDescriptorOutput.write("wrote \(destination): \(results.count) runs, \(displays) displays in \(String(format: "%.2f", seconds)) s\n", to: 2)
    }
}
