import Foundation
import Testing
@testable import FeedBench

/// `bench calibrate`'s fits recover the models a capture was written from, and its workload
/// file reads back to itself byte for byte.
@Suite struct CalibrationTests {
    static func fitted(_ har: SyntheticHAR, classifier: RequestClassifier = RequestClassifier()) throws -> (Calibration, Workload) {
        var calibration = Calibration(classifier: classifier)
        try calibration.addHAR(HARReader(bytes: har.bytes(), name: "synthetic.har"))
        return (calibration, try calibration.workload(source: "synthetic.har"))
    }

    static func within(_ value: Double, _ truth: Double, _ share: Double) -> Bool { abs(value / truth - 1) <= share }

    /// 2,000 calls from a log-normal (mean 200 ms, p99 500 ms) with 5 % failures, 600 images
    /// over 6 connections at 8 Mbit/s and a 40 ms round trip: the fit is within 5 % of each.
    @Test func recoversTheModelsTheCaptureWasWrittenFrom() throws {
        var har = SyntheticHAR()
        har.calls = 2_000
        har.images = 600
        har.api.failureProbability = 0.05
        let (_, workload) = try Self.fitted(har)
        guard case let .logNormal(mean, p99) = workload.api.latency else { Issue.record("\(workload.api.latency)"); return }
        #expect(Self.within(Double(mean), 200e6, 0.05) && Self.within(Double(p99), 500e6, 0.05), "mean \(mean), p99 \(p99)")
        #expect(abs(workload.api.failureProbability - 0.05) <= 0.015)
        #expect(workload.fit.apiCalls == 2_000 && workload.fit.itemsPerPage == 10 && workload.fit.dimensionsFrom == "api")
        #expect(workload.fit.imageDownloads == 540, "the 304s and redirects are not downloads")

        let truth = EmpiricalQuantiles(har.downloadedBytes.map(Double.init))
        for percent in [0, 10, 50, 90, 100] {
            #expect(Self.within(Double(workload.images.byteQuantiles[percent]), truth.quantile(Double(percent) / 100), 0.001), "p\(percent)")
        }
        #expect(workload.fit.host == "img.test" && workload.fit.roundTripFrom == "connect" && workload.fit.bandwidthFrom == "receive")
        #expect(Self.within(Double(workload.network.bitsPerSecond), 8e6, 0.01))
        #expect(Self.within(Double(workload.network.oneWayDelay.lowerBound), 20e6, 0.05) && Self.within(Double(workload.network.oneWayDelay.upperBound), 20e6, 0.05))
        #expect(workload.network.connectionsPerHost == 6)
    }

    @Test func theWorkloadFileReadsBackToTheSameBytes() throws {
        let (_, workload) = try Self.fitted(SyntheticHAR())
        let again = try Workload(json: Data(workload.json.utf8), source: "w.json")
        #expect(again.json == workload.json && again.id == workload.id)
        #expect(again.network == workload.network && again.images == workload.images && again.api.latency == workload.api.latency)
        #expect(workload.json.split(separator: "\n").count == 5 && workload.scenarioTag == "workload=" + workload.id.prefix(8))
    }

    /// What a capture cannot give comes from the built-in models, and the fit says so.
    @Test func aCaptureWithoutImagesOrTimingsKeepsTheBuiltInSizesAndSaysSo() throws {
        var har = SyntheticHAR()
        har.images = 0
        har.calls = 20
        let (_, workload) = try Self.fitted(har)
        #expect(workload.fit.imageDownloads == 0 && workload.fit.dimensionsFrom == "api" && workload.fit.host == "api.test")
        #expect(workload.images.byteQuantiles[0] == 40_000 && workload.images.byteQuantiles[100] == 600_000, "the photo feed's sizes")
    }

    @Test func patternsDecideWhatIsAnAPICallAndWhatAnImage() throws {
        var har = SyntheticHAR()
        har.images = 30
        har.calls = 10
        let (_, byPattern) = try Self.fitted(har, classifier: RequestClassifier(api: "https://api.test/v1/feed?page=1", images: "*/1*.jpg"))
        #expect(byPattern.fit.apiCalls == 1)
        #expect(byPattern.fit.imageDownloads == (0..<30).filter { String($0).hasPrefix("1") && $0 % 10 != 9 }.count)
        #expect(RequestClassifier.matches("https://a.b/c/d.jpg", "*.jpg") && RequestClassifier.matches("abc", "a*c") && !RequestClassifier.matches("abcd", "a*c"))
    }

    /// A `bench serve` log line of a download the client gave up on (499) is an aborted request,
    /// status 0 as a HAR has it, and no image body to fit sizes or bandwidth from.
    @Test func aLoggedDownloadTheClientAbandonedIsAnAbortedRequest() {
        let sources = CaptureSources(classifier: RequestClassifier())
        let abandoned = sources.request(RequestLogFile.Record(time: 0, method: "GET", path: "/images/7.jpg", status: 499, bytes: 1_200,
                                                              objectBytes: 40_000, injectedDelay: 0, duration: 90_000_000, connection: 1))
        let finished = sources.request(RequestLogFile.Record(time: 0, method: "GET", path: "/images/7.jpg", status: 200, bytes: 40_000,
                                                             objectBytes: 40_000, injectedDelay: 0, duration: 90_000_000, connection: 1))
        #expect(abandoned.kind == .image && abandoned.status == 0 && abandoned.bodyBytes == nil)
        #expect(finished.status == 200 && finished.bodyBytes == 40_000)
    }

    @Test func nothingToFitIsRefusedInOneLine() throws {
        let har = #"{"log": {"version": "1.2", "creator": {"name": "t", "version": "1"}, "entries": [{"startedDateTime": "2026-11-23T10:00:00Z", "time": 1, "request": {"method": "GET", "url": "https://x.test/", "httpVersion": "h2", "headers": []}, "response": {"status": 200, "headers": [], "content": {"size": 3, "mimeType": "text/html"}}, "timings": {"send": 0, "wait": 1, "receive": 0}}]}}"#
        var calibration = Calibration()
        try calibration.addHAR(HARReader(bytes: Array(har.utf8), name: "page.har"))
        #expect(throws: InputError(source: "page.har", "expected feed-API calls (JSON) or image downloads (image/*), found none among 1 requests; give --api and --images patterns")) {
            try calibration.workload(source: "page.har")
        }
        let badDate = har.replacingOccurrences(of: "2026-11-23T10:00:00Z", with: "yesterday")
        #expect(throws: InputError(source: "bad.har", line: 1, field: "log.entries[0].startedDateTime", "expected an ISO 8601 date and time, found \"yesterday\"")) {
            try calibration.addHAR(HARReader(bytes: Array(badDate.utf8), name: "bad.har"))
        }
        #expect(calibration.requests.count == 1, "a refused capture adds nothing")
    }

    @Test(arguments: [
        (#""format": "feedbench-workload/1""#, #""format": "other/1""#, "format: expected \"feedbench-workload/1\""),
        (#""loss": 0,"#, #""lossy": 0,"#, "network.lossy: unknown field"),
        (#""bytesQuantiles": ["#, #""bytesQuantiles": [0, "#, "images.bytesQuantiles[0]: expected a whole number in 1…1073741824, found 0.0"),
        (#""dimensions": [["#, #""dimensions": [[0, 1, 1], ["#, "images.dimensions[0]: expected a whole number in 1…1000000000, found 0.0"),
        (#""failureProbability": "#, #""failureProbability": 2, "x": "#, "api.x: unknown field"),
    ])
    func aBadWorkloadIsRefusedWithItsField(original: String, replacement: String, message: String) throws {
        let (_, workload) = try Self.fitted(SyntheticHAR())
        let text = workload.json.replacingOccurrences(of: original, with: replacement)
        #expect(text != workload.json, "the case edits the file")
        #expect {
            _ = try Workload(json: Data(text.utf8), source: "w.json")
        } throws: { error in
            "\(error)".hasPrefix("w.json: " + message)
        }
    }

    @Test func decreasingQuantilesAndAMissingNetworkFieldAreRefused() throws {
        let (_, workload) = try Self.fitted(SyntheticHAR())
        let swapped = workload.json.replacingOccurrences(of: #""bytesQuantiles": ["#, with: #""bytesQuantiles": [999999999, "#)
        #expect { _ = try Workload(json: Data(swapped.utf8), source: "w.json") } throws: { "\($0)".hasPrefix("w.json: images.bytesQuantiles[1]: expected non-decreasing sizes") }
        let missing = workload.json.replacingOccurrences(of: #", "connectionsPerHost": 6"#, with: "")
        #expect { _ = try Workload(json: Data(missing.utf8), source: "w.json") } throws: { "\($0)" == "w.json: network.connectionsPerHost: expected a value (a workload gives every network field)" }
    }

    /// The fitted network speaks the HTTP version the capture's requests went over (a HAR's
    /// `httpVersion`: `h2` or `HTTP/1.1`), so that its connections are the capture's: one over
    /// HTTP/2, six over HTTP/1.1.
    @Test func aCaptureKeepsTheHTTPVersionItsRequestsWentOver() throws {
        for http in HTTPVersion.allCases {
            var har = SyntheticHAR()
            har.network.http = http
            #expect(try Self.fitted(har).1.network.http == http)
        }
        #expect(CaptureSources.httpVersion("http/2.0") == .http2 && CaptureSources.httpVersion("HTTP/1.1") == .http11)
        #expect(CaptureSources.httpVersion("h3") == nil && CaptureSources.httpVersion("") == nil)
    }

    /// The round trip through the simulator: a session on the workload fitted from a capture of
    /// a known model stalls and requests as a session on that model does — over 9 seeds, stalls
    /// within 15 % and requests within 5 % (the fit resamples sizes, so runs differ image by
    /// image, not in aggregate; a skimmer's count of API calls is noisy enough that 3 seeds
    /// differed by 5–10 %), on a link whose buffer never overflows.
    @Test func aRunOnTheFittedWorkloadStallsAndRequestsAsTheModelDoes() throws {
        var har = SyntheticHAR()
        har.network = NetworkProfile(name: "truth", bitsPerSecond: 1_500_000, oneWayDelay: 40_000_000...40_000_000)
        har.api = FeedAPIConfiguration()
        har.calls = 1_000
        har.images = 2_000
        let (_, workload) = try Self.fitted(har)
        func totals(network: NetworkProfile, api: FeedAPIConfiguration) throws -> (stalls: Int, images: Int, calls: Int) {
            var sum = (stalls: 0, images: 0, calls: 0)
            for seed: UInt64 in 1...9 {
                var configuration = try RunConfiguration.standard(
                    profile: .lowEnd, policy: PolicySpec.parse("lru", source: "test"), window: .items(PrefetchWindow(ahead: 10)),
                    workload: .behavior(.skimmer, duration: 60_000_000_000), seed: seed, network: network)
                configuration.api = api
                let result = try FeedSimulation.run(configuration)
                sum = (sum.stalls + result.stalls.count, sum.images + result.imageRequests, sum.calls + result.apiRequests)
            }
            return sum
        }
        // Calibration does not fit the bottleneck's buffer, and where it overflows which response
        // loses is a lottery that resampled sizes redraw: 9 seeds of two workloads alike in
        // distribution then differ by 5-11 % in requests, either way, whatever the bandwidth.
        // Both sessions get a buffer that never overflows.
        var truth = har.network
        var fit = workload.network
        truth.bufferPackets = 100_000
        fit.bufferPackets = 100_000
        let model = try totals(network: truth, api: har.api)
        let fitted = try totals(network: fit, api: workload.api)
        #expect(model.stalls > 20, "a session that stalls enough to compare: \(model), fitted \(fitted)")
        #expect(Self.within(Double(fitted.stalls), Double(model.stalls), 0.15), "model \(model), fitted \(fitted)")
        #expect(Self.within(Double(fitted.images), Double(model.images), 0.05) && Self.within(Double(fitted.calls), Double(model.calls), 0.05),
                "model \(model), fitted \(fitted)")
    }

    /// A symmetric network (calibration takes one) of `bitsPerSecond` and a 60 ms round trip
    /// with `bufferPackets` at its bottleneck.
    static func selfTestNetwork(bitsPerSecond: Int64, bufferPackets: Int = NetworkProfile.wifi.bufferPackets) -> NetworkProfile {
        var network = NetworkProfile.wifi.overHTTP11  // as the logs these tests write say (http/1.1)
        network.bitsPerSecond = bitsPerSecond
        network.uplinkBitsPerSecond = bitsPerSecond
        network.oneWayDelay = 30_000_000...30_000_000
        network.uplinkDelay = 30_000_000
        network.bufferPackets = bufferPackets
        return network
    }

    /// Six launches' worth of a serve log timed by `SimulatedNetwork` on `network`: an API call
    /// (40–90 ms of server time), then its page's ten images `atOnce` at a time, sized from
    /// `sizes`, some on the connections the previous ones left open.
    static func modelLog(on network: NetworkProfile, atOnce: Int, sizes: ClosedRange<Int64>) -> [RequestLogFile.Record] {
        var records: [RequestLogFile.Record] = []
        var draws = SeededGenerator(seed: 7, stream: 1)
        for launch in 0..<6 {
            let start = Int64(launch) * 4_000_000_000
            records.append(RequestLogFile.Record(time: start, method: "GET", path: "/v1/images/search?limit=10&page=\(launch + 1)", status: 200,
                                                 bytes: 1_400, objectBytes: nil, injectedDelay: Int64(40 + 10 * launch) * 1_000_000,
                                                 duration: 0, connection: 1))
            for image in 0..<10 {
                let bytes = draws.next(in: sizes)
                records.append(RequestLogFile.Record(time: start + 600_000_000 + Int64(image / atOnce) * 900_000_000 + Int64(image % atOnce) * 5_000_000,
                                                     method: "GET", path: "/images/\(launch * 10 + image).jpg", status: 200, bytes: bytes,
                                                     objectBytes: bytes, injectedDelay: 0, duration: 0, connection: 1))
            }
        }
        let model = SimulatedNetwork(network: network, seed: 1)
        var ends: [Int: Int64] = [:]
        for (index, record) in records.enumerated() {
            while let next = model.nextTime(), next <= record.time {
                for case let .image(_, done) in model.takeDelivered(at: next) { ends[done] = next }
            }
            let api = record.path.hasPrefix("/v1/")
            let use = model.send(.image(url: UInt64(index), serial: index), to: api ? .api : .images, responseBytes: record.bytes,
                                 think: record.injectedDelay, at: record.time)
            records[index].connection = use.connection
            records[index].newConnection = use.opened
        }
        while let next = model.nextTime() {
            for case let .image(_, done) in model.takeDelivered(at: next) { ends[done] = next }
        }
        for index in records.indices { records[index].duration = ends[index]! - records[index].time }
        return records
    }

    /// A serve log whose times are the network model's own, from a session that loses nothing
    /// (three downloads of 20–60 KB at a time: its times are the same behind a buffer twenty
    /// times deeper), calibrates back to that network: round trip and bandwidth within 1 %, the
    /// API's latency from the server's time alone. The same log in the earlier 9-column format
    /// (no server times) falls back to the line through the downloads.
    @Test func aServeLogCalibratesBackToTheNetworkItsTimesCameFrom() throws {
        let truth = Self.selfTestNetwork(bitsPerSecond: 8_000_000)
        let records = Self.modelLog(on: truth, atOnce: 3, sizes: 20_000...60_000)
        #expect(records.map(\.duration) == Self.modelLog(on: Self.selfTestNetwork(bitsPerSecond: 8_000_000, bufferPackets: 1_000), atOnce: 3,
                                                          sizes: 20_000...60_000).map(\.duration), "the session loses packets")
        #expect(records.contains { !$0.newConnection && $0.path.hasPrefix("/images/") } && records.contains { $0.newConnection })

        var calibration = Calibration()
        try calibration.addLog(bytes: Array(RequestLogFile.csv(records).utf8), source: "model.csv")
        let workload = try calibration.workload(source: "model.csv")
        #expect(workload.fit.roundTripFrom == "replay" && workload.fit.bandwidthFrom == "replay")
        #expect(Self.within(Double(workload.network.bitsPerSecond), 8e6, 0.01), "\(workload.network.bitsPerSecond) bit/s")
        let delay = workload.network.oneWayDelay
        #expect(Self.within(Double(delay.lowerBound), 30e6, 0.01) && delay.lowerBound == delay.upperBound, "one-way \(delay) ns")
        guard case let .logNormal(mean, _) = workload.api.latency else { Issue.record("\(workload.api.latency)"); return }
        #expect(Self.within(Double(mean), 65e6, 0.05), "the server's 40–90 ms, not the calls' durations: mean \(mean) ns")

        // The earlier format: no server times, so the durations' line.
        let earlier = RequestLogFile.csv(records).split(separator: "\n").map { line in
            line.split(separator: ",", omittingEmptySubsequences: false).prefix(9).joined(separator: ",")
        }.joined(separator: "\n") + "\n"
        var old = Calibration()
        try old.addLog(bytes: Array(earlier.utf8), source: "earlier.csv")
        let fromLine = try old.workload(source: "earlier.csv")
        #expect(fromLine.fit.bandwidthFrom == "duration" && fromLine.fit.roundTripFrom == "duration")
    }

    /// A session that overflows the buffer (four downloads of up to 400 KB at once) calibrates
    /// only near its network: where packets are lost the replayed times are chaotic in the
    /// bandwidth (a 1 % change moves a loss from one round to another), so several bandwidths
    /// time the log about equally well: within 10 % at 6, 8 and 9 Mbit/s (measured: 0.2 %, 4.7 %
    /// and 0.1 % off); the round trip, which the losses hardly move, within 2 %.
    @Test(arguments: [6_000_000, 8_000_000, 9_000_000] as [Int64])
    func aLossySessionCalibratesNearTheNetworkItsTimesCameFrom(bitsPerSecond: Int64) throws {
        let truth = Self.selfTestNetwork(bitsPerSecond: bitsPerSecond)
        let records = Self.modelLog(on: truth, atOnce: 4, sizes: 20_000...400_000)
        #expect(records.map(\.duration) != Self.modelLog(on: Self.selfTestNetwork(bitsPerSecond: bitsPerSecond, bufferPackets: 1_000), atOnce: 4,
                                                          sizes: 20_000...400_000).map(\.duration), "the session loses nothing")
        var calibration = Calibration()
        try calibration.addLog(bytes: Array(RequestLogFile.csv(records).utf8), source: "model.csv")
        let workload = try calibration.workload(source: "model.csv")
        #expect(workload.fit.bandwidthFrom == "replay")
        #expect(Self.within(Double(workload.network.bitsPerSecond), Double(bitsPerSecond), 0.10), "\(workload.network.bitsPerSecond) bit/s")
        #expect(Self.within(Double(workload.network.oneWayDelay.lowerBound), 30e6, 0.02), "one-way \(workload.network.oneWayDelay) ns")
    }

    /// Every real export with images or JSON calibrates to figures a phone could see; the two
    /// without (one HTML page, three redirects) are refused in one line.
    @Test(arguments: HARFixturesTests.captures)
    func realExportsCalibrateToPlausibleFigures(capture: (file: String, entries: Int, creator: String, images: Int)) throws {
        var calibration = Calibration()
        try calibration.addHAR(HARReader(path: HARFixturesTests.path(capture.file)))
        guard capture.images > 0 else {
            #expect(throws: InputError.self) { try calibration.workload(source: capture.file) }
            return
        }
        let workload = try calibration.workload(source: capture.file)
        #expect(workload.fit.imageDownloads > 0 && workload.fit.imageDownloads <= capture.images)
        #expect((10_000...10_000_000_000).contains(workload.network.bitsPerSecond), "\(workload.network.bitsPerSecond) bit/s")
        #expect(workload.network.oneWayDelay.upperBound <= 2_000_000_000 && (1...100).contains(workload.network.connectionsPerHost))
        #expect(workload.images.byteQuantiles[0] >= 1 && workload.images.byteQuantiles[100] <= 20_000_000)
        #expect(workload.images.dimensions.allSatisfy { $0.width <= 20_000 && $0.height <= 20_000 }, "a 860 × 10,200 screenshot is real")
        let summary = CalibrationSummary(calibration: calibration, workload: workload).text
        #expect(summary.split(separator: "\n").allSatisfy { $0.count <= 100 }, "\(summary)")
        #expect(try Workload(json: Data(workload.json.utf8), source: "w").json == workload.json)
    }
}
