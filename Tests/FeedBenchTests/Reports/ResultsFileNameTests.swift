@testable import FeedBench
import Testing

/// Only a profile's standard matrix as it stands writes the committed baseline; any other
/// `bench run` writes a name built from what it changed, the same every time.
@Suite struct ResultsFileNameTests {
    @Test func theStandardMatrixWritesTheBaseline() {
        #expect(ResultsFileName.path(profile: "low-end", changes: []) == "results/low-end.csv")
    }

    @Test func anythingElseIsNamedAfterTheOptionsGiven() {
        #expect(ResultsFileName.path(profile: "low-end", changes: [("network", "3g")]) == "results/low-end+network-3g.csv")
        #expect(ResultsFileName.path(profile: "mid", changes: [("policy", "lru,ttl:max-age=300"), ("window", "0,20+5"), ("release-viewed", "")])
                == "results/mid+policy-lru,ttl_max-age_300+window-0,20_5+release-viewed.csv")
    }

    @Test func aLongNameKeepsTheOptionsThatFitAndEndsWithAHashOfThemAll() {
        let changes: [(option: String, value: String)] = [("policy", "lru,lfu,fifo,clock,sieve,s3fifo,2q,arc"), ("window", "0,5,10,20,30,50"),
                                                          ("network", "3g")]
        let path = ResultsFileName.path(profile: "low-end", changes: changes)
        #expect(path.hasPrefix("results/low-end+policy-lru,lfu,fifo,clock,sieve,s3fifo,2q,arc+"))
        #expect(path.count == "results/".count + "low-end+policy-lru,lfu,fifo,clock,sieve,s3fifo,2q,arc".count + 1 + 16 + ".csv".count)
        #expect(ResultsFileName.path(profile: "low-end", changes: changes) == path, "stable")
        var other = changes
        other[2] = ("network", "edge")
        #expect(ResultsFileName.path(profile: "low-end", changes: other) != path)
    }

    @Test(arguments: [[("seed", "2")], [("trace", "low-end")], [("memory-limit", "200MB")]] as [[(option: String, value: String)]])
    func noChangedRunIsNamedLikeABaseline(changes: [(option: String, value: String)]) {
        let path = ResultsFileName.path(profile: "low-end", changes: changes)
        #expect(!DeviceProfile.builtIn.map { "results/\($0.name).csv" }.contains(path))
        #expect(path.hasPrefix("results/low-end+"))
    }
}
