/// `bench sweep --shard auto`: the shard a job engine's task is, read from the variables the
/// engine sets — so one command line serves every task of an array or matrix.
///
/// | Engine | Index | Count |
/// |---|---|---|
/// | Kubernetes Indexed Job | `JOB_COMPLETION_INDEX` (0-based) | `--shard-count N` |
/// | Slurm job array | `SLURM_ARRAY_TASK_ID` − `SLURM_ARRAY_TASK_MIN` | `SLURM_ARRAY_TASK_COUNT` |
/// | GitLab `parallel:` | `CI_NODE_INDEX` (1-based) | `CI_NODE_TOTAL` |
/// | Buildkite `parallelism:` | `BUILDKITE_PARALLEL_JOB` (0-based) | `BUILDKITE_PARALLEL_JOB_COUNT` |
/// | CircleCI `parallelism:` | `CIRCLE_NODE_INDEX` (0-based) | `CIRCLE_NODE_TOTAL` |
///
/// GitHub Actions sets no such variable: a matrix passes `--shard K/N` itself. A Slurm array
/// must be a contiguous range (`--array=1-32`, any start, no step or list), so that task IDs
/// map one to one onto shards. Refused, naming the variables looked at: no engine's variables,
/// an engine's variables half set or not whole numbers, an index outside the count, two
/// engines that disagree, and a `--shard-count` that contradicts the engine's count.
public enum JobEngineShard {
    /// One engine's way of saying which task this is.
    struct Engine: Sendable {
        var name: String
        /// Every variable it reads, for messages.
        var variables: [String]
        /// The shard from `environment`, `nil` when none of `variables` is set.
        var read: @Sendable (_ environment: [String: String], _ count: Int?) throws -> Shard?
    }

    /// Where the variables are looked for, for messages.
    static let source = "--shard auto"

    /// The shard this task is, from `environment` (the process's, in `bench`); `count` is
    /// `--shard-count`, needed where the engine does not give one (Kubernetes).
    public static func shard(environment: [String: String], count: Int?) throws -> Shard {
        if let count, count < 1 {
            throw InputError(source: "--shard-count", "expected a whole number of shards of at least 1, found \(count)")
        }
        var found: [(engine: String, shard: Shard)] = []
        for engine in engines {
            if let shard = try engine.read(environment, count) { found.append((engine.name, shard)) }
        }
        guard let first = found.first else {
            let looked = engines.flatMap(\.variables).joined(separator: ", ")
            throw InputError(source: source, "expected a job engine's task variables, found none of \(looked); pass --shard K/N where the engine sets none (GitHub Actions: from the matrix)")
        }
        if let other = found.dropFirst().first(where: { $0.shard != first.shard }) {
            throw InputError(source: source, "expected one shard, found \(first.shard) from \(first.engine)'s variables and \(other.shard) from \(other.engine)'s")
        }
        if let count, count != first.shard.count {
            throw InputError(source: "--shard-count", "expected the count \(first.engine)'s variables give (\(first.shard.count)), found \(count)")
        }
        return first.shard
    }

    static let engines: [Engine] = [
        Engine(name: "Kubernetes", variables: ["JOB_COMPLETION_INDEX"]) { environment, count in
            guard let index = try number("JOB_COMPLETION_INDEX", in: environment) else { return nil }
            guard let count else {
                throw InputError(source: source, "expected --shard-count N with JOB_COMPLETION_INDEX (a Kubernetes Indexed Job's pods are not told the number of completions)")
            }
            return try shard(index: index, count: count, variables: "JOB_COMPLETION_INDEX=\(index) with --shard-count \(count)")
        },
        Engine(name: "Slurm", variables: ["SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_MAX", "SLURM_ARRAY_TASK_COUNT"]) { environment, _ in
            let names = ["SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_MAX", "SLURM_ARRAY_TASK_COUNT"]
            guard let values = try all(names, in: environment) else { return nil }
            let (id, low, high, count) = (values[0], values[1], values[2], values[3])
            guard high - low + 1 == count else {
                throw InputError(source: source, "expected a contiguous Slurm array (--array=A-B, no step or list), found SLURM_ARRAY_TASK_MIN=\(low), SLURM_ARRAY_TASK_MAX=\(high) and SLURM_ARRAY_TASK_COUNT=\(count)")
            }
            return try shard(index: id - low, count: count, variables: "SLURM_ARRAY_TASK_ID=\(id) in \(low)…\(high)")
        },
        pair(name: "GitLab", index: "CI_NODE_INDEX", count: "CI_NODE_TOTAL", firstIndex: 1),
        pair(name: "Buildkite", index: "BUILDKITE_PARALLEL_JOB", count: "BUILDKITE_PARALLEL_JOB_COUNT", firstIndex: 0),
        pair(name: "CircleCI", index: "CIRCLE_NODE_INDEX", count: "CIRCLE_NODE_TOTAL", firstIndex: 0),
    ]

    /// An engine that sets an index (counted from `firstIndex`) and a count.
    static func pair(name: String, index indexName: String, count countName: String, firstIndex: Int) -> Engine {
        Engine(name: name, variables: [indexName, countName]) { environment, _ in
            guard let values = try all([indexName, countName], in: environment) else { return nil }
            return try shard(index: values[0] - firstIndex, count: values[1],
                             variables: "\(indexName)=\(values[0]) (counted from \(firstIndex)) of \(countName)=\(values[1])")
        }
    }

    /// The values of `names`, `nil` when none is set; refused when only some are.
    static func all(_ names: [String], in environment: [String: String]) throws -> [Int]? {
        let values = try names.map { try number($0, in: environment) }
        if values.allSatisfy({ $0 == nil }) { return nil }
        if let missing = names.indices.first(where: { values[$0] == nil }) {
            let set = names.indices.filter { values[$0] != nil }.map { names[$0] }.joined(separator: ", ")
            throw InputError(source: source, "expected \(names.joined(separator: ", ")) together, found \(set) without \(names[missing])")
        }
        return values.map { $0! }
    }

    /// The variable `name` as a whole number ≥ 0, `nil` when unset.
    static func number(_ name: String, in environment: [String: String]) throws -> Int? {
        guard let text = environment[name] else { return nil }
        guard let value = Int(text), value >= 0, !text.hasPrefix("+") else {
            throw InputError(source: source, "expected \(name) to be a whole number of at least 0, found \(InputError.quote(text))")
        }
        return value
    }

    static func shard(index: Int, count: Int, variables: String) throws -> Shard {
        guard count >= 1, (0..<count).contains(index) else {
            throw InputError(source: source, "expected an index within the count, found \(variables)")
        }
        return Shard(index: index, count: count)
    }
}
