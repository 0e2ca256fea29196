import Dispatch

/// Runs many configurations on `jobs` threads and returns their results in the order given,
/// so the output is byte-identical whatever the number of jobs. Runs are independent (each
/// has its own store, caches, generators); worker `w` takes runs `w, w + jobs, …`.
public enum RunBatch {
    /// Runs `configurations`; with `storeDirectory`, each keeps its feed store in that folder,
    /// in the file `RunConfiguration.storeFileName` names, continuing what earlier runs left
    /// there (see `FeedSimulation.init`). Runs of one identity would share a file, so they are
    /// refused.
    public static func run(_ configurations: [RunConfiguration], jobs: Int, storeDirectory: String? = nil) throws -> [RunResult] {
        precondition(jobs > 0, "RunBatch: jobs must be positive")
        let storePaths = try storeDirectory.map { folder in
            var seen = Set<String>()
            return try configurations.map { configuration in
                let name = configuration.storeFileName
                guard seen.insert(name).inserted else {
                    throw InputError(source: "--store", "expected runs of distinct identities (each has its own store file), found \(InputError.quote(name)) twice")
                }
                return folder + "/" + name
            }
        }
        let slots = Slots(count: configurations.count)
        let workers = min(jobs, max(1, configurations.count))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for index in stride(from: worker, to: configurations.count, by: workers) {
                slots.store(index, Result { try FeedSimulation.run(configurations[index], storePath: storePaths?[index]) })
            }
        }
        return try slots.results.map { try $0!.get() }
    }

    /// One slot per run, each written by exactly one worker before `concurrentPerform` returns
    /// and read only after it: no two threads touch the same slot, and the storage is a plain
    /// buffer (a shared `Array` would be a data race on its header).
    final class Slots: @unchecked Sendable {
        let count: Int
        let buffer: UnsafeMutablePointer<Result<RunResult, Error>?>

        init(count: Int) {
            self.count = count
            buffer = .allocate(capacity: max(1, count))
            buffer.initialize(repeating: nil, count: count)
        }

        deinit {
            buffer.deinitialize(count: count)
            buffer.deallocate()
        }

        func store(_ index: Int, _ result: Result<RunResult, Error>) { buffer[index] = result }

        var results: [Result<RunResult, Error>?] { Array(UnsafeBufferPointer(start: buffer, count: count)) }
    }
}
