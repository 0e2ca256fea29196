#if HTTP
@testable import FeedBench

/// What the simulation's network model says of the requests in a `bench serve` log: each
/// request that crossed the network is sent to a `SimulatedNetwork` of the server's network and
/// seed when the server's model took it (`sent_ms`; API calls after their logged server time), each one abandoned
/// (499) is cancelled when its line was written, and the model gives each its connection,
/// whether it opened it, and when its last byte arrives.
enum ModelReplay {
    /// One request as the model sees it.
    struct Expected: Equatable {
        var connection: Int
        var opened: Bool
        /// From arrival to the last byte; `nil` for a request abandoned before it.
        var duration: Int64?
    }

    /// The model's answer for each record that crossed the network (API calls and whole image
    /// downloads, completed or abandoned), by the record's index in `records` (in arrival order,
    /// as `RequestLogFile.records` gives them).
    static func replay(_ records: [RequestLogFile.Record], network profile: NetworkProfile, seed: UInt64) -> [Int: Expected] {
        enum Event { case send(Int), cancel(Int) }
        var events: [(time: Int64, event: Event)] = []
        for (index, record) in records.enumerated() where crossesNetwork(record) {
            events.append((record.sentOrArrival, .send(index)))
            if record.status == RequestLogFile.clientClosed { events.append((record.time + record.duration, .cancel(index))) }
        }
        events.sort { $0.time < $1.time }
        let network = SimulatedNetwork(network: profile, seed: seed)
        var expected: [Int: Expected] = [:]
        func run(until time: Int64) {
            while let next = network.nextTime(), next <= time {
                for case let .image(_, index) in network.takeDelivered(at: next) { expected[index]?.duration = next - records[index].time }
            }
        }
        for (time, event) in events {
            run(until: time)
            switch event {
            case let .send(index):
                let record = records[index]
                let api = record.path.hasPrefix("/v1/")
                let bytes = record.status == RequestLogFile.clientClosed ? record.objectBytes! : record.bytes
                let use = network.send(.image(url: UInt64(index), serial: index), to: api ? .api : .images, responseBytes: bytes,
                                       think: api ? record.injectedDelay : 0, at: time)
                expected[index] = Expected(connection: use.connection, opened: use.opened, duration: nil)
            case let .cancel(index):
                network.cancel(.image(url: UInt64(index), serial: index), at: time)
            }
        }
        run(until: .max)
        return expected
    }

    /// Whether the server sent `record` across the network model: a feed call it answered (not
    /// a timeout), an image it answered whole or whose client gave up on it.
    static func crossesNetwork(_ record: RequestLogFile.Record) -> Bool {
        if record.path.hasPrefix("/v1/") { return [200, 429, 500].contains(record.status) }
        return RequestLogFile.imageID(path: record.path) != nil && [200, RequestLogFile.clientClosed].contains(record.status)
    }
}
#endif
