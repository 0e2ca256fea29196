@testable import FeedBench
import Testing

/// The plan: grid order with seeds innermost, the same runs as the standard matrix, and a
/// fingerprint that changes with anything that changes the runs.
@Suite struct SweepPlanTests {
    func grid(_ axes: [String: [String]]) -> SweepGrid {
        var grid = SweepGrid()
        func values(_ key: String) -> [SweepGrid.Value] { (axes[key] ?? []).map { SweepGrid.Value($0, source: "--\(key)") } }
        grid.profiles = values("profiles")
        grid.policies = values("policies")
        grid.windows = values("windows")
        grid.behaviors = values("behaviors")
        grid.seeds = values("seeds")
        grid.memoryLimits = values("memory_limits")
        grid.imageWidths = values("image_widths")
        return grid
    }

    /// Issue 64: the image widths are an axis outside the caches — each width's runs share as
    /// before, named in the scenario — `cell` is each profile's own cell, and the original width
    /// alone leaves the runs and the fingerprint as they were.
    @Test func imageWidthsAreAnAxisOutsideTheCaches() throws {
        let axes = ["profiles": ["low-end", "tablet"], "policies": ["lru", "fifo"], "windows": ["0", "10"], "behaviors": ["browser"],
                    "seeds": ["1", "2"], "memory_limits": ["0.25x", "1x"]]
        let before = try SweepPlan(grid(axes))
        let full = try SweepPlan(grid(axes.merging(["image_widths": ["full"]]) { $1 }))
        #expect(full.fingerprint == before.fingerprint && full.count == before.count)
        #expect(full.configurations.map(\.emptyResult.identity) == before.configurations.map(\.emptyResult.identity))

        let plan = try SweepPlan(grid(axes.merging(["image_widths": ["cell", "full", "500"]]) { $1 }))
        #expect(plan.count == 3 * before.count && plan.fingerprint != before.fingerprint)
        let rows = plan.configurations
        let perWidth = before.count / 2
        #expect(rows.prefix(perWidth).allSatisfy { $0.imageWidth == 750 && $0.emptyResult.scenario == "cacheFirst;width=750" })
        #expect(rows[perWidth..<(2 * perWidth)].allSatisfy { $0.imageWidth == nil && $0.emptyResult.scenario == "cacheFirst" })
        #expect(rows[(3 * perWidth)...].prefix(perWidth).allSatisfy { $0.profile.name == "tablet" && $0.imageWidth == 556 })
        for index in 0..<plan.count {
            let group = plan.sharingGroup(at: index)!
            #expect(rows[group].imageWidth == rows[index].imageWidth)
        }
        var tune = grid(axes.merging(["image_widths": ["cell", "full"], "profiles": ["low-end"]]) { $1 })
        tune.networks = []
        let space = try TuneSpace(plan: SweepPlan(tune))
        #expect(space.candidateCount == 2 * 2 * 2 * 2)
        let widths = (0..<space.candidateCount).map { space.configuration(of: $0).imageWidth }
        #expect(widths.prefix(8).allSatisfy { $0 == 750 } && widths.suffix(8).allSatisfy { $0 == nil })
    }

    @Test func runsComeInGridOrderWithSeedsInnermost() throws {
        let plan = try SweepPlan(grid(["profiles": ["low-end", "mid"], "policies": ["lru", "lfu"], "windows": ["0", "10"],
                                       "behaviors": ["browser"], "seeds": ["1", "2", "3"]]))
        #expect(plan.count == 24)
        let rows = plan.configurations.map(\.emptyResult)
        #expect(rows.prefix(3).map(\.seed) == [1, 2, 3])
        #expect(rows.prefix(6).map(\.prefetchWindow) == ["0", "0", "0", "10", "10", "10"])
        #expect(rows[6].policy == "lfu" && rows[11].policy == "lfu" && rows[12].profile == "mid")
        #expect(Set(rows.map(\.identity)).count == 24)
    }

    @Test func theStandardMatrixIsThePlanOfOneProfile() throws {
        let plan = try SweepPlan(grid(["profiles": ["low-end"], "memory_limits": ["0.03125x", "0.0625x", "0.125x", "0.25x", "0.5x", "1x"], "seeds": ["1", "2", "3"]]))
        let standard = try StandardMatrix.plan(profile: .lowEnd).configurations
        #expect(plan.configurations.map(\.emptyResult.identity) == standard.map(\.emptyResult.identity))
        #expect(plan.count == 4 * 6 * 6 * 2 * 3)
        #expect(Set(standard.map(\.pipeline.memoryLimits.maxBytes)) == [14_745_600, 29_491_200, 58_982_400, 117_964_800, 235_929_600, 471_859_200])
    }

    /// `RunBatch` shares runs within a group, so a group must be exactly the runs that differ
    /// in the memory cache's policy and limit alone.
    @Test func runsShareAGroupExactlyWhenOnlyTheirPolicyAndMemoryLimitDiffer() throws {
        var grid = grid(["profiles": ["low-end", "tablet"], "policies": ["lru", "ttl:max-age=300"], "windows": ["0", "10"],
                         "behaviors": ["browser", "skimmer"], "seeds": ["1", "2"], "memory_limits": ["0.25x", "1x"]])
        grid.presets = [SweepGrid.Value("nuke", source: "--presets")]
        let plan = try SweepPlan(grid)
        let rows = plan.configurations.map(\.emptyResult)
        func rest(_ row: RunResult) -> [String] {
            let identity = row.identity
            return identity.enumerated().filter { ![RunResult.identityIndex("policy"), RunResult.identityIndex("memory_limit_bytes")].contains($0.offset) }.map(\.element)
        }
        for index in 0..<plan.count {
            guard let group = plan.sharingGroup(at: index) else {
                #expect(rows[index].policy.hasPrefix("nuke"), "only a preset's runs stand alone")
                continue
            }
            #expect(rest(rows[group]) == rest(rows[index]) && plan.sharingGroup(at: group) == group)
            for other in 0..<plan.count where !rows[other].policy.hasPrefix("nuke") && rest(rows[other]) == rest(rows[index]) {
                #expect(plan.sharingGroup(at: other) == group)
            }
        }
        #expect(Set((0..<plan.count).compactMap(plan.sharingGroup(at:))).count == 2 * 2 * 2 * 2)
    }

    @Test func defaultsCoverEveryBuiltInProfile() throws {
        let plan = try SweepPlan(SweepGrid())
        #expect(plan.profiles.map(\.name) == DeviceProfile.builtIn.map(\.name))
        #expect(plan.count == 4 * 48)
    }

    /// The networks the runs simulate, each once: each profile's own by default, else those given.
    @Test func theSimulatedNetworksAreEachProfilesOwnOrThoseGivenEachOnce() throws {
        let own = try SweepPlan(grid(["profiles": ["low-end", "mid", "high-end"]]))
        #expect(own.simulatedNetworks.map(\.name) == ["lte", "wifi"])
        #expect(own.simulatedNetworks == (own.configurations.map(\.network).reduce(into: [NetworkProfile]()) { if !$0.contains($1) { $0.append($1) } }))
        var given = grid(["profiles": ["low-end", "mid"]])
        given.networks = ["3g", "wifi"].map { SweepGrid.Value($0, source: "--network") }
        #expect(try SweepPlan(given).simulatedNetworks.map(\.name) == ["3g", "wifi"])
        // As the runs have them: over the HTTP version the session names (`--http 1.1`).
        given.session.http = .http11
        let http11 = try SweepPlan(given)
        #expect(http11.simulatedNetworks.map(\.http) == [.http11, .http11])
        #expect(http11.simulatedNetworks == (http11.configurations.map(\.network).reduce(into: [NetworkProfile]()) { if !$0.contains($1) { $0.append($1) } }))
    }

    @Test func theFingerprintFollowsWhatDecidesTheRuns() throws {
        let base = ["profiles": ["low-end"], "policies": ["lru"], "seeds": ["1", "2"]]
        let a = try SweepPlan(grid(base)).fingerprint
        #expect(try SweepPlan(grid(base)).fingerprint == a)
        #expect(a.count == 16)
        var changed = base
        changed["seeds"] = ["2", "1"]
        #expect(try SweepPlan(grid(changed)).fingerprint != a)
        changed = base
        changed["memory_limits"] = ["100MB"]
        #expect(try SweepPlan(grid(changed)).fingerprint != a)
        var longer = grid(base)
        longer.session.duration = 30_000_000_000
        #expect(try SweepPlan(longer).fingerprint != a)
    }

    @Test func memoryLimitsReplaceTheCostLimitAndKeepAPresetsCountLimit() throws {
        var presets = grid(["profiles": ["low-end"], "memory_limits": ["64MB"], "windows": ["0"], "behaviors": ["browser"]])
        presets.presets = [SweepGrid.Value("default", source: "--preset")]
        let run = try SweepPlan(presets).configuration(at: 0)
        #expect(run.pipeline.memoryLimits.maxBytes == 64_000_000)
        #expect(run.pipeline.memoryLimits.maxCount == 100)
    }

    /// `--offline launch:N` needs an N-th launch, wherever the launches were set (a config file
    /// or `--launches`).
    @Test func anOfflineLaunchBeyondTheLaunchesIsRefused() throws {
        var one = grid(["profiles": ["low-end"], "policies": ["lru"], "windows": ["0"], "behaviors": ["browser"]])
        try one.session.offline.add("launch:5", source: "--offline")
        #expect(throws: InputError(source: "--offline", "expected launch:N with N at most the 1 launch of a run (--launches), found \"launch:5\"")) {
            try SweepPlan(one)
        }
        one.session.launches = 4
        #expect(throws: InputError(source: "--offline", "expected launch:N with N at most the 4 launches of a run (--launches), found \"launch:5\"")) {
            try SweepPlan(one)
        }
        one.session.launches = 5
        #expect(try SweepPlan(one).count == 1)
    }

    /// `--trace` takes behaviours and recorded files alike, in run, sweep and tune.
    @Test func tracesAreSortedIntoBehavioursAndRecordings() throws {
        var grid = SweepGrid()
        try grid.addTraces(SweepGrid.values(["skimmer,mine.csv", "reader"], option: "--trace"))
        #expect(grid.behaviors.map(\.text) == ["skimmer", "reader"] && grid.traces.map(\.text) == ["mine.csv"])
        #expect(grid.behaviors.allSatisfy { $0.source == "--trace" })
        #expect(throws: InputError(source: "--trace", "unknown behaviour \"walker\"; expected one of reader, browser, skimmer, revisitor or a .csv file")) {
            try grid.addTraces(SweepGrid.values(["walker"], option: "--trace"))
        }
    }
}
