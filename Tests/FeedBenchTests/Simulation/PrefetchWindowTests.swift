import Testing
@testable import FeedBench

@Suite struct PrefetchWindowTests {
    @Test func aheadFollowsTheScrollDirectionNearestFirst() {
        let window = PrefetchWindow(ahead: 3, behind: 1)
        #expect(window.items(visible: 10..<12, forward: true, itemCount: 100) == [12, 13, 14, 9])
        #expect(window.items(visible: 10..<12, forward: false, itemCount: 100) == [9, 8, 7, 12])
    }

    @Test func staysInsideTheFeed() {
        let window = PrefetchWindow(ahead: 5)
        #expect(window.items(visible: 8..<10, forward: true, itemCount: 11) == [10])
        #expect(window.items(visible: 0..<2, forward: false, itemCount: 11) == [])
        #expect(PrefetchWindow(ahead: 0).items(visible: 0..<2, forward: true, itemCount: 11) == [])
    }

    @Test func parsesCountsAndRefusesTheRest() throws {
        #expect(try PrefetchWindow.parse("20", source: "--window") == PrefetchWindow(ahead: 20))
        #expect(try PrefetchWindow.parse("20+5", source: "--window") == PrefetchWindow(ahead: 20, behind: 5))
        for bad in ["-1", "x", "", "1+2+3", "20000"] {
            #expect(throws: InputError.self, "\(bad)") { try PrefetchWindow.parse(bad, source: "--window") }
        }
    }
}
