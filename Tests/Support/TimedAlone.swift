import Testing

/// A trait for a test that times things on the wall clock (a server's injected delays, a
/// live run held to the simulation's bands): such tests take turns, one at a time in the whole
/// test process, every test target included.
///
/// Swift Testing runs suites in parallel. On a 2-core machine two timed tests side by side,
/// each with a debug-built server and client, pushed each other's delays 5–10 ms high and
/// changed which prefetches a live run started; every timed test passed when run alone. Other
/// tests still run beside a timed one: the timed tests' bounds allow for that much.
///
///     @Test(.timedAlone) func latencyIsTheModels() async throws { … }
public struct TimedAlone: TestTrait, TestScoping {
    public init() {}

    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        await Self.turns.take()
        do {
            try await function()
        } catch {
            await Self.turns.give()
            throw error
        }
        await Self.turns.give()
    }

    /// The one queue of turns in the process.
    private static let turns = Turns()

    /// Who holds the turn and who waits for it, first come first served.
    private actor Turns {
        private var taken = false
        private var waiting: [CheckedContinuation<Void, Never>] = []

        /// Returns when the caller holds the turn.
        func take() async {
            guard taken else {
                taken = true
                return
            }
            await withCheckedContinuation { waiting.append($0) }
        }

        /// Hands the turn to the longest waiting test, or frees it.
        func give() {
            if waiting.isEmpty {
                taken = false
            } else {
                waiting.removeFirst().resume()
            }
        }
    }
}

extension Trait where Self == TimedAlone {
    /// The test runs alone among the tests with this trait (`TimedAlone`).
    public static var timedAlone: Self { TimedAlone() }
}
