// A stand-in for Apple's Network framework, for the tests that compile FeedBench's settings
// per network path: only the declarations those settings use (NWPathMonitor, NWPath,
// NWInterface.InterfaceType), named and typed as Apple's. Two things are the stand-in's own,
// for the tests: NWPath's initializer, and NWPathMonitor.simulate(_:), which delivers a path to
// every started monitor as the system does when the path changes.
import Dispatch
import Foundation

public struct NWInterface {
    public enum InterfaceType: Equatable, Sendable {
        case other, wifi, cellular, wiredEthernet, loopback
    }
}

public struct NWPath: Sendable {
    public enum Status: Equatable, Sendable {
        case satisfied, unsatisfied, requiresConnection
    }

    public let status: Status
    /// Cellular, or a Wi-Fi network the system knows to be a personal hotspot.
    public let isExpensive: Bool
    /// Low Data Mode.
    public let isConstrained: Bool
    let interfaces: [NWInterface.InterfaceType]

    public func usesInterfaceType(_ type: NWInterface.InterfaceType) -> Bool { interfaces.contains(type) }

    /// The stand-in's own: Apple's paths come from the system only.
    public init(interfaces: [NWInterface.InterfaceType], isExpensive: Bool, isConstrained: Bool, status: Status = .satisfied) {
        self.interfaces = interfaces
        self.isExpensive = isExpensive
        self.isConstrained = isConstrained
        self.status = status
    }
}

public final class NWPathMonitor: @unchecked Sendable {
    public var pathUpdateHandler: ((NWPath) -> Void)?
    public private(set) var currentPath = NWPath(interfaces: [.wifi], isExpensive: false, isConstrained: false)
    private var queue: DispatchQueue?

    private static let lock = NSLock()
    nonisolated(unsafe) private static var started: [NWPathMonitor] = []

    public init() {}

    /// Starts delivering paths on `queue`, the current one first, as Apple's does.
    public func start(queue: DispatchQueue) {
        self.queue = queue
        Self.lock.lock()
        Self.started.append(self)
        Self.lock.unlock()
        deliver(currentPath)
    }

    public func cancel() {
        Self.lock.lock()
        Self.started.removeAll { $0 === self }
        Self.lock.unlock()
        queue = nil
    }

    /// The stand-in's own: the system's path becomes `path`, and every started monitor is told.
    public static func simulate(_ path: NWPath) {
        lock.lock()
        let monitors = started
        lock.unlock()
        for monitor in monitors { monitor.deliver(path) }
    }

    private func deliver(_ path: NWPath) {
        currentPath = path
        queue?.async { self.pathUpdateHandler?(path) }
    }
}
