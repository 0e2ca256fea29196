import Dispatch
import FeedBench

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns Ctrl-C (SIGINT) and SIGTERM into a `StopRequest`, so a long command can finish the
/// runs under way and publish what it has. A second signal ends the process at once.
final class Interruption: @unchecked Sendable {
    let request = StopRequest()
    private(set) var received: Int32?
    private var sources: [DispatchSourceSignal] = []

    /// Starts listening; the handlers run on a background queue.
    init(onFirst: @escaping @Sendable (Int32) -> Void) {
        for number in [SIGINT, SIGTERM] {
            _ = signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [unowned self] in
                if request.isRequested { _exit(128 + number) }
                self.received = number
                request.stop()
                onFirst(number)
            }
            source.resume()
            sources.append(source)
        }
    }

    /// The exit status a shell expects after the signal: 128 + its number.
    var exitStatus: Int32 { 128 + (received ?? SIGINT) }
}
