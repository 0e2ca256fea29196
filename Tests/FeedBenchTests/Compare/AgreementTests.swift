@testable import FeedBench
import Testing

/// `bench agree`'s verdict: each banded figure of the live run within its band around the
/// simulated one, the explaining figures shown and never deciding.
@Suite struct AgreementTests {
    static func result(api: Int, images: Int, bytes: Int64, stalls: [Int64], cancelled: Int = 0) -> RunResult {
        var result = RunResult(profile: "low-end", network: "3g", policy: "lru", memoryLimitBytes: 1, diskLimitBytes: 1,
                               prefetchWindow: "20", trace: "browser", seed: 1, launches: 1)
        result.displays = 100
        result.memoryHits = 60
        result.apiRequests = api
        result.imageRequests = images
        result.bytesDownloaded = bytes
        result.cancelledRequests = cancelled
        for stall in stalls { result.stalls.record(nanoseconds: stall) }
        return result
    }

    static func line(_ agreement: Agreement, _ name: String) -> Agreement.Line {
        agreement.lines.first { $0.metric.name == name }!
    }

    @Test func theBandsAreTheIssuesAndEachDecidesAlone() {
        #expect(Agreement.bands.map(\.metric) == ["api_requests", "image_requests", "bytes_downloaded", "stalls", "stall_ms_p95"])
        let stalls = [Int64](repeating: 100_000_000, count: 20)
        let simulated = Self.result(api: 100, images: 500, bytes: 10_000_000, stalls: stalls)
        #expect(Agreement(simulated: simulated, live: simulated).agrees)
        // 2 % of 100 calls is 2; 3 more is outside.
        #expect(Agreement(simulated: simulated, live: Self.result(api: 102, images: 500, bytes: 10_000_000, stalls: stalls)).agrees)
        let api = Agreement(simulated: simulated, live: Self.result(api: 103, images: 500, bytes: 10_000_000, stalls: stalls))
        #expect(!api.agrees && api.lines.filter { !$0.within }.map(\.metric.name) == ["api_requests"])
        // 15 % of 20 stalls is 3: 23 is within, 24 is not.
        let more = Self.result(api: 100, images: 500, bytes: 10_000_000, stalls: stalls + [Int64](repeating: 100_000_000, count: 3))
        #expect(Agreement(simulated: simulated, live: more).agrees)
        let tooMany = Self.result(api: 100, images: 500, bytes: 10_000_000, stalls: stalls + [Int64](repeating: 100_000_000, count: 4))
        #expect(Agreement(simulated: simulated, live: tooMany).lines.filter { !$0.within }.map(\.metric.name) == ["stalls"])
        // Stalls where the simulation has none are outside whatever their number.
        let none = Self.result(api: 100, images: 500, bytes: 10_000_000, stalls: [])
        #expect(!Agreement(simulated: none, live: simulated).agrees)
    }

    @Test func theExplainingFiguresNeverDecide() {
        let simulated = Self.result(api: 10, images: 50, bytes: 1_000, stalls: [], cancelled: 0)
        let live = Self.result(api: 10, images: 50, bytes: 1_000, stalls: [], cancelled: 40)
        let agreement = Agreement(simulated: simulated, live: live)
        #expect(agreement.agrees && Self.line(agreement, "cancelled_requests").live == 40)
        #expect(agreement.lines.map(\.metric.name) == Agreement.bands.map(\.metric) + Agreement.explaining)
    }

    @Test func theTableShowsBothFiguresTheDifferenceAndTheVerdict() {
        let simulated = Self.result(api: 100, images: 500, bytes: 10_000_000, stalls: [100_000_000])
        let live = Self.result(api: 104, images: 490, bytes: 10_000_000, stalls: [100_000_000])
        let table = Agreement(simulated: simulated, live: live).table.split(separator: "\n").map(String.init)
        #expect(table[0].hasPrefix("metric") && table[0].hasSuffix("band"))
        #expect(table[1].split(separator: " ", omittingEmptySubsequences: true) == ["api_requests", "100", "104", "+4.0", "%", "±2", "%", "OUTSIDE"])
        #expect(table[2].split(separator: " ", omittingEmptySubsequences: true) == ["image_requests", "500", "490", "−2.0", "%", "±2", "%", "ok"])
        #expect(table[3].split(separator: " ", omittingEmptySubsequences: true).suffix(4) == ["0", "±2", "%", "ok"])
        #expect(Agreement.difference(Agreement.Line(metric: ResultMetric.all[0], band: nil, simulated: 0, live: 3)) == "new")
        #expect(Agreement.difference(Agreement.Line(metric: ResultMetric.all[0], band: nil, simulated: 10_000, live: 9_999)) == "−<0.1 %")
    }

    @Test func theCSVHasARowPerFigureUnderTheIdentity() {
        let simulated = Self.result(api: 100, images: 500, bytes: 10_000_000, stalls: [])
        let rows = Agreement(simulated: simulated, live: simulated).csvRows(identity: simulated)
        #expect(rows.count == Agreement.bands.count + Agreement.explaining.count)
        #expect(rows[0] == "low-end,3g,2,lru,1,1,20,browser,1,1,cacheFirst,api_requests,100,100,2%,yes")
        #expect(rows.allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false).count == Agreement.csvColumns.count })
    }

    /// A live run that handled frames late gets a line saying its timing is partly the machine's.
    @Test func framesLateAreSaidUnderTheTable() {
        #expect(Agreement.busyMachineNote(framesLate: 0) == nil)
        #expect(Agreement.busyMachineNote(framesLate: 1)?.hasPrefix("the live run handled 1 frame late: this machine was busy") == true)
        #expect(Agreement.busyMachineNote(framesLate: 157)?.hasPrefix("the live run handled 157 frames late") == true)
    }
}
