import Testing
@testable import FeedBench

@Suite struct PolicySpecTests {
    @Test func parsesNamesAndParameters() throws {
        #expect(try PolicySpec.parse("LRU", source: "--policy") == PolicySpec(.lru))
        let ttl = try PolicySpec.parse("ttl:max-age=300:refresh=1", source: "--policy")
        #expect(ttl.maxAge == 300 && ttl.refreshOnAccess)
        #expect(ttl.description == "ttl:max-age=300:refresh=1")
        #expect(try PolicySpec.parseList("lru,fifo", source: "--policy").map(\.name) == [.lru, .fifo])
    }

    @Test func refusesWithOneLineNamingWhatIsValid() {
        #expect(throws: InputError(source: "--policy", "unknown policy \"mru\"; expected one of \(PolicyName.allCases.map(\.rawValue).joined(separator: ", "))")) {
            try PolicySpec.parse("mru", source: "--policy")
        }
        #expect(throws: InputError.self) { try PolicySpec.parse("lru:max-age=-1", source: "--policy") }
        #expect(throws: InputError.self) { try PolicySpec.parse("lru:refresh=2", source: "--policy") }
        #expect(throws: InputError.self) { try PolicySpec.parse("lru:bogus=1", source: "--policy") }
        #expect(throws: InputError.self) { try PolicySpec.parse("lru:max-age", source: "--policy") }
        #expect(throws: InputError.self) { try PolicySpec.parseList("lru,,fifo", source: "--policy") }
    }

    @Test func ttlWithoutALifetimeIsRefused() {
        #expect(throws: InputError.self) { try PolicySpec(.ttl).makePolicy(limits: .objects(1), source: "--policy") }
        #expect((try? PolicySpec(.ttl).makePolicy(limits: .objects(1), defaultMaxAge: 5, source: "--policy")) != nil)
    }
}
