import Foundation
import Testing
@testable import FeedBench

/// The conditions `bench serve` reads and prints: what it prints reads back to the same
/// conditions, a document changes only the fields it gives, and a bad field is refused naming
/// its path.
@Suite struct ServeConditionsTests {
    static func read(_ json: String, from base: ServeConditions = ServeConditions(network: .lte)) throws -> ServeConditions {
        try base.applying(json: Data(json.utf8), source: "c.json")
    }

    @Test func whatIsPrintedReadsBackTheSame() throws {
        let latencies: [LatencyModel] = [.fixed(300_000_000), .uniform(20_000_000...80_500_000), .logNormal(mean: 300_000_000, p99: 1_200_000_000)]
        for network in NetworkProfile.builtIn {
            for latency in latencies {
                var conditions = ServeConditions(network: network, api: FeedAPIConfiguration(latency: latency, spikeProbability: 0.25, failureProbability: 0.5,
                                                                                             timeout: nil, rateLimit: .init(calls: 3, window: 1_500_000_000)))
                conditions.offline = true
                conditions.network.name = #"my "odd" \ network"#
                let printed = conditions.json
                #expect(try Self.read(printed, from: ServeConditions(network: .wifi)) == conditions, "\(printed)")
                #expect(!printed.contains("\n"))
            }
        }
    }

    @Test func aDocumentChangesOnlyTheFieldsItGives() throws {
        let base = ServeConditions(network: .lte)
        #expect(try Self.read(#"{"network": "3g"}"#).network == .threeG)
        let slower = try Self.read(#"{"network": {"bitsPerSecond": 1000000}}"#, from: base)
        #expect(slower.network.bitsPerSecond == 1_000_000 && slower.network.oneWayDelay == NetworkProfile.lte.oneWayDelay)
        let failing = try Self.read(#"{"api": {"failureProbability": 1}}"#, from: base)
        #expect(failing.api.failureProbability == 1 && failing.api.latency == base.api.latency)
        #expect(try Self.read(#"{"offline": true}"#, from: base).offline)
    }

    @Test(arguments: [
        (#"[1, 2]"#, "c.json: expected a JSON object"),
        (#"{"colour": 1}"#, "c.json: colour: unknown field; expected one of network, api, offline"),
        (#"{"network": "5g"}"#, "c.json: network: unknown network \"5g\""),
        (#"{"network": {"loss": 1}}"#, "c.json: network.loss: expected a probability in 0…0.9, found 1.0"),
        (#"{"network": {"oneWayDelayMs": [5, 1]}}"#, "c.json: network.oneWayDelayMs: expected min ≤ max"),
        (#"{"api": {"latency": {"model": "gamma"}}}"#, "c.json: api.latency.model: expected fixed, uniform or logNormal"),
        (#"{"api": {"latency": {"model": "fixed", "ms": -1}}}"#, "c.json: api.latency.ms: expected milliseconds in 0…86400000, found -1.0"),
        (#"{"api": {"failureProbability": true}}"#, "c.json: api.failureProbability: expected a number"),
        (#"{"api": {"spikeProbability": 2}}"#, "c.json: spikeProbability: expected a probability in [0, 1], found 2.0"),
        (#"{"offline": 1}"#, "c.json: offline: expected true or false"),
        // Checked before Foundation reads them, with the line (JSONDocumentCheck).
        (#"{"offline": true, "offline": false}"#, "c.json:1: offline: expected each field once, found it again (first on line 1)"),
        ("{\"network\": {\"bitsPerSecond\": 1e400}}", "c.json:1: network.bitsPerSecond: expected a number within ±1.8e308, found 1e400"),
        ("{\n\"api\": nope}", "c.json:2: api: expected a JSON value"),
    ])
    func aBadFieldIsRefusedNamingItsPath(json: String, message: String) {
        #expect {
            try Self.read(json)
        } throws: { error in
            (error as? InputError)?.description.hasPrefix(message) == true
        }
    }
}
