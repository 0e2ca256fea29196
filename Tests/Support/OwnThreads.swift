import Foundation
import Synchronization

/// Threads of the tests' own, outside Swift's shared cooperative pool.
///
/// That pool has as many threads as cores: two here. Swift Testing runs synchronous tests on it,
/// and a test waiting for a `bench` process blocks its thread until the process ends, so a
/// server in the test process whose handlers ran on the pool, or a live run holding one of its
/// threads, could wait for seconds: a 10-second live run in the full suite once displayed
/// nothing. A timed test runs its server on `executor` and its blocking work with `run`.
public enum OwnThreads {
    /// Runs the tasks that prefer it (`Task(executorPreference:)`) and their child tasks on two
    /// threads of its own.
    public static let executor = Executor(threads: 2)

    /// Runs `body(worker)` for each of `workers` workers, each on a thread of its own, and
    /// returns their results in worker order (or the first error).
    public static func run<T: Sendable>(_ workers: Int = 1, _ body: @escaping @Sendable (Int) throws -> T) async throws -> [T] {
        let results = Mutex<[Int: Result<T, Error>]>([:])
        return try await withCheckedThrowingContinuation { continuation in
            for worker in 0..<workers {
                Thread {
                    let result = Result { try body(worker) }
                    let finished = results.withLock { done -> [Int: Result<T, Error>]? in
                        done[worker] = result
                        return done.count == workers ? done : nil
                    }
                    if let finished { continuation.resume(with: Result { try (0..<workers).map { try finished[$0]!.get() } }) }
                }.start()
            }
        }
    }

    /// A task executor on threads that live as long as the process, taking jobs in the order
    /// they came.
    public final class Executor: TaskExecutor, Sendable {
        private let jobs = Mutex<[UnownedJob]>([])
        private let ready = DispatchSemaphore(value: 0)

        init(threads: Int) {
            for _ in 0..<threads {
                Thread { [self] in
                    while true {
                        ready.wait()
                        let job = jobs.withLock { $0.removeFirst() }
                        job.runSynchronously(on: asUnownedTaskExecutor())
                    }
                }.start()
            }
        }

        public func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            jobs.withLock { $0.append(job) }
            ready.signal()
        }
    }
}
