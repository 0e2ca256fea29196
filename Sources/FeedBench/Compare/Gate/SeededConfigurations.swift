/// A results file's runs as configurations: rows equal in every identity column but the seed
/// (and but the columns a comparison leaves out, `ignoring`) are one configuration, with one
/// row of figures per seed. A sweep's mean, min and max rows are left out: they summarise runs
/// that are already there. Configurations and their seeds keep file order.
struct SeededConfigurations: Sendable {
    /// One configuration: the identity of its first row, the file line it starts on, and its
    /// seeds with their figures (`ResultMetric.all` order, scaled).
    struct Configuration: Sendable {
        let identity: [String]
        let line: Int
        var seeds: [String]
        var values: [[Int64]]

        /// The figures of `metric` on each seed, in seed order. O(seeds).
        func values(of metric: ResultMetric) -> [Int64] {
            let column = ResultMetric.all.firstIndex(of: metric)!
            return values.map { $0[column] }
        }

        /// The figures of `metric` on `seed`, if the configuration ran it. O(seeds).
        func value(of metric: ResultMetric, seed: String) -> Int64? {
            seeds.firstIndex(of: seed).map { values[$0][ResultMetric.all.firstIndex(of: metric)!] }
        }

        /// The configuration on `kept` only (seeds it ran), in its own order. O(seeds).
        func restricted(to kept: Set<String>) -> Configuration {
            var restricted = self
            let places = seeds.indices.filter { kept.contains(seeds[$0]) }
            (restricted.seeds, restricted.values) = (places.map { seeds[$0] }, places.map { values[$0] })
            return restricted
        }
    }

    let path: String
    let configurations: [Configuration]
    /// Each configuration's key (its identity cells but the seed and the columns ignored) to
    /// its place in `configurations`.
    let index: [[String]: Int]
    /// The identity columns the key is made of, by their place in `RunResult.identityColumns`.
    let keyColumns: [Int]

    /// Groups `file`'s rows, leaving `ignoring` (identity column indices) out of the key.
    /// O(rows).
    init(_ file: ResultsFile, ignoring: Set<Int> = []) {
        path = file.path
        let seed = RunResult.identityIndex("seed")
        keyColumns = RunResult.identityColumns.indices.filter { $0 != seed && !ignoring.contains($0) }
        var configurations: [Configuration] = []
        var index: [[String]: Int] = [:]
        for row in file.rows where !row.isAggregate {
            let key = keyColumns.map { row.identity[$0] }
            if let place = index[key] {
                configurations[place].seeds.append(row.identity[seed])
                configurations[place].values.append(row.values)
            } else {
                index[key] = configurations.count
                configurations.append(Configuration(identity: row.identity, line: row.line, seeds: [row.identity[seed]], values: [row.values]))
            }
        }
        self.configurations = configurations
        self.index = index
    }

    /// The key of `configuration`, as `index` holds it. O(columns).
    func key(_ configuration: Configuration) -> [String] { keyColumns.map { configuration.identity[$0] } }

    /// The seeds of the file, in the order they first appear. O(runs).
    var seeds: [String] {
        var seen = Set<String>()
        return configurations.flatMap(\.seeds).filter { seen.insert($0).inserted }
    }
}
