import Foundation

/// Asks a sweep to stop: set from a signal handler (Ctrl-C, SIGTERM) or a test. Runs under way
/// finish; no new run starts.
public final class StopRequest: @unchecked Sendable {
    private let lock = NSLock()
    private var requested = false

    public init() {}

    public func stop() { lock.withLock { requested = true } }

    public var isRequested: Bool { lock.withLock { requested } }
}

/// Runs `count` simulations on `jobs` threads and hands each result to the caller, on the
/// caller's thread, in position order — so what the caller writes is the same whatever `jobs`
/// is. Memory stays bounded whatever `count` is: a thread starts position `p` only when
/// `p < delivered + window`, so at most `window` results wait for an earlier one.
///
/// When `stop` is requested (or a run throws), no new run starts; the runs under way finish,
/// and every finished result is still delivered, in position order with gaps.
public enum SweepRunner {
    /// How a pass ended.
    public enum Outcome: Sendable, Equatable {
        /// Every position was delivered.
        case finished
        /// A stop request ended it early; the delivered positions are all that finished.
        case stopped
    }

    /// Runs positions `0..<count`, building each with `configuration` (its feed store in the
    /// file `storePath` names, or in memory), and calls `deliver`
    /// once per finished position in increasing order and `progress` with the number delivered
    /// so far. Rethrows the error of the earliest failed position, after delivering the results
    /// before it.
    public static func run(count: Int, jobs: Int, stop: StopRequest? = nil,
                           configuration: @escaping @Sendable (Int) -> RunConfiguration,
                           storePath: @escaping @Sendable (Int) -> String? = { _ in nil },
                           progress: (Int) -> Void = { _ in },
                           deliver: (Int, RunResult) throws -> Void) throws -> Outcome {
        try run(count: count, jobs: jobs, stop: stop, work: { try FeedSimulation.run(configuration($0), storePath: storePath($0)) },
                progress: progress, deliver: deliver)
    }

    /// Does `work` for positions `0..<count` on `jobs` threads, as `run(count:jobs:stop:configuration:…)` does runs:
    /// `deliver` gets each finished position's output in increasing order, `progress` the number delivered so far;
    /// rethrows the error of the earliest failed position, after delivering the outputs before it.
    public static func run<Output: Sendable>(count: Int, jobs: Int, stop: StopRequest? = nil,
                                             work: @escaping @Sendable (Int) throws -> Output,
                                             progress: (Int) -> Void = { _ in },
                                             deliver: (Int, Output) throws -> Void) throws -> Outcome {
        precondition(jobs > 0, "SweepRunner: jobs must be positive")
        let state = State<Output>(count: count, window: 4 * jobs + 16, stop: stop)
        let workers = min(jobs, max(count, 1))
        let group = DispatchGroup()
        for _ in 0..<workers {
            group.enter()
            let thread = Thread {
                state.work(work)
                group.leave()
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        var failure: Error?
        var delivered = 0
        while let (position, result) = state.nextInOrder() {
            switch result {
            case let .success(output):
                try deliver(position, output)
                delivered += 1
                progress(delivered)
            case let .failure(error):
                failure = failure ?? error
                state.abandon()
            }
        }
        group.wait()
        // Stopped early: whatever finished after the first gap, in order.
        for (position, result) in state.leftovers() {
            guard case let .success(output) = result else { continue }
            try deliver(position, output)
            delivered += 1
            progress(delivered)
        }
        if let failure { throw failure }
        return delivered == count ? .finished : .stopped
    }

    /// What the threads share, behind one condition lock.
    final class State<Output>: @unchecked Sendable {
        let count: Int
        let window: Int
        let stop: StopRequest?
        let condition = NSCondition()
        var nextToStart = 0
        var nextToDeliver = 0
        var running = 0
        var abandoned = false
        var finished: [Int: Result<Output, Error>] = [:]

        init(count: Int, window: Int, stop: StopRequest?) {
            self.count = count
            self.window = window
            self.stop = stop
        }

        var stopping: Bool { abandoned || stop?.isRequested == true }

        /// A worker thread: takes positions in order until none is left or a stop is requested.
        func work(_ work: (Int) throws -> Output) {
            condition.lock()
            running += 1
            while true {
                while !stopping && nextToStart < count && nextToStart >= nextToDeliver + window {
                    _ = condition.wait(until: Date(timeIntervalSinceNow: 0.1))
                }
                guard !stopping, nextToStart < count else { break }
                let position = nextToStart
                nextToStart += 1
                condition.unlock()
                let result = Result { try work(position) }
                condition.lock()
                finished[position] = result
                condition.broadcast()
            }
            running -= 1
            condition.broadcast()
            condition.unlock()
        }

        /// The next position's result once it is there; `nil` when every position was
        /// delivered, or when the workers have stopped and the next position never ran.
        func nextInOrder() -> (Int, Result<Output, Error>)? {
            condition.lock()
            defer { condition.unlock() }
            while true {
                if let result = finished.removeValue(forKey: nextToDeliver) {
                    nextToDeliver += 1
                    condition.broadcast()
                    return (nextToDeliver - 1, result)
                }
                if nextToDeliver == count { return nil }
                if stopping && (running == 0 || nextToDeliver >= nextToStart) {
                    // The next position is not running and never will; wait for the others.
                    return nil
                }
                _ = condition.wait(until: Date(timeIntervalSinceNow: 0.1))
            }
        }

        /// Stops starting runs after a failure.
        func abandon() {
            condition.lock()
            abandoned = true
            condition.broadcast()
            condition.unlock()
        }

        /// After the workers have ended: the finished results not yet delivered, in order.
        func leftovers() -> [(Int, Result<Output, Error>)] {
            condition.lock()
            defer { condition.unlock() }
            let rest = finished.sorted { $0.key < $1.key }
            finished.removeAll()
            return rest.map { ($0.key, $0.value) }
        }
    }
}
