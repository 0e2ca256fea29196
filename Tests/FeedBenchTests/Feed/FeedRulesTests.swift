import Testing
@testable import FeedBench

@Suite struct FeedRulesTests {
    static let hour: Int64 = 3_600 * 1_000_000_000

    @Test func callsToMakeUnderTheSeedDefaults() {
        let rules = FeedRules()
        let counts = [0, 19, 20, 49, 50, 199, 200, 250]
        #expect(counts.map { rules.callsToMake(unviewed: $0, on: .launch) } == [5, 4, 3, 1, 0, 0, 0, 0])
        #expect(counts.map { rules.callsToMake(unviewed: $0, on: .browsing) } == [5, 4, 0, 0, 0, 0, 0, 0])
    }

    @Test func stopAboveCapsARefillsTarget() {
        let rules = FeedRules(fillBelow: 400, maxCallsPerRefill: 50, refillBelow: 300)
        let counts = [0, 19, 20, 49, 50, 199, 200, 250]
        #expect(counts.map { rules.callsToMake(unviewed: $0, on: .launch) } == [20, 19, 18, 16, 15, 1, 0, 0])
        #expect(counts.map { rules.callsToMake(unviewed: $0, on: .browsing) } == [20, 19, 18, 16, 15, 1, 0, 0])
    }

    @Test func maxCallsPerRefillCapsTheCalls() {
        let rules = FeedRules(maxCallsPerRefill: 2)
        #expect(rules.callsToMake(unviewed: 0, on: .launch) == 2)
        #expect(rules.callsToMake(unviewed: 41, on: .launch) == 1)
    }

    @Test func refreshIsDueOnlyAfterTwentyFourHours() {
        let rules = FeedRules()
        let created: Int64 = 5 * Self.hour
        let minute = Self.hour / 60
        #expect(!rules.needsRefresh(newestCreatedAt: created, now: created + 24 * Self.hour - minute))
        #expect(!rules.needsRefresh(newestCreatedAt: created, now: created + 24 * Self.hour))
        #expect(rules.needsRefresh(newestCreatedAt: created, now: created + 24 * Self.hour + 1))
        #expect(!rules.needsRefresh(newestCreatedAt: nil, now: 100 * Self.hour))
    }

    @Test func invalidRulesAreRefusedNamingTheField() {
        let cases: [(FeedRules, String)] = [
            (FeedRules(fillBelow: 0, refillBelow: 0), "fillBelow"),
            (FeedRules(maxCallsPerRefill: 0), "maxCallsPerRefill"),
            (FeedRules(refillBelow: 60), "refillBelow"),
            (FeedRules(refillBelow: -1), "refillBelow"),
            (FeedRules(stopAbove: 0), "stopAbove"),
            (FeedRules(maxRows: -3), "maxRows"),
            (FeedRules(refreshAfter: 0), "refreshAfter"),
        ]
        for (rules, field) in cases {
            do {
                try rules.validate(source: "--rules")
                Issue.record("\(field): accepted")
            } catch let error as InputError {
                #expect(error.field == field)
            } catch {
                Issue.record("\(field): unexpected \(error)")
            }
        }
        #expect(throws: Never.self) { try FeedRules().validate(source: "defaults") }
    }
}
