import Testing
@testable import FeedBench

/// The viewport: a trace moves the screen over the grid; it reports the items that entered and
/// left, and keeps each visible item's cell.
@Suite struct ViewportTests {
    /// The low-end phone: one column of 375-point cells on a 667-point screen.
    static func viewport(offsets: [Double]) -> Viewport {
        var viewport = Viewport(profile: .lowEnd)
        viewport.startLaunch(trace: ScrollTrace(name: "test", frameInterval: 16_666_667, offsets: offsets))
        for _ in 0..<100 { viewport.addItem() }
        return viewport
    }

    @Test func framesMoveTheScreenByTheTracesDifferencesAndReportWhatEnteredAndLeft() {
        var viewport = Self.viewport(offsets: [0, 0, 400, 1_200])
        viewport.scroll(toFrame: 0, itemCount: 100, shown: true)
        var change = viewport.updateVisible(itemCount: 100, shown: true)
        #expect(Array(change.entered) == [0, 1] && Array(change.left).isEmpty, "two cells cover the first 667 points")
        viewport.scroll(toFrame: 2, itemCount: 100, shown: true)
        change = viewport.updateVisible(itemCount: 100, shown: true)
        #expect(viewport.offset == 400 && viewport.forward)
        #expect(Array(change.left) == [0] && Array(change.entered) == [2], "400–1,067 points: items 1 and 2")
        viewport.scroll(toFrame: 3, itemCount: 100, shown: true)
        change = viewport.updateVisible(itemCount: 100, shown: true)
        #expect(viewport.visible == 3..<5 && Array(change.left) == [1, 2] && Array(change.entered) == [3, 4])
    }

    @Test func aFeedNotYetShownCannotBeScrolledNorSeen() {
        var viewport = Self.viewport(offsets: [0, 800])
        viewport.scroll(toFrame: 1, itemCount: 100, shown: false)
        #expect(viewport.offset == 0 && viewport.speed == 0)
        #expect(viewport.updateVisible(itemCount: 100, shown: false).after.isEmpty)
    }

    @Test func theScreenStopsAtTheEndOfTheFeed() {
        var viewport = Self.viewport(offsets: [0, 10_000])
        viewport.scroll(toFrame: 1, itemCount: 3, shown: true)
        #expect(viewport.offset == 3 * 375 - 667, "three cells: the screen's bottom at the last cell's")
        #expect(viewport.updateVisible(itemCount: 3, shown: true).after == 1..<3)
    }

    @Test func scrollingBackTurnsTheDirectionAndSpeedIsSmoothed() {
        var viewport = Self.viewport(offsets: [0, 600, 300])
        viewport.scroll(toFrame: 1, itemCount: 100, shown: true)
        let speed = viewport.speed
        #expect(abs(speed - 0.15 * 600 / (16_666_667 / 1e9)) < 1e-6)
        viewport.scroll(toFrame: 2, itemCount: 100, shown: true)
        #expect(!viewport.forward && viewport.offset == 300)
        #expect(abs(viewport.speed - (0.85 * speed + 0.15 * 300 / (16_666_667 / 1e9))) < 1e-6)
    }

    @Test func aCellWaitsUntilItsImageArrivesOrFails() {
        var viewport = Self.viewport(offsets: [0])
        viewport.scroll(toFrame: 0, itemCount: 100, shown: true)
        _ = viewport.updateVisible(itemCount: 100, shown: true)
        viewport.show(0, url: 7, waitingSince: 100, bitmapBytes: 1_000)
        viewport.show(1, url: 8, waitingSince: nil, bitmapBytes: 2_000)
        #expect(viewport.stopWaiting(1) == nil, "a cell showing its image is not waiting")
        #expect(viewport.shownChanges == [.init(url: 8, bytes: 2_000)], "a waiting cell shows no bitmap")
        #expect(viewport.stopWaiting(0) == 100 && viewport.stopWaiting(0) == nil)
        #expect(viewport.shownChanges.last == .init(url: 7, bytes: 1_000), "it shows its bitmap once it stops waiting")
        viewport.clearShownChanges()
        viewport.show(2, url: 9, waitingSince: 50, bitmapBytes: 3_000)
        #expect(viewport.stopWaiting(2, failed: true) == 50 && viewport.cells[2]?.bitmapBytes == 0)
        #expect(viewport.shownChanges == [.init(url: 9, bytes: 0)], "a failed image shows no bitmap")
        #expect(viewport.hide(0)?.url == 7 && viewport.cells[0] == nil)
        #expect(viewport.shownChanges.last == .init(url: 7, bytes: -1_000))
        viewport.clearShownChanges()
        viewport.clear()
        #expect(viewport.visible.isEmpty && viewport.cells.allSatisfy { $0 == nil } && viewport.cells.count == 100)
        #expect(viewport.shownChanges == [.init(url: 8, bytes: -2_000), .init(url: 9, bytes: 0)], "every cell stops showing")
    }

    @Test func framesAreDueAtTheirIntervalsUntilTheTraceEnds() {
        let viewport = Self.viewport(offsets: [0, 1, 2])
        let second = viewport.frameAfter(0, launchStart: 1_000)
        #expect(second == 16_667_667, "the launch's start and one interval")
        #expect(viewport.frameAfter(2, launchStart: 1_000) == nil)
        #expect(viewport.traceDuration == 3 * 16_666_667)
    }
}
