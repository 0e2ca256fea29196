#if HTTP
import NIOCore
import Synchronization

/// The client closed its connection while its response was under way (a cancelled download):
/// the request's wait ends at once, as the simulated app's cancel ends its exchange.
struct ClientClosed: Error {}

/// Which connections' clients have closed, so that a response waiting on the network model
/// learns it when it happens rather than at its next write. Without it a cancelled download
/// stayed in the model until the server next wrote to it — at 3g, behind a drop-tail buffer
/// that drains in 0.8 s, up to 0.8 s (and the first write to a closed socket succeeds) — and
/// kept its share of the link meanwhile, delaying every other response (`bench agree`: 3g
/// downloaded 39 % more bytes live than simulated).
///
/// A connection is watched while a request on it waits (`begin` … `end`); the channel handler
/// (`Watcher`) reports the client's half-close and the channel's end. Each wait is a
/// continuation resumed by a timer on the channel's event loop or by the close, whichever comes
/// first: O(1) under one lock.
final class ClientClosures: Sendable {
    struct Watch {
        var active = false
        var closed = false
        var waiters: [UInt64: CheckedContinuation<Bool, Never>] = [:]
    }

    struct Table {
        var watches: [ObjectIdentifier: Watch] = [:]
        var nextWaiter: UInt64 = 0
    }

    private let table = Mutex(Table())

    /// A request on `connection` starts waiting on the model.
    func begin(_ connection: ObjectIdentifier) {
        table.withLock { $0.watches[connection, default: Watch()].active = true }
    }

    /// The request on `connection` is done; a connection whose client has closed is forgotten.
    func end(_ connection: ObjectIdentifier) {
        table.withLock { table in
            if table.watches[connection]?.closed == true { table.watches[connection] = nil } else { table.watches[connection]?.active = false }
        }
    }

    /// The client of `connection` closed it: its waits end. A connection with no request under
    /// way is forgotten (a next request cannot come on it).
    func closed(_ connection: ObjectIdentifier) {
        let waiters = table.withLock { table -> [CheckedContinuation<Bool, Never>] in
            guard var watch = table.watches[connection], watch.active else {
                table.watches[connection] = nil
                return []
            }
            watch.closed = true
            let waiting = Array(watch.waiters.values)
            watch.waiters.removeAll()
            table.watches[connection] = watch
            return waiting
        }
        for waiter in waiters { waiter.resume(returning: true) }
    }

    func isClosed(_ connection: ObjectIdentifier) -> Bool {
        table.withLock { $0.watches[connection]?.closed == true }
    }

    /// Waits `delay` nanoseconds on `eventLoop`'s timer, or until the client of `connection`
    /// closes (then throws `ClientClosed`) or the task is cancelled (then throws
    /// `CancellationError`).
    func wait(_ delay: Int64, on connection: ObjectIdentifier, eventLoop: any EventLoop) async throws {
        let id = table.withLock { table -> UInt64 in
            table.nextWaiter &+= 1
            return table.nextWaiter
        }
        let closedWhileWaiting = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let waiting = table.withLock { table -> Bool in
                    guard table.watches[connection]?.closed != true else { return false }
                    table.watches[connection, default: Watch()].waiters[id] = continuation
                    return true
                }
                guard waiting else {
                    continuation.resume(returning: true)
                    return
                }
                eventLoop.scheduleTask(in: .nanoseconds(max(0, delay))) { self.resume(id, on: connection) }
            }
        } onCancel: {
            resume(id, on: connection)
        }
        if closedWhileWaiting { throw ClientClosed() }
        try Task.checkCancellation()
    }

    /// Ends the wait `id` (its timer, or the task's cancellation), if it has not ended.
    private func resume(_ id: UInt64, on connection: ObjectIdentifier) {
        table.withLock { $0.watches[connection]?.waiters.removeValue(forKey: id) }?.resume(returning: false)
    }

    /// The channel handler that tells `closures` when a connection's client closes it: its
    /// half-close (a FIN: Hummingbird allows half-closure, so the channel stays open for writes)
    /// or the channel's end (a reset, or the server closing it).
    final class Watcher: ChannelInboundHandler, RemovableChannelHandler, Sendable {
        typealias InboundIn = NIOAny
        let closures: ClientClosures

        init(_ closures: ClientClosures) {
            self.closures = closures
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            // An HTTP/2 request ends its stream's input as it is sent; a stream is cancelled by
            // its reset, which ends the channel.
            if let event = event as? ChannelEvent, event == .inputClosed, !context.channel.isHTTP2Stream {
                closures.closed(ObjectIdentifier(context.channel))
            }
            context.fireUserInboundEventTriggered(event)
        }

        func channelInactive(context: ChannelHandlerContext) {
            closures.closed(ObjectIdentifier(context.channel))
            context.fireChannelInactive()
        }
    }
}
#endif
