import ArgumentParser
import FeedBench
import Foundation

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Re-run standard matrices and check that they still match the committed results/.",
        discussion: """
        For each profile (default: every built-in one) runs its standard matrix — what \
        `bench --profile <profile>` runs — into a temporary folder and compares it with \
        <results>/<profile>.csv. The simulator is deterministic, so by default every column \
        must match exactly: any change is a model change, better or worse. --tolerance relaxes \
        one metric (same syntax as bench compare).

        Exit status: 0 when every profile matches, 1 when one differs (its rows and metrics are \
        listed and the fresh results are kept in the temporary folder), 2 on unusable input \
        (unknown profile, missing or malformed results file).

        A change that moves the numbers on purpose regenerates results/ in the same commit:
          for p in low-end mid high-end tablet; do
            swift run -c release bench --profile $p
          done

        Docs: docs/ci-gating.md.
        """
    )

    @Argument(help: ArgumentHelp("Built-in profiles or profile JSON files (default: low-end, mid, high-end, tablet).", valueName: "profile"))
    var profiles: [String] = []

    @Option(help: ArgumentHelp("The folder of committed results, one <profile>.csv each.", valueName: "folder"))
    var results: String = "results"

    @Option(name: .customLong("tolerance"), help: ArgumentHelp("METRIC=ABS or METRIC=PCT% (repeatable): allow METRIC to move this much (default: exact).", valueName: "metric=value"))
    var tolerances: [String] = []

    @OptionGroup var jobs: JobsOption

    func run() throws {
        let started = DispatchTime.now()
        let jobs = try self.jobs.checked()
        let rules = ComparisonRules.exactMatch(overrides: try tolerances.map { try Tolerance.parseSetting($0, source: "--tolerance") })
        let devices = profiles.isEmpty ? DeviceProfile.builtIn : try profiles.map { try DeviceProfile.named($0) }
        // Every baseline is read before any profile runs: a missing one is refused at once, not
        // after the profiles before it have been simulated and reported.
        let baselines = try devices.map { try BaselineCheck.Baseline(profile: $0, resultsDirectory: results) }

        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("feedbench-check-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        var keepScratch = false
        defer { if !keepScratch { try? FileManager.default.removeItem(atPath: scratch) } }

        var differing: [String] = []
        for baseline in baselines {
            let device = baseline.profile
            let profileStarted = DispatchTime.now()
            let outcome = try BaselineCheck.run(baseline, scratchDirectory: scratch, rules: rules, jobs: jobs)
            let comparison = outcome.comparison
            if comparison.fails {
                differing.append(device.name)
                FileDescriptorOutput.write("\(device.name): differs from \(outcome.baselinePath)\n", to: 1)
                FileDescriptorOutput.write(ComparisonReport.render(comparison, as: .table), to: 1)
            } else {
                let rows = comparison.groups.reduce(0) { $0 + $1.rows.count }
                let how = comparison.isUnchanged ? "exactly" : "within tolerance"
                FileDescriptorOutput.write("\(device.name): \(rows) rows match \(outcome.baselinePath) \(how) (\(seconds(since: profileStarted)) s)\n", to: 1)
            }
        }
        guard differing.isEmpty else {
            keepScratch = true
            FileDescriptorOutput.write("""
                bench check: results differ for \(differing.joined(separator: ", ")); the fresh results are in \(scratch).
                If the model changed on purpose, regenerate results/ in the same commit:
                  for p in low-end mid high-end tablet; do swift run -c release bench --profile $p; done

                """, to: 1)
            throw ExitCode(1)
        }
        let count = devices.count == 1 ? "1 profile" : "\(devices.count) profiles"
        FileDescriptorOutput.write("checked \(count) in \(seconds(since: started)) s\n", to: 1)
    }

    func seconds(since start: DispatchTime) -> String {
        String(format: "%.1f", Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9)
    }
}
