import Foundation
import TestSupport
import Testing

/// `bench run` end to end: the results file, the ranked summary, determinism across --jobs,
/// and one-line refusals that leave no partial CSV.
@Suite(.scratchFolder) struct RunCommandTests {
    static let quick = ["--window", "0,20", "--trace", "browser", "--duration", "15s"]

    @Test func writesTheResultsAndRanksTheConfigurations() throws {
        let folder = try BenchProcess.scratch()
        let out = folder.appendingPathComponent("low-end.csv")
        let result = try BenchProcess.run(["--profile", "low-end", "--network", "lte", "--search", "full", "--out", out.path] + Self.quick)
        #expect(result.status == 0, "\(result.stderr)")
        let csv = try String(contentsOf: out, encoding: .utf8).split(separator: "\n")
        // Images at the cell's width and at full size × 4 policies × the ladder of 6 cache sizes
        // × 2 windows × seeds 1, 2, 3.
        #expect(csv.count == 1 + 2 * 4 * 6 * 2 * 3)
        #expect(csv[0].hasPrefix("profile,network,http,policy,memory_limit_bytes,disk_limit_bytes,prefetch_window,trace,seed,launches,scenario,displays,"))
        #expect(csv[1].hasPrefix("low-end,lte,2,lru,14745600,157286400,0,browser,1,1,cacheFirst;width=750,"))
        #expect(csv[1 + 4 * 6 * 2 * 3].hasPrefix("low-end,lte,2,lru,14745600,157286400,0,browser,1,1,cacheFirst,"))
        let sizes = Set(csv.dropFirst().map { $0.split(separator: ",")[4] })
        #expect(sizes == ["14745600", "29491200", "58982400", "117964800", "235929600", "471859200"])
        #expect(Set(csv.dropFirst().map { $0.split(separator: ",")[8] }) == ["1", "2", "3"])
        #expect(result.stdout.hasPrefix("low-end (iPhone SE (2nd gen)): fewest mean stalls, peak ≤ 1000.0 MiB; 96 configurations, 3 seeds\n"))
        #expect(result.stdout.contains("Recommended: "))
        // How far ns-3 holds the answer's network, after the recommendation.
        #expect(result.stdout.contains("\n  network lte (HTTP/2): ns-3 holds reader downloads, not browser sessions"))
        #expect(result.stdout.split(separator: "\n").allSatisfy { $0.count <= 100 })
    }

    /// Issue 60: a built-in profile answers for its population by default, each row naming its
    /// network, and `--networks FILE` for a team's own, with each network's own best beside the
    /// recommendation and the settings per path class.
    @Test func theMainJobAnswersForThePopulationOfNetworks() throws {
        let folder = try BenchProcess.scratch()
        let out = folder.appendingPathComponent("phones.csv")
        let phones = try BenchProcess.run(["--profile", "low-end", "--policy", "fifo", "--memory-limit", "0.25x", "--out", out.path] + Self.quick)
        #expect(phones.status == 0, "\(phones.stderr)")
        let networks = try String(contentsOf: out, encoding: .utf8).split(separator: "\n").dropFirst().map { $0.split(separator: ",")[1] }
        #expect(Set(networks) == ["wifi", "verizon-lte", "tmobile-lte", "att-lte-driving", "tmobile-umts-driving"])
        #expect(phones.stdout.hasPrefix("low-end on phones (5 networks): fewest weighted stalls, peak ≤ 1000.0 MiB on each network\n"))
        #expect(phones.stdout.contains("\nBy network: the recommendation's stalls a seed there beside the network's own best"))
        #expect(phones.stdout.contains("\n  network lte") == false)
        #expect(phones.stdout.split(separator: "\n").allSatisfy { $0.count <= 100 }, "\(phones.stdout)")

        let population = folder.appendingPathComponent("ours.json")
        try #"{"name": "ours", "networks": [{"network": "wifi", "weight": 3}, {"network": "3g", "weight": 1}]}"#
            .write(to: population, atomically: true, encoding: .utf8)
        let ours = try BenchProcess.run(["--profile", "low-end", "--networks", population.path, "--policy", "fifo", "--memory-limit", "0.25x",
                                         "--out", folder.appendingPathComponent("ours.csv").path] + Self.quick)
        #expect(ours.status == 0, "\(ours.stderr)")
        #expect(ours.stdout.hasPrefix("low-end on ours (2 networks): fewest weighted stalls"))
        #expect(ours.stdout.contains("\n  wifi     75.0 %  wifi  ") && ours.stdout.contains("\n  3g       25.0 %  cellular  "), "\(ours.stdout)")
        #expect(ours.stdout.contains("(NWPathMonitor)"))
    }

    /// `--requests` writes one run's requests in `bench serve --log`'s columns, which cachesim
    /// reads like the server's log; options that make several runs are refused before anything
    /// is simulated or written.
    @Test func requestsWritesOneRunsRequestsAsTheServerLogsThem() throws {
        let folder = try BenchProcess.scratch()
        let (out, requests) = (folder.appendingPathComponent("o.csv").path, folder.appendingPathComponent("requests.csv").path)
        let one = ["--profile", "low-end", "--policy", "lru", "--memory-limit", "32MiB", "--window", "5", "--trace", "browser", "--seed", "1", "--duration", "15s"]
        let result = try BenchProcess.run(one + ["--out", out, "--requests", requests])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try String(contentsOfFile: requests, encoding: .utf8).split(separator: "\n")
        #expect(lines.first == "time_ms,method,path,status,bytes,object_bytes,injected_delay_ms,duration_ms,connection,new_connection,protocol,priority,sent_ms")
        // A window of 5 prefetches at low priority; the API's calls and the visible cells' images go high.
        #expect(lines.contains { $0.contains(",GET,/images/") && $0.contains(",low,") } && lines.contains { $0.contains(",GET,/images/") && $0.contains(",high,") })
        #expect(lines.filter { $0.contains(",GET,/v1/") }.allSatisfy { $0.contains(",h2,high,") })
        // Each request went onto the network when it was sent: `sent_ms` is `time_ms`, to the nanosecond.
        let times = lines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }.map { (Double($0[0])!, $0[12]) }
        #expect(times.allSatisfy { time, sent in sent.split(separator: ".").last?.count == 6 && abs(Double(sent)! - time) <= 0.0005 })
        #expect(lines.contains { $0.contains(",GET,/v1/images/search?limit=10&page=1,200,") })
        let images = lines.filter { $0.contains(",GET,/images/") }
        let row = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
        let header = row[0].split(separator: ","), values = row[1].split(separator: ",", omittingEmptySubsequences: false)
        let downloaded = Int(values[header.firstIndex(of: "bytes_downloaded")!])!
        #expect(images.reduce(0) { $0 + Int($1.split(separator: ",")[4])! } == downloaded)
        let replay = try BenchProcess.run(["cachesim", "--trace", requests, "--capacity", "10"])
        #expect(replay.status == 0 && replay.stdout.contains("\nlru,10,objects,\(images.count),"), "\(replay.stdout)\(replay.stderr)")

        let several = folder.appendingPathComponent("several.csv").path
        let refused = try BenchProcess.run(one.map { $0 == "5" ? "5,10" : $0 } + ["--out", several, "--requests", requests + ".2"])
        #expect(refused.status == 2 && refused.stderr == "bench: --requests: expected options that make one run (one policy or preset, memory limit, window, image width, trace and seed), found 2 runs\n")
        #expect(!FileManager.default.fileExists(atPath: several) && !FileManager.default.fileExists(atPath: requests + ".2"))
    }

    /// `--http 2`: every image request of a run goes on one connection at a time (the host's
    /// one, reopened only after an idle timeout), as streams logged with ALPN's `h2`.
    @Test func http2CarriesEveryImageRequestOnTheHostsOneConnection() throws {
        let folder = try BenchProcess.scratch()
        let requests = folder.appendingPathComponent("requests.csv").path
        let result = try BenchProcess.run(["--profile", "low-end", "--network", "wifi", "--policy", "lru", "--memory-limit", "32MiB", "--window", "10",
                                           "--trace", "browser", "--seed", "1", "--duration", "15s", "--http", "2",
                                           "--out", folder.appendingPathComponent("o.csv").path, "--requests", requests])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try String(contentsOfFile: requests, encoding: .utf8).split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let images = rows.filter { $0[2].hasPrefix("/images/") }
        #expect(images.count > 20 && rows.allSatisfy { $0[10] == "h2" })
        // Spans [start, end] of each image connection: they never overlap.
        var spans: [Substring: (Double, Double)] = [:]
        for row in images {
            let (start, end) = (Double(row[0])!, Double(row[0])! + Double(row[7])!)
            let span = spans[row[8]] ?? (start, end)
            spans[row[8]] = (min(span.0, start), max(span.1, end))
        }
        let ordered = spans.values.sorted { $0.0 < $1.0 }
        #expect(zip(ordered, ordered.dropFirst()).allSatisfy { $0.1 <= $1.0 }, "\(ordered)")
        #expect(images.filter { $0[9] == "1" }.count == spans.count, "only a connection's first stream opens it")
    }

    @Test func theSameArgumentsWriteTheSameBytesWhateverTheJobs() throws {
        let folder = try BenchProcess.scratch()
        var files: [Data] = []
        for (name, jobs) in [("a.csv", "1"), ("b.csv", "2"), ("c.csv", "2")] {
            let out = folder.appendingPathComponent(name).path
            let result = try BenchProcess.run(["run", "--profile", "mid", "--network", "lte", "--memory-limit", "0.25x,1x", "--seed", "1,2", "--jobs", jobs, "--out", out] + Self.quick)
            #expect(result.status == 0, "\(result.stderr)")
            files.append(try Data(contentsOf: URL(fileURLWithPath: out)))
        }
        #expect(files[0] == files[1] && files[1] == files[2])
    }

    @Test(arguments: [
        (["--profile", "pixel"], "--profile: unknown profile \"pixel\"; expected one of low-end, mid, high-end, tablet"),
        (["--profile", "low-end", "--policy", "mru"], "--policy: unknown policy \"mru\""),
        (["--profile", "low-end", "--trace", "walker"], "--trace: unknown behaviour \"walker\"; expected one of reader, browser, skimmer, revisitor"),
        (["--profile", "low-end", "--network", "5g"], "--network: expected a network preset (wifi, dsl, lte, 3g, edge, very-bad, verizon-lte, tmobile-lte, att-lte-driving, tmobile-umts-driving) or a readable network file, found \"5g\""),
        (["--profile", "low-end", "--window=-1"], "--window: unknown window \"-1\"; expected one of N, N+M, Xscreens"),
        (["--profile", "low-end", "--window", "-5"], "--window: unknown window \"-5\"; expected one of N, N+M, Xscreens"),
        (["--profile", "low-end", "--duration", "25h"], "--duration: expected a duration up to 24h, found \"25h\""),
        (["--profile", "low-end", "--memory-limit", "200"], "--memory-limit: expected a size with a unit, such as 200MB or 64KiB"),
        (["--profile", "low-end", "--offline", "launch:5"], "--offline: expected launch:N with N at most the 1 launch of a run (--launches)"),
        (["--profil", "low-end"], "--profil: expected an option of bench run, found an unknown one; did you mean --profile?"),
        (["--profile", "low-end", "--duration", "8x"], "--duration: expected a duration"),
        (["--profile", "low-end", "--launches", "0"], "--launches: expected 1...1000 launches, found 0"),
        (["--profile", "low-end", "--seed=-1"], ""),
        (["--profile", "low-end", "--preset", "glide"], "--preset: unknown preset \"glide\"; expected one of default, aggressive, conservative, nuke, nuke@main, kingfisher, sdwebimage"),
        (["--profile", "low-end", "--preset", "nuke", "--policy", "lru"], "--preset: a preset brings its own policy"),
        (["--profile", "low-end", "--preset", "nuke:resize"], "--preset: preset nuke has no parameter \"resize\"; expected downsample, full-size, background-decode, sync-disk, prefetch=1…32 or disk=SIZE"),
        (["--profile", "low-end", "--preset", "kingfisher:prefetch=40"], "--preset: preset kingfisher: \"prefetch=40\" is out of range; expected prefetch=1…32"),
        (["--profile", "low-end", "--strategy", "cacheLast"], "--strategy: unknown strategy \"cacheLast\"; expected one of cacheFirst, networkFirst"),
        (["--profile", "low-end", "--window", "fast"], "--window: unknown window \"fast\"; expected one of N, N+M, Xscreens"),
        (["--profile", "low-end", "--gap", "8x"], "--gap: expected a duration like 30s, 5m or 8h, found \"8x\""),
        (["--profile", "low-end", "--offline", "soon"], "--offline: expected START-END (e.g. 0s-30s) or launch:N"),
        (["--profile", "low-end", "--policy", "belady"], "--policy: belady needs every future request"),
        (["--profile", "/nonexistent/phone.json"], "/nonexistent/phone.json: cannot open: No such file or directory"),
        (["--profile", "low-end", "--http", "3"], "--http: expected 1.1 or 2, found \"3\" (HTTP/3 is not modelled)"),
        (["--profile", "low-end", "--http", "h2"], "--http: expected 1.1 or 2, found \"h2\""),
        (["--profile", "low-end", "--image-width", "0"], "--image-width: expected full, cell or a width in pixels from 1 to 20000, found \"0\""),
        (["--profile", "low-end", "--image-width=-750"], "--image-width: expected full, cell or a width in pixels from 1 to 20000, found \"-750\""),
        (["--profile", "low-end", "--image-width", "wide"], "--image-width: expected full, cell or a width in pixels from 1 to 20000, found \"wide\""),
        (["--profile", "low-end", "--image-width", "20001"], "--image-width: expected full, cell or a width in pixels from 1 to 20000, found \"20001\""),
        (["--profile", "low-end", "--image-width", "cell,750"], "--image-width: expected each width once, found \"750\", which asks for the same 750 px on low-end as \"cell\""),
    ])
    func refusesBadInputInOneLineAndWritesNothing(arguments: [String], message: String) throws {
        let folder = try BenchProcess.scratch()
        let result = try BenchProcess.run(["run", "--out", folder.appendingPathComponent("r.csv").path] + arguments)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("bench: \(message)"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "no partial output")
    }

    /// A network file's recording that is missing, empty, not whole milliseconds, out of order
    /// or without a time after 0, one beside a rate for its direction, or a queue of 0: one line
    /// naming the file (and line or field), exit status 2, nothing written.
    @Test(arguments: [
        ("none", #""downlinkTrace": "links/none.down""#, "links/none.down: cannot open: No such file or directory"),
        ("", #""downlinkTrace": "links/bad.down""#, "links/bad.down: expected lines of delivery opportunities' times"),
        ("1\n2\n3.5\n", #""downlinkTrace": "links/bad.down""#, "links/bad.down:3: expected a delivery opportunity's time in whole milliseconds"),
        ("1\n-2\n", #""uplinkTrace": "links/bad.down""#, "links/bad.down:2: expected a delivery opportunity's time in whole milliseconds"),
        ("5\n9\n7\n", #""downlinkTrace": "links/bad.down""#, "links/bad.down:3: expected a time no earlier than the line before's 9 ms, found 7"),
        ("0\n0\n", #""downlinkTrace": "links/bad.down""#, "links/bad.down:2: expected a recording that lasts"),
        ("1\n", #""downlinkTrace": "links/bad.down", "bitsPerSecond": 1000000"#, "net.json: network.downlinkTrace: expected a recording or bitsPerSecond for this direction, found both"),
        ("1\n", #""downlinkTrace": "links/bad.down", "bufferPackets": 0"#, "net.json: network.bufferPackets: expected"),
    ])
    func aBadRecordingInANetworkFileIsRefusedInOneLine(trace: String, fields: String, message: String) throws {
        let folder = try BenchProcess.scratch()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("links"), withIntermediateDirectories: true)
        if trace != "none" { try trace.write(to: folder.appendingPathComponent("links/bad.down"), atomically: true, encoding: .utf8) }
        let network = folder.appendingPathComponent("net.json")
        try "{\"name\": \"mine\", \(fields)}".write(to: network, atomically: true, encoding: .utf8)
        let out = folder.appendingPathComponent("out")
        let result = try BenchProcess.run(["run", "--profile", "low-end", "--network", network.path, "--out", out.appendingPathComponent("r.csv").path] + Self.quick)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("bench: \(folder.path)/\(message)"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: out.path), "nothing written")
    }

    @Test func aMalformedRecordedTraceNamesItsLineAndField() throws {
        let folder = try BenchProcess.scratch()
        let trace = folder.appendingPathComponent("mine.csv")
        try "t_ms,offset_pt\n0,0\n16.7,abc\n".write(to: trace, atomically: true, encoding: .utf8)
        let result = try BenchProcess.run(["run", "--profile", "low-end", "--network", "lte", "--trace", trace.path, "--out", folder.appendingPathComponent("r.csv").path])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("bench: \(trace.path):3: offset_pt: "), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("r.csv").path))
    }

    /// Runs another run stands for are not run (RunSharing), and the last line says how many;
    /// runs that no other run differs from only in the memory cache leave the line as it was.
    @Test func theLastLineCountsTheRunsSharedWithAnIdenticalRun() throws {
        let folder = try BenchProcess.scratch()
        let shared = try BenchProcess.run(["--profile", "low-end", "--network", "wifi", "--out", "a.csv"] + Self.quick, in: folder)
        #expect(shared.status == 0, "\(shared.stderr)")
        let count = shared.stderr.firstMatch(of: #/wrote a.csv: 288 runs \((\d+) shared with an identical run\), /#).flatMap { Int($0.1) }
        #expect((count ?? 0) > 0, "\(shared.stderr)")
        let alone = try BenchProcess.run(["--profile", "low-end", "--network", "wifi", "--policy", "s3fifo", "--memory-limit", "1x",
                                          "--out", "b.csv"] + Self.quick, in: folder)
        #expect(alone.stderr.hasPrefix("wrote b.csv: 12 runs, "), "\(alone.stderr)")
    }

    /// Only the standard matrix as it stands writes the committed baseline, results/<profile>.csv;
    /// a run that changes anything writes, without --out, a name built from what it changed
    /// (`bench --profile low-end --network 3g` used to overwrite results/low-end.csv).
    @Test func aChangedRunNeverOverwritesTheBaseline() throws {
        let folder = try BenchProcess.scratch()
        let results = folder.appendingPathComponent("results").path
        let changed = try BenchProcess.run(["--profile", "low-end", "--network", "3g"] + Self.quick, in: folder)
        #expect(changed.status == 0, "\(changed.stderr)")
        let name = "low-end+window-0,20+trace-browser+network-3g+duration-15s.csv"
        #expect(changed.stderr.hasPrefix("wrote results/\(name): 288 runs"), "\(changed.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: results) == [name])
        let seeded = try BenchProcess.run(["--profile", "low-end", "--seed", "2"] + Self.quick, in: folder)
        #expect(seeded.stderr.hasPrefix("wrote results/low-end+window-0,20+trace-browser+seed-2+duration-15s.csv: "), "\(seeded.stderr)")
        // (That the standard matrix as it stands still writes results/low-end.csv is
        // ResultsFileNameTests' and the CI job's.)
        #expect(try FileManager.default.contentsOfDirectory(atPath: results).count == 2)
    }
}
