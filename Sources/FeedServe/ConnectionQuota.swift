#if HTTP
import Foundation
import HummingbirdCore
import Logging
import NIOCore
import Synchronization

/// Keeps the server's connections within what its descriptor limit leaves: past `limit` open
/// at once, a new connection is closed as soon as it is accepted, and the ones open are served
/// on. Without it, under `prlimit --nofile=256`, 300 connections from h2load or wrk used every
/// descriptor, and the server died (SIGILL: libdispatch traps when it cannot get one it needs).
/// One quota is shared by every connection (`ConnectionQuota.Gate` wraps each).
final class ConnectionQuota: Sendable {
    /// The descriptors of the soft `RLIMIT_NOFILE` left to the rest of the server: the runtime's
    /// own (about 17 when idle), the log, a refused connection's moment.
    static let reserve = 64

    let limit: Int
    private let open = Atomic(0)

    /// A quota of `limit` connections; by default what the soft descriptor limit leaves.
    init(limit: Int = ConnectionQuota.descriptorLimit - reserve) {
        self.limit = max(1, limit)
    }

    /// The soft limit on open descriptors (`Int.max` when there is none).
    static var descriptorLimit: Int {
        var limits = rlimit()
        #if canImport(Glibc)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limits) == 0, limits.rlim_cur < rlim_t(Int.max) else { return .max }
        return Int(limits.rlim_cur)
    }

    /// Takes a place for `channel` until it closes; `false` (and the channel closed) when full.
    func admit(_ channel: any Channel) -> Bool {
        guard open.add(1, ordering: .relaxed).newValue <= limit else {
            open.subtract(1, ordering: .relaxed)
            channel.close(promise: nil)
            return false
        }
        channel.closeFuture.whenComplete { _ in self.open.subtract(1, ordering: .relaxed) }
        return true
    }

    /// A server's connections of `Base`, each admitted by the quota before it is set up.
    struct Gate<Base: ServerChildChannel>: ServerChildChannel {
        typealias Value = Base.Value
        let base: Base
        let quota: ConnectionQuota

        func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
            guard quota.admit(channel) else { return channel.eventLoop.makeFailedFuture(ChannelError.inputClosed) }
            return base.setup(channel: channel, logger: logger)
        }

        func handle(value: Value, logger: Logger) async {
            await base.handle(value: value, logger: logger)
        }
    }
}
#endif
