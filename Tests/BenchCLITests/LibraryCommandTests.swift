import Foundation
import TestSupport
import Testing

/// `--library` on `bench run`, `sweep` and `tune`: the grid is the library's own knobs and the
/// answer ends with its settings in the library's Swift API; `bench apply` turns the four
/// built-in profiles' results into one Swift file that compiles against the library and picks
/// by the device's memory. A library that cannot be used is refused in one line, exit 2, no file.
@Suite(.scratchFolder) struct LibraryCommandTests {
    static let quick = ["--trace", "browser", "--seed", "1", "--duration", "10s"]

    /// The `policy` and `memory_limit_bytes` cells of a results file's rows.
    static func cells(_ path: URL) throws -> (policies: Set<String>, limits: Set<String>) {
        let lines = try String(contentsOf: path, encoding: .utf8).split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let policy = lines[0].firstIndex(of: "policy")!, limit = lines[0].firstIndex(of: "memory_limit_bytes")!
        return (Set(lines.dropFirst().map { $0[policy] }), Set(lines.dropFirst().map { $0[limit] }))
    }

    @Test func runSearchesTheLibrarysKnobsAndEndsWithItsSettings() throws {
        let folder = try ScratchFolder.make()
        let out = folder.appendingPathComponent("kf.csv")
        let run = try BenchProcess.run(["run", "--profile", "low-end", "--network", "lte", "--library", "kingfisher", "--window", "0,10", "--out", out.path] + Self.quick)
        #expect(run.status == 0, "\(run.stderr)")
        let (policies, limits) = try Self.cells(out)
        #expect(policies == Set(["kingfisher", "kingfisher:prefetch=10", "kingfisher:background-decode", "kingfisher:background-decode:prefetch=10",
                                 "kingfisher:downsample", "kingfisher:downsample:prefetch=10"].map { $0 + "(lru:max-age=300:refresh=1)" }))
        // A quarter of 3 GiB (Kingfisher's own), and 0.5, 1, 2, 4 and 8 % of it.
        #expect(limits == ["805306368", "16106127", "32212254", "64424509", "128849018", "257698037"])
        let settings = try #require(run.stdout.range(of: "Settings to apply — Kingfisher 8.11 (docs/libraries.md):\n"))
        #expect(run.stdout[settings.upperBound...].contains("    let decoding: KingfisherOptionsInfo = "))
        // Kingfisher as it ships decodes full-size images at their first draw, on the main
        // thread: over the 5 ms/s of hitches a library's answer may have, unless told otherwise.
        let recommended = try #require(run.stdout.split(separator: "\n").first { $0.hasPrefix("Recommended: ") })
        #expect(!recommended.hasPrefix("Recommended: kingfisher(") && !recommended.hasPrefix("Recommended: kingfisher:prefetch=10("), "\(recommended)")
        let rows = try String(contentsOf: out, encoding: .utf8).split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let policy = rows[0].firstIndex(of: "policy")!, ratio = rows[0].firstIndex(of: "hitch_time_ratio_ms_per_s")!
        let scenario = rows[0].firstIndex(of: "scenario")!
        func shipped(_ width: String?) -> [Double] {
            rows.dropFirst().filter { $0[policy].hasPrefix("kingfisher(") && $0[scenario].contains(width ?? "width=") == (width != nil) }
                .compactMap { Double($0[ratio]) }
        }
        #expect(!shipped(nil).isEmpty && shipped(nil).allSatisfy { $0 > 5 }, "\(shipped(nil))")
        // Asked at the cell's width, its images are smaller to decode on the main thread.
        #expect(shipped("width=750").reduce(0, +) < shipped(nil).reduce(0, +))
        // Read back by bench tune, a library's runs are ranked as --library ranks them.
        let tuned = try BenchProcess.run(["tune", "--results", out.path, "--profile", "low-end", "--out", folder.appendingPathComponent("t.csv").path])
        #expect(tuned.status == 0 && tuned.stdout.contains("hitch_ratio <= 5.0 ms/s"), "\(tuned.stdout)")
        let tunedBest = try #require(tuned.stdout.split(separator: "\n").first { $0.hasPrefix("Recommended: ") })
        #expect(tunedBest.split(separator: ",")[0] == recommended.split(separator: ",")[0])
        #expect(tuned.stdout.contains("Settings to apply — Kingfisher 8.11"))
    }

    @Test func sweepAndTuneTakeTheLibraryToo() throws {
        let folder = try ScratchFolder.make()
        let sweep = folder.appendingPathComponent("sweep.csv")
        let swept = try BenchProcess.run(["sweep", "--profile", "mid", "--library", "sdwebimage", "--window", "5", "--behavior", "browser",
                                          "--duration", "5s", "--out", sweep.path])
        #expect(swept.status == 0, "\(swept.stderr)")
        #expect(try Self.cells(sweep).policies == ["sdwebimage(lru)", "sdwebimage:prefetch=6(lru)", "sdwebimage:downsample(lru)", "sdwebimage:downsample:prefetch=6(lru)"])
        let tune = try BenchProcess.run(["tune", "--profile", "mid", "--library", "nuke", "--window", "0,10", "--memory-limit", "1%ram,4%ram",
                                         "--behavior", "browser", "--duration", "10s", "--seeds", "2", "--out", folder.appendingPathComponent("t.csv").path])
        #expect(tune.status == 0, "\(tune.stderr)")
        // The network line (mid's own network, lte) comes before the settings, which end the report, as bench run's.
        #expect(tune.stdout.contains("\n  network lte (HTTP/2): ns-3 holds reader downloads, not browser sessions (docs/network.md)\n  held with Linux's idle restart, idle clock and timeout threshold off, which ns-3 lacks\nSettings to apply — Nuke 13.2 (docs/libraries.md):\n    ImageCache.shared.costLimit = "))
    }

    /// With several launches the disk cache matters (a later launch finds what it kept): each
    /// variant is also run with a 50 MiB disk cache; within one launch it is not searched.
    @Test func severalLaunchesSearchTheDiskCacheToo() throws {
        let out = try ScratchFolder.make().appendingPathComponent("nuke.csv")
        let run = try BenchProcess.run(["run", "--profile", "low-end", "--network", "lte", "--library", "nuke", "--launches", "2", "--window", "5", "--memory-limit", "1x",
                                        "--trace", "browser", "--seed", "1", "--duration", "5s", "--out", out.path])
        #expect(run.status == 0, "\(run.stderr)")
        let policies = try Self.cells(out).policies
        #expect(policies.count == 8 && policies.filter { $0.contains(":disk=50MiB(") }.count == 4, "\(policies.sorted())")
        #expect(run.stdout.contains("DataLoader.sharedUrlCache.diskCapacity = 52_428_800") || run.stdout.contains("the disk cache (URLCache"))
    }

    /// The four built-in profiles' `--library sdwebimage` results make one file that compiles
    /// against the library's stand-in and picks the low-end phone's settings for an iPhone of
    /// 3 GB and the tablet's for an iPad of 8 GB.
    @Test(.enabled(if: SwiftCompiler.path != nil, Comment(rawValue: SwiftCompiler.missing)))
    func applyWritesOneSwiftFileThatPicksByMemory() throws {
        let folder = try ScratchFolder.make()
        var files: [String] = []
        for profile in ["low-end", "mid", "high-end", "tablet"] {
            let out = folder.appendingPathComponent("\(profile).csv").path
            let run = try BenchProcess.run(["run", "--profile", profile, "--network", profile == "tablet" || profile == "high-end" ? "wifi" : "lte", "--library", "sdwebimage", "--window", "0,10", "--memory-limit", "1x,2%ram",
                                            "--out", out] + Self.quick)
            #expect(run.status == 0, "\(run.stderr)")
            files.append(out)
        }
        let swift = folder.appendingPathComponent("Settings.swift")
        let apply = try BenchProcess.run(["apply", "--library", "sdwebimage"] + files + ["--out", swift.path])
        #expect(apply.status == 0 && apply.stderr.hasPrefix("wrote \(swift.path): low-end: sdwebimage"), "\(apply.stderr)")
        let text = try String(contentsOf: swift, encoding: .utf8)
        let build = try ScratchFolder.make()
        for (memory, isPad, profile) in [(3 << 30, false, "low-end"), (8 << 30, true, "tablet")] {
            let main = """
            import Foundation
            import SDWebImage
            let settings = FeedBenchImageSettings.forDevice(physicalMemory: \(memory), isPad: \(isPad))
            settings.apply()
            print(settings.profile)
            """
            let outcome = try SwiftCompiler.run(module: "SDWebImage", also: ["Network"], files: ["main.swift": main, "Settings.swift": text], in: build)
            #expect(outcome.status == 0 && outcome.output == profile + "\n", "\(outcome.output)")
        }
    }

    /// Bad input: one line, exit status 2, no file.
    @Test func aLibraryThatCannotBeUsedIsRefusedInOneLine() throws {
        let folder = try ScratchFolder.make()
        let out = folder.appendingPathComponent("out").path
        let lowEnd = BenchProcess.results.appendingPathComponent("low-end.csv").path
        let cases: [([String], String)] = [
            (["run", "--profile", "low-end", "--network", "lte", "--library", "glide", "--out", out], "--library: unknown library \"glide\"; expected one of nuke, kingfisher, sdwebimage"),
            (["run", "--profile", "low-end", "--network", "lte", "--library", "nuke", "--policy", "lru", "--out", out], "--library: a library brings its own caches: give --library or --policy, not both"),
            (["run", "--profile", "low-end", "--network", "lte", "--library", "nuke", "--preset", "nuke", "--out", out], "--library: a library brings its own caches: give --library or --preset, not both"),
            (["tune", "--results", lowEnd, "--library", "nuke", "--out", out], "--results: expected no --library with --results"),
            (["apply", "--library", "nuke", lowEnd, "--out", out], "\(lowEnd):2: policy: expected a run of bench run --library nuke (nuke, nuke:prefetch=4, nuke:downsample, nuke:downsample:prefetch=4), found \"lru\""),
            (["apply", "--library", "nuke", "--out", out], "apply: expected one or more results files of bench run --library nuke"),
            (["apply", "--library", "glide", lowEnd, "--out", out], "--library: unknown library \"glide\"; expected one of nuke, kingfisher, sdwebimage"),
        ]
        for (arguments, message) in cases {
            let refused = try BenchProcess.run(arguments)
            #expect(refused.status == 2 && refused.stderr.hasPrefix("bench: " + message) && refused.stderr.split(separator: "\n").count == 1,
                    "\(arguments.joined(separator: " ")): \(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
    }
}
