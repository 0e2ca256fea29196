import Testing
@testable import FeedBench

/// The prefetcher: the window over the visible items, its changes as values, and seed 000's
/// adaptive size.
@Suite struct PrefetcherTests {
    static func prefetcher(_ mode: WindowMode, items: Int = 200, profile: DeviceProfile = .lowEnd) -> Prefetcher {
        var prefetcher = Prefetcher(mode: mode, profile: profile)
        prefetcher.startLaunch(at: 0)
        for _ in 0..<items { prefetcher.addItem() }
        return prefetcher
    }

    /// Moves `prefetcher` over a feed of 200 items, requiring that the window changed.
    static func moved(_ prefetcher: inout Prefetcher, visible: Range<Int>, forward: Bool) throws -> Prefetcher.Change {
        let change = prefetcher.move(visible: visible, forward: forward, speed: 0, itemCount: 200)
        return try #require(change)
    }

    @Test func aMoveReportsWhatLeftInTheOldOrderAndWhatEnteredNearestFirst() throws {
        var prefetcher = Self.prefetcher(.items(PrefetchWindow(ahead: 3)))
        var change = try Self.moved(&prefetcher, visible: 0..<2, forward: true)
        #expect(Array(change.entered) == [2, 3, 4] && Array(change.left).isEmpty)
        change = try Self.moved(&prefetcher, visible: 2..<4, forward: true)
        #expect(Array(change.left) == [2, 3] && Array(change.entered) == [5, 6])
        #expect(prefetcher.window == [4, 5, 6] && prefetcher.holds(4) && !prefetcher.holds(2))
        change = try Self.moved(&prefetcher, visible: 2..<4, forward: false)
        #expect(Array(change.left) == [4, 5, 6] && Array(change.entered) == [1, 0])
    }

    @Test func aFrameThatChangesNothingMovesNothing() {
        var prefetcher = Self.prefetcher(.items(PrefetchWindow(ahead: 3)))
        #expect(prefetcher.move(visible: 0..<2, forward: true, speed: 0, itemCount: 200) != nil)
        #expect(prefetcher.move(visible: 0..<2, forward: true, speed: 0, itemCount: 200) == nil)
        #expect(prefetcher.move(visible: 0..<2, forward: true, speed: 0, itemCount: 201) == nil,
                "more items behind the window leave it where it was")
    }

    /// Differential: over many seeds, every change equals the naive difference of the windows.
    @Test func changesAreTheWindowsDifferencesOverManyRandomMoves() throws {
        for seed in 1...50 as ClosedRange<UInt64> {
            var random = SeededGenerator(seed: seed)
            var prefetcher = Self.prefetcher(.items(PrefetchWindow(ahead: 1 + Int(random.next(below: 12)), behind: Int(random.next(below: 4)))))
            var itemCount = 200
            var old: [Int] = []
            for _ in 0..<200 {
                let lower = Int(random.next(below: 150))
                let visible = lower..<(lower + 1 + Int(random.next(below: 4)))
                let forward = random.chance(0.7)
                if random.chance(0.1) {
                    prefetcher.addItem()
                    itemCount += 1
                }
                guard let change = prefetcher.move(visible: visible, forward: forward, speed: 0, itemCount: itemCount) else {
                    #expect(prefetcher.window == old, "seed \(seed): no change, the same window")
                    continue
                }
                let new = prefetcher.window
                #expect(Array(change.left) == old.filter { !new.contains($0) }, "seed \(seed)")
                #expect(Array(change.entered) == new.filter { !old.contains($0) }, "seed \(seed)")
                #expect((0..<itemCount).allSatisfy { prefetcher.holds($0) == new.contains($0) }, "seed \(seed)")
                old = new
            }
        }
    }

    @Test func theWindowsFormsFollowTheDevice() {
        let tablet = DeviceProfile.tablet
        #expect(Self.prefetcher(.screens(1.5)).currentWindow(speed: 0) == PrefetchWindow(ahead: 3), "1.5 × 2 items a screen")
        #expect(Self.prefetcher(.device).currentWindow(speed: 0) == PrefetchWindow(ahead: 15), "a 3 GB phone")
        #expect(Self.prefetcher(.device, profile: tablet).currentWindow(speed: 0) == PrefetchWindow(ahead: 50), "a grid")
        #expect(Self.prefetcher(.velocity).currentWindow(speed: 0) == PrefetchWindow(ahead: 2))
        #expect(Self.prefetcher(.velocity).currentWindow(speed: 3_000) == PrefetchWindow(ahead: 2 + 8), "8 cells a second")
        #expect(Self.prefetcher(.velocity).currentWindow(speed: 1e9) == PrefetchWindow(ahead: 100), "at most 100")
    }

    @Test func theAdaptiveWindowShrinksUnderPressureAndStallsAndGrowsBackOncePerSecond() {
        let second: Int64 = 1_000_000_000
        let warning = DeviceProfile.lowEnd.memoryWarningBytes
        var prefetcher = Self.prefetcher(.adaptive(start: 20))
        #expect(prefetcher.adaptiveAhead == 20)
        prefetcher.adapt(at: second / 2, memoryLevel: warning)
        #expect(prefetcher.adaptiveAhead == 20, "not within the first second")
        prefetcher.adapt(at: second, memoryLevel: warning)
        #expect(prefetcher.adaptiveAhead == 10, "above 80 % of the warning: halved")
        for _ in 0..<3 { prefetcher.noteStall() }
        prefetcher.adapt(at: 2 * second, memoryLevel: 0)
        #expect(prefetcher.adaptiveAhead == 8, "more than two stalls: a quarter less")
        prefetcher.adapt(at: 3 * second, memoryLevel: 0)
        #expect(prefetcher.adaptiveAhead == 13, "calm: a quarter of the start more")
        prefetcher.adapt(at: 4 * second, memoryLevel: warning * 7 / 10)
        #expect(prefetcher.adaptiveAhead == 13, "between 60 and 80 %: unchanged")
        prefetcher.adapt(at: 5 * second, memoryLevel: 0)
        prefetcher.adapt(at: 6 * second, memoryLevel: 0)
        #expect(prefetcher.adaptiveAhead == 20, "never above the start")
        #expect(prefetcher.currentWindow(speed: 0) == PrefetchWindow(ahead: 20))
    }
}
