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
          bench run --profile mid --policy lru,s3fifo --window 0,20 --network 3g
          bench run --profile tablet --preset nuke,kingfisher --launches 3
          bench run --profile my-phone.json --trace my-recording.csv
        """
    )

    @Option(help: ArgumentHelp("A built-in profile (low-end, mid, high-end, tablet) or a profile JSON file.", valueName: "name|file"))
    var profile: String

    @Option(help: ArgumentHelp("Comma-separated memory-cache policies, with :key=value parameters (default: lru,lfu,fifo,ttl:max-age=300). Ages are in seconds.", valueName: "list"))
    var policy: String?

    @Option(help: ArgumentHelp("Comma-separated library presets (default, aggressive, conservative, nuke, kingfisher, sdwebimage), instead of --policy.", valueName: "list"))
    var preset: String?

    @Option(help: ArgumentHelp("Comma-separated prefetch windows: N ahead, N+M ahead and behind, Xscreens, device, velocity, adaptive[:N] (default: 0,5,10,20,30,50).", valueName: "list"))
    var window: String?

    @Option(help: ArgumentHelp("How a launch fills the feed: cacheFirst, networkFirst, cacheAndNetwork, networkOnly, cacheOnly, cacheWithTimeout:2s, preload.", valueName: "strategy"))
    var strategy: String = "cacheFirst"

    @Option(help: ArgumentHelp("A time the network is down, from each launch's start (0s-30s), or a whole launch (launch:2). Repeatable.", valueName: "span"))
    var offline: [String] = []

    @Flag(help: "Remove an image from the memory cache once its cell has scrolled off (seed 000's release-after-view).")
    var releaseViewed = false

    @Option(help: ArgumentHelp("Seed 000's prefetch buffer: images preloaded between the feed store/API and the display list (the seed uses 30; 0 is off).", valueName: "count"))
    var buffer: Int = 0

    @Option(help: ArgumentHelp("Also write each launch's figures here (CSV).", valueName: "file"))
    var perLaunch: String?

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

    @Option(help: ArgumentHelp("Keep each run's SQLite feed store in this folder (one file per run, named after its identity) and continue from it on the next invocation (default: a fresh in-memory store per run).", valueName: "folder"))
    var store: String?

    func run() throws {
        let started = DispatchTime.now()
        let device = try DeviceProfile.named(profile)
        guard launches >= 1 else { throw InputError(source: "--launches", "expected at least 1 launch, found \(launches)") }
        guard (0...1_000).contains(buffer) else { throw InputError(source: "--buffer", "expected 0...1000 images, found \(buffer)") }
        guard jobs >= 1 else { throw InputError(source: "--jobs", "expected at least 1 job, found \(jobs)") }
        let duration = try Quantities.duration(self.duration, source: "--duration")
        let gap = try Quantities.duration(self.gap, source: "--gap")
        if policy != nil && preset != nil {
            throw InputError(source: "--preset", "a preset brings its own policy: give --policy or --preset, not both")
        }
        let caches: [CacheSetup]? = try preset.map { list in
            try list.split(separator: ",", omittingEmptySubsequences: false).map { .preset(try CachePreset.named(String($0))) }
        } ?? policy.map { try PolicySpec.parseList($0, source: "--policy").map(CacheSetup.policy) }
        let windows = try window.map { list in
            try list.split(separator: ",", omittingEmptySubsequences: false).map { try WindowMode.parse(String($0), source: "--window") }
        }
        let strategy = try LaunchStrategy.parse(self.strategy, source: "--strategy")
        var offline = OfflineSchedule()
        for span in self.offline { try offline.add(span, source: "--offline") }
        let workloads = try trace.map { list in
            try list.split(separator: ",", omittingEmptySubsequences: false).map { item -> ScrollWorkload in
                let name = String(item)
                if let behavior = ScrollBehavior(rawValue: name) { return .behavior(behavior, duration: duration) }
                if name.hasSuffix(".csv") { return .recorded(try RecordedScrollTrace.read(path: name, refreshRate: device.refreshRate)) }
                throw InputError(source: "--trace", "unknown behaviour \(InputError.quote(name)); expected one of \(ScrollBehavior.allCases.map(\.rawValue).joined(separator: ", ")) or a .csv file")
            }
        }
        let network = try self.network.map { try NetworkProfile.named($0) }
        var runs = try StandardMatrix.configurations(profile: device, network: network, caches: caches, windows: windows,
                                                     workloads: workloads, seed: seed, launches: launches, gap: gap, duration: duration)
        let memoryLimit = try self.memoryLimit.map { try Quantities.byteCount($0, source: "--memory-limit") }
        for i in runs.indices {
            if let memoryLimit { runs[i].pipeline.memoryLimits = CacheLimits.bytes(memoryLimit) }
            runs[i].strategy = strategy
            runs[i].offline = offline
            runs[i].pipeline.releaseViewed = releaseViewed
            runs[i].bufferLimit = buffer
        }

        if let store { try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: true) }
        let results = try RunBatch.run(runs, jobs: jobs, storeDirectory: store)
        let destination = out ?? "results/\(device.name).csv"
        let folder = (destination as NSString).deletingLastPathComponent
        if !folder.isEmpty { try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        try AtomicFile.write(RunResult.csv(results), to: destination)
        if let perLaunch { try AtomicFile.write(LaunchFigures.csv(results), to: perLaunch) }

        FileDescriptorOutput.write(MatrixSummary(profile: device, results: results).table(), to: 1)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        let displays = results.reduce(0) { $0 + $1.displays }
        FileDescriptorOutput.write("wrote \(destination): \(results.count) runs, \(displays) displays in \(String(format: "%.2f", seconds)) s\n", to: 2)
    }
}
