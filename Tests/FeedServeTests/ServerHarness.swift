#if HTTP
import FeedBench
import FeedServe
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport

/// A `bench serve` server started by the test on 127.0.0.1 (a free port), spoken to by a real
/// HTTP client (Foundation's URLSession, six connections per host as on iOS), and stopped when
/// the test is done.
struct RunningServer {
    let base: String
    let task: Task<Void, Error>
    let session: URLSession

    static func start(_ conditions: ServeConditions, seed: UInt64 = 1, log: String? = nil,
                      clientTimeout: Duration = .seconds(75), pace: ServePace = .model) async throws -> RunningServer {
        let settings = ServeSettings(host: "127.0.0.1", port: 0, seed: seed, conditions: conditions, logPath: log, clientTimeout: clientTimeout,
                                     pace: pace)
        let (base, task) = try await FeedServer(settings: settings).start(on: OwnThreads.executor)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 6
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = 60
        return RunningServer(base: base, task: task, session: URLSession(configuration: configuration))
    }

    /// The port the server listens on.
    var port: UInt16? { base.split(separator: ":").last.flatMap { UInt16($0) } }

    /// Stops the server (as SIGTERM would: responses under way finish) and waits for it.
    func stop() async {
        session.invalidateAndCancel()
        task.cancel()
        _ = try? await task.value
    }

    struct Reply {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
        var seconds: Double

        var text: String { String(decoding: body, as: UTF8.self) }
    }

    func request(_ path: String, method: String = "GET", headers: [String: String] = [:], body: String? = nil) async throws -> Reply {
        var request = URLRequest(url: URL(string: base + path)!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body.map { Data($0.utf8) }
        let start = ContinuousClock.now
        let (data, response) = try await session.data(for: request)
        let elapsed = ContinuousClock.now - start
        let http = response as! HTTPURLResponse
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields { fields[String(describing: name).lowercased()] = String(describing: value) }
        return Reply(status: http.statusCode, headers: fields, body: Array(data),
                     seconds: elapsed.inSeconds)
    }

    /// Changes the server's conditions.
    func put(conditions json: String) async throws -> Reply {
        try await request("/_conditions", method: "PUT", headers: ["Content-Type": "application/json"], body: json)
    }

    /// A network with no delay and 10 Gbit/s: the tests that are not about pacing run at once.
    static let instant = NetworkProfile(name: "instant", bitsPerSecond: 10_000_000_000, oneWayDelay: 0...0)
}
#endif
