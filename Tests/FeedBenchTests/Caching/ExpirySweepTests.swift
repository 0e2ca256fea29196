import Testing
@testable import FeedBench

/// A sweep removes exactly the resident entries whose age has passed, in every policy, without
/// a lookup: what a lookup at the sweep's time would have found expired, and nothing else.
@Suite struct ExpirySweepTests {
    @Test(arguments: PolicyName.allCases.filter { !$0.needsFuture })
    func aSweepRemovesExactlyTheExpiredEntries(name: PolicyName) throws {
        var swept = 0
        for seed in UInt64(1)...20 {
            var generator = SeededGenerator(seed: seed)
            // Half the seeds evict (40 of 60 keys fit), half hold every key.
            var policy = try PolicySpec(name, maxAge: 100).makePolicy(limits: .objects(seed % 2 == 0 ? 40 : 100), source: "test")
            var lastTouch: [UInt64: Int64] = [:]
            for time in Int64(0)..<300 {
                let key = generator.next(in: 1...60)
                if policy.access(CacheRequest(key: UInt64(key), size: 1, time: time)) { continue }
                if policy.contains(UInt64(key)) { lastTouch[UInt64(key)] = time }
            }
            let resident = (1...60).map(UInt64.init).filter { policy.contains($0) }
            let before = policy.occupancy.expirations
            policy.removeExpired(at: 300)
            for key in resident {
                // Without refresh, an entry's lifetime runs from its insertion.
                let expired = 300 > (lastTouch[key] ?? .max) + 100
                #expect(policy.contains(key) == !expired, "\(name) seed \(seed) key \(key)")
            }
            #expect(policy.occupancy.expirations - before == resident.filter { !policy.contains($0) }.count)
            swept += policy.occupancy.expirations - before
        }
        #expect(swept > 0, "the sweeps found expired entries to remove")
    }
}
