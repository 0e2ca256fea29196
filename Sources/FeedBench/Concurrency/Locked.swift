import Foundation

/// A value shared between threads and reached only under its lock.
///
/// An `NSLock` (a pthread mutex), not `Synchronization.Mutex`: on Linux the latter waits on
/// futexes that ThreadSanitizer cannot see, so every access made under it was reported as a
/// race (`.ci/run`'s TSan pass over `bench run --jobs 2`).
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` on the value with the lock held. O(1) plus `body`.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
