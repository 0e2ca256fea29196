import Testing
@testable import FeedBench

/// The feed's supply: API calls one at a time, seed 000's refill rule, and the supply → buffer
/// → display list flow; and the display list itself.
@Suite struct FeedSupplyTests {
    static func images(_ urls: ClosedRange<UInt64>) -> [ImageDescriptor] {
        urls.map { ImageDescriptor(url: $0, pixelWidth: 100, pixelHeight: 100, encodedBytes: 1_000) }
    }

    @Test func callsAreTakenOneAtATimeAndAFailurePausesRefillsForASecond() {
        var supply = FeedSupply(rules: FeedRules(), bufferLimit: 0)
        supply.want(2)
        supply.want(1)
        #expect(supply.callsWanted == 2, "wanting fewer calls than wanted changes nothing")
        #expect(supply.takeCall() && !supply.takeCall(), "a second call waits for the first's answer")
        supply.callSent(at: 5)
        #expect(supply.callUnderWay && supply.callSentAt == 5 && supply.callsWanted == 1)
        supply.callAnswered()
        let next = supply.takeCall()
        #expect(next)
        supply.callAnswered()
        supply.callFailed(at: 1_000)
        #expect(supply.callsWanted == 0)
        let paused = supply.refill(at: 1_000 + 999_999_999, ahead: 0, shown: true)
        #expect(!paused, "within the failure's pause")
        #expect(supply.refill(at: 1_000 + 1_000_000_000, ahead: 0, shown: true) && supply.callsWanted == 5)
    }

    @Test func theRefillRuleCallsWhenFewerThanRefillBelowAreAhead() {
        var supply = FeedSupply(rules: FeedRules(), bufferLimit: 0)
        let enough = supply.refill(at: 0, ahead: 20, shown: true)
        #expect(!enough, "20 ahead: enough")
        #expect(supply.refill(at: 0, ahead: 19, shown: true) && supply.callsWanted == 4, "⌈(50 − 19) / 10⌉")
        let again = supply.refill(at: 0, ahead: 0, shown: true)
        #expect(!again, "not while calls are wanted")
        var hidden = FeedSupply(rules: FeedRules(), bufferLimit: 0)
        #expect(hidden.refill(at: 0, ahead: 19, shown: false) && hidden.callsWanted == 4)
        var full = FeedSupply(rules: FeedRules(fillBelow: 20, refillBelow: 20), bufferLimit: 0)
        #expect(full.refill(at: 0, ahead: 19, shown: false) && full.callsWanted == 1, "a hidden feed calls at least once")
    }

    @Test func imagesPassThroughTheSupplyAndTheBufferToTheDisplayList() {
        var supply = FeedSupply(rules: FeedRules(), bufferLimit: 3)
        #expect(supply.buffers)
        supply.receive(Self.images(1...6)) { $0 == 1 }
        supply.receive(Self.images(5...7)) { _ in false }
        #expect(supply.waiting == 6, "2–7: the listed image and the known ones skipped")
        var preloaded: [UInt64] = []
        while let image = supply.nextToPreload() { preloaded.append(image.url) }
        #expect(preloaded == [2, 3, 4], "the buffer holds three")
        #expect(supply.nextToDisplay(ahead: FeedSupply.moveBelow) == nil, "enough ahead: nothing moves")
        #expect(supply.nextToDisplay(ahead: 0)?.url == 2 && supply.hasToMove(ahead: 9) && !supply.hasToMove(ahead: 10))
        #expect(supply.nextToPreload()?.url == 5, "a moved image makes room")
        #expect(supply.release(3) && !supply.release(3) && !supply.release(6), "a buffered image's preload is released once")
        supply.startLaunch()
        #expect(supply.waiting == 0 && !supply.callUnderWay && supply.callsWanted == 0)
    }

    @Test func theDisplayListHoldsEachImageOnceAndKnowsHowFarTheUserCame() {
        var list = FeedList()
        #expect(Self.images(1...5).allSatisfy { list.append($0) })
        #expect(!list.append(Self.images(3...3)[0]) && list.count == 5)
        #expect(list.index(of: 4) == 3 && list.index(of: 9) == nil && list[3].url == 4)
        #expect(list.ahead == 5)
        list.displayed(2)
        list.displayed(1)
        #expect(list.furthestDisplayed == 2 && list.ahead == 2)
    }
}
