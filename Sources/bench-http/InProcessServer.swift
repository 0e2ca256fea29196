#if HTTP
import Dispatch
import FeedBench
import FeedServe

/// A `bench serve` running in this process on Swift's concurrency pool, for a command that
/// blocks its own thread meanwhile (a live run): started and stopped synchronously.
final class InProcessServer: @unchecked Sendable {
    let url: String
    private let task: Task<Void, Error>

    /// Starts serving; returns once the socket is bound. Throws what the server throws then.
    init(_ settings: ServeSettings) throws {
        let started = DispatchSemaphore(value: 0)
        let outcome = Locked<Result<(url: String, task: Task<Void, Error>), Error>?>(nil)
        Task {
            do {
                let running = try await FeedServer(settings: settings).start()
                outcome.withLock { $0 = .success(running) }
            } catch {
                outcome.withLock { $0 = .failure(error) }
            }
            started.signal()
        }
        started.wait()
        (url, task) = try outcome.withLock { $0! }.get()
    }

    /// Stops the server (the responses under way finish) and waits for it.
    func stop() {
        let stopped = DispatchSemaphore(value: 0)
        task.cancel()
        Task { [task] in
            _ = try? await task.value
            stopped.signal()
        }
        stopped.wait()
    }
}
#endif
