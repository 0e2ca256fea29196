#if HTTP
import FeedBench
import Foundation
import TestSupport
import Testing

/// An HTTP/2 connection ends when its client ends it, and after the server's GOAWAY for an
/// error nothing more is read; a request whose client goes away is logged once, as 499, over
/// either protocol. Against `bench serve` in a process of its own, whose descriptors and memory
/// are counted, spoken to by raw TLS clients and curl on 127.0.0.1.
@Suite(.scratchFolder, .serialized, .enabled(if: ServeProcess.executable != nil, Comment(rawValue: ServeProcess.missing)))
struct HTTP2ConnectionEndTests {
    /// 300 connections, each closed by its client after the server's SETTINGS without a GOAWAY:
    /// each was left in CLOSE-WAIT with its descriptor open, until the server ran out of them.
    @Test(.enabled(if: ServeProcess.countable, "no /proc: a process's descriptors are not counted here"))
    func connectionsTheirClientsCloseWithoutAGoAwayAreClosed() async throws {
        let server = try ServeProcess.start(["--tls", "--http", "2"])
        defer { #expect(server.stop() == 0, "bench serve stops on SIGTERM") }
        func openAndDrop() async throws {
            let client = try await RawClient.connect(port: server.port, alpn: ["h2"])
            try await client.send(HTTP2Bytes.preface)
            #expect(await client.received(atLeast: 9, within: .seconds(10)), "the server's SETTINGS")
            client.channel.close(promise: nil)
        }
        // The first connection's lasting descriptors (the runtime's, made on first use) are in
        // the count before.
        try await openAndDrop()
        try await Task.sleep(for: .milliseconds(500))
        let before = try server.descriptors()
        for _ in 0..<300 { try await openAndDrop() }
        // The clients' closes reach the server over the next moments.
        var after = before
        let settled = await RawClient.poll(within: .seconds(10)) {
            after = (try? server.descriptors()) ?? after
            return after <= before
        }
        #expect(settled != nil, "\(after) descriptors open after 300 connections closed, \(before) before")
        let answer = try Curl.run(["-sk", "--http2", "-o", "/dev/null", "-w", "%{http_code}", server.url + "/_conditions"])
        #expect(answer == nil || answer == "200")
    }

    /// A bad frame, then a 50 MB flood: the server answers with a GOAWAY for a FRAME_SIZE_ERROR
    /// and closes, and what came after is not kept (100 MB had raised its memory by 97 MB).
    @Test(.enabled(if: ServeProcess.countable, "no /proc: a process's memory is not read here"))
    func afterItsGoAwayForAnErrorTheServerReadsNoMoreAndCloses() async throws {
        let server = try ServeProcess.start(["--tls", "--http", "2"])
        defer { #expect(server.stop() == 0, "bench serve stops on SIGTERM") }
        let client = try await RawClient.connect(port: server.port, alpn: ["h2"])
        try await client.send(HTTP2Bytes.preface + HTTP2Bytes.badSettings)
        let before = try server.residentBytes()
        var peak = before, sent = 0
        let chunk = [UInt8](repeating: 0, count: 1 << 16)
        while sent < 50 << 20 {
            do { try await client.send(chunk) } catch { break }
            sent += chunk.count
            if sent % (1 << 20) == 0 { peak = max(peak, try server.residentBytes()) }
        }
        // The server's TLS waits up to 5 s for the client's close_notify.
        #expect(await client.closed(within: .seconds(10)) != nil, "the server closed the connection after \(sent) bytes")
        #expect(HTTP2Bytes.goAwayErrors(in: client.received) == [0x6], "one GOAWAY, FRAME_SIZE_ERROR")
        #expect(peak - before < 16 << 20, "resident memory grew \(peak - before) bytes while \(sent) were sent after the GOAWAY")
        let answer = try Curl.run(["-sk", "--http2", "-o", "/dev/null", "-w", "%{http_code}", server.url + "/_conditions"])
        #expect(answer == nil || answer == "200")
    }

    /// curl gives up on an API call still in its latency, on an image before its headers and on
    /// a call the API times out (`--max-time`), and closes its connection: each is one line, 499
    /// and no bytes, over
    /// HTTP/2 as over HTTP/1.1 (HTTP/2's were 500s, an image's two lines, 499 and 500).
    @Test(.enabled(if: Curl.path != nil, "curl is not installed: the cancelled requests are not made"),
          arguments: [["--http", "2", "--tls"], []])
    func aRequestItsClientGivesUpIsLoggedOnceAs499(arguments: [String]) async throws {
        let folder = try ScratchFolder.make()
        let log = folder.appendingPathComponent("requests.csv").path
        let conditions = folder.appendingPathComponent("conditions.json")
        // 3 s of API latency; 400 ms each way: an image's headers come 0.8 s after its request
        // at the soonest. curl gives up at 0.5 s, time enough to connect on a loaded machine.
        try #"{"network": {"bitsPerSecond": 2000000, "oneWayDelayMs": 400}, "api": {"latency": {"model": "fixed", "ms": 3000}}}"#
            .write(to: conditions, atomically: true, encoding: .utf8)
        let server = try ServeProcess.start(arguments + ["--conditions", conditions.path, "--log", log])
        let version = arguments.isEmpty ? "--http1.1" : "--http2"
        func abandon(_ path: String) throws {
            _ = try Curl.run(["-sk", version, "--max-time", "0.5", "-o", "/dev/null", server.url + path])
        }
        for path in ["/v1/images/search?limit=10&page=1", "/v1/images/search?limit=10&page=2", "/images/5.jpg"] { try abandon(path) }
        // Then a call the API times out (a 504 at 2 s), abandoned while it waits.
        _ = try Curl.run(["-sk", version, "-X", "PUT", "-d", #"{"api": {"timeoutMs": 2000}}"#, "-o", "/dev/null", server.url + "/_conditions"])
        try abandon("/v1/images/search?limit=10&page=3")
        // The server learns of each close at once; its lines are written as their requests end.
        try await Task.sleep(for: .milliseconds(300))
        #expect(server.stop() == 0)
        let records = try RequestLogFile.records(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: log))), source: log)
        #expect(records.map(\.status) == [499, 499, 499, 200, 499], "\(records.map { "\($0.path) \($0.status)" })")
        #expect(records.filter { $0.method == "GET" }.allSatisfy { $0.bytes == 0 && $0.httpProtocol == (arguments.isEmpty ? RequestLogFile.http11 : RequestLogFile.http2) })
    }
}

/// curl, run as a client of its own.
enum Curl {
    static let path = ["/usr/bin/curl", "/usr/local/bin/curl"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// curl's output with `arguments`, or `nil` when curl is not installed.
    static func run(_ arguments: [String]) throws -> String? {
        guard let path else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
#endif
