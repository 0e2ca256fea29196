import Testing
@testable import FeedBench

/// The view history: reshown images, views written in batches, and what the run displayed.
@Suite struct ViewHistoryTests {
    @Test func aViewIsWrittenOnceALaunchAndCountsAsEarlierInTheNext() {
        var history = ViewHistory(viewedEarlier: [9])
        let reshown = history.displayed(9, at: 10)
        #expect(reshown, "viewed in an earlier session")
        #expect(!history.displayed(1, at: 20) && !history.displayed(1, at: 30))
        #expect(history.unwritten == [FeedStore.View(url: 9, time: 10), FeedStore.View(url: 1, time: 20)])
        history.written()
        #expect(history.unwritten.isEmpty)
        history.startLaunch()
        let again = history.displayed(1, at: 40)
        #expect(again, "viewed in the launch before")
        #expect(history.unwritten == [FeedStore.View(url: 1, time: 40)])
        #expect(history.wasDisplayed(1) && history.wasDisplayed(9) && !history.wasDisplayed(2))
    }
}
