@testable import FeedBench
import Testing

/// `--shard auto`: each engine's variables give the shard its task is; what is missing, half
/// set, out of range or contradictory is refused in one line naming the variables.
struct JobEngineShardTests {
    func shard(_ environment: [String: String], count: Int? = nil) throws -> Shard {
        try JobEngineShard.shard(environment: environment, count: count)
    }

    func refusal(_ environment: [String: String], count: Int? = nil) -> String {
        do {
            let found = try shard(environment, count: count)
            return "accepted \(found)"
        } catch {
            return "\(error)"
        }
    }

    @Test func eachEngineGivesItsTasksShard() throws {
        #expect(try shard(["JOB_COMPLETION_INDEX": "0"], count: 32) == Shard(index: 0, count: 32))
        #expect(try shard(["JOB_COMPLETION_INDEX": "31"], count: 32) == Shard(index: 31, count: 32))
        // Slurm arrays may start anywhere: --array=1-7 and --array=0-6 name the same shards.
        let slurm = ["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "7", "SLURM_ARRAY_TASK_COUNT": "7"]
        #expect(try shard(slurm) == Shard(index: 2, count: 7))
        #expect(try shard(["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "6", "SLURM_ARRAY_TASK_COUNT": "7"]) == Shard(index: 2, count: 7))
        #expect(try shard(["CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "4"]) == Shard(index: 0, count: 4))
        #expect(try shard(["BUILDKITE_PARALLEL_JOB": "3", "BUILDKITE_PARALLEL_JOB_COUNT": "4"]) == Shard(index: 3, count: 4))
        #expect(try shard(["CIRCLE_NODE_INDEX": "0", "CIRCLE_NODE_TOTAL": "1"]) == .whole)
        // A count given beside an engine's own is checked, not required.
        #expect(try shard(slurm, count: 7) == Shard(index: 2, count: 7))
        // Two engines that agree (a GitLab runner inside a Kubernetes Job) are one shard.
        #expect(try shard(["CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "4", "JOB_COMPLETION_INDEX": "1"], count: 4) == Shard(index: 1, count: 4))
    }

    @Test func noEngineIsRefusedListingTheVariablesLookedAt() {
        #expect(refusal(["HOME": "/root"]) == "--shard auto: expected a job engine's task variables, found none of JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_MIN, SLURM_ARRAY_TASK_MAX, SLURM_ARRAY_TASK_COUNT, CI_NODE_INDEX, CI_NODE_TOTAL, BUILDKITE_PARALLEL_JOB, BUILDKITE_PARALLEL_JOB_COUNT, CIRCLE_NODE_INDEX, CIRCLE_NODE_TOTAL; pass --shard K/N where the engine sets none (GitHub Actions: from the matrix)")
    }

    @Test(arguments: [
        (["JOB_COMPLETION_INDEX": "3"], nil,
         "--shard auto: expected --shard-count N with JOB_COMPLETION_INDEX (a Kubernetes Indexed Job's pods are not told the number of completions)"),
        (["JOB_COMPLETION_INDEX": "4"], 4, "--shard auto: expected an index within the count, found JOB_COMPLETION_INDEX=4 with --shard-count 4"),
        (["JOB_COMPLETION_INDEX": "-1"], 4, "--shard auto: expected JOB_COMPLETION_INDEX to be a whole number of at least 0, found \"-1\""),
        (["CI_NODE_INDEX": "0", "CI_NODE_TOTAL": "4"], nil, "--shard auto: expected an index within the count, found CI_NODE_INDEX=0 (counted from 1) of CI_NODE_TOTAL=4"),
        (["CI_NODE_INDEX": "5", "CI_NODE_TOTAL": "4"], nil, "--shard auto: expected an index within the count, found CI_NODE_INDEX=5 (counted from 1) of CI_NODE_TOTAL=4"),
        (["CIRCLE_NODE_INDEX": "1"], nil, "--shard auto: expected CIRCLE_NODE_INDEX, CIRCLE_NODE_TOTAL together, found CIRCLE_NODE_INDEX without CIRCLE_NODE_TOTAL"),
        (["BUILDKITE_PARALLEL_JOB": "x", "BUILDKITE_PARALLEL_JOB_COUNT": "4"], nil, "--shard auto: expected BUILDKITE_PARALLEL_JOB to be a whole number of at least 0, found \"x\""),
        (["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "9", "SLURM_ARRAY_TASK_COUNT": "5"], nil,
         "--shard auto: expected a contiguous Slurm array (--array=A-B, no step or list), found SLURM_ARRAY_TASK_MIN=1, SLURM_ARRAY_TASK_MAX=9 and SLURM_ARRAY_TASK_COUNT=5"),
        (["SLURM_ARRAY_TASK_ID": "3"], nil, "--shard auto: expected SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_MIN, SLURM_ARRAY_TASK_MAX, SLURM_ARRAY_TASK_COUNT together, found SLURM_ARRAY_TASK_ID without SLURM_ARRAY_TASK_MIN"),
        (["CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "4", "CIRCLE_NODE_INDEX": "1", "CIRCLE_NODE_TOTAL": "4"], nil,
         "--shard auto: expected one shard, found 1/4 from GitLab's variables and 2/4 from CircleCI's"),
        (["CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "4"], 8, "--shard-count: expected the count GitLab's variables give (4), found 8"),
        (["CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "4"], 0, "--shard-count: expected a whole number of shards of at least 1, found 0"),
    ] as [([String: String], Int?, String)])
    func contradictoryOrIncompleteVariablesAreRefused(environment: [String: String], count: Int?, message: String) {
        #expect(refusal(environment, count: count) == message)
    }
}
