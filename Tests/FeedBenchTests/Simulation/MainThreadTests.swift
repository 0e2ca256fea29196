import Testing
@testable import FeedBench

/// The main thread, frame by frame: work given before a commit runs in it, a commit ending after
/// its frame's deadline presents the frame late, and only frames during which the feed
/// scrolled count, with hitch time as Apple's tools count it.
@Suite struct MainThreadTests {
    static let at60Hz: Int64 = 16_666_667
    static let at120Hz: Int64 = 8_333_333

    /// One frame of a script: the work given before its commit, and whether the feed scrolled.
    struct Frame {
        var work: Int64 = 0
        var scrolled = true
    }

    /// Commits `frames` one refresh interval apart from time 0, each after its work; each
    /// commit returns the hitch time it added.
    static func figures(_ frames: [Frame], budget: Int64 = at60Hz) -> FrameFigures {
        var thread = MainThread(budget: budget)
        for (index, frame) in frames.enumerated() {
            thread.add(frame.work)
            let before = thread.figures.hitchTime
            let hitch = thread.commit(at: Int64(index) * budget, interval: budget, scrolled: frame.scrolled)
            #expect(hitch == thread.figures.hitchTime - before)
        }
        return thread.figures
    }

    /// `count` idle frames, scrolling or not.
    static func idle(_ count: Int, scrolled: Bool = true) -> [Frame] {
        Array(repeating: Frame(scrolled: scrolled), count: count)
    }

    /// A random script: mostly idle frames, some a little work, a few several frames' worth;
    /// the feed scrolls in runs (a fling) and rests in runs (a dwell).
    static func randomFrames(_ random: inout SeededGenerator, budget: Int64 = at60Hz) -> [Frame] {
        var frames: [Frame] = []
        var scrolled = true
        for _ in 0..<(20 + Int(random.next(below: 60))) {
            if random.chance(0.15) { scrolled.toggle() }
            let draw = random.nextUnit()
            let work: Int64 = draw < 0.55 ? 0
                : draw < 0.85 ? random.next(in: 0...(budget / 2))
                : draw < 0.96 ? random.next(in: 0...(3 * budget))
                : random.next(in: 0...(8 * budget))
            frames.append(Frame(work: work, scrolled: scrolled))
        }
        return frames
    }

    /// The reference model, vsync by vsync, sharing nothing with `MainThread`: in each refresh
    /// interval the main thread spends its budget on the commits waiting, in order (a commit
    /// waits from its tick); a commit that finishes within an interval reaches the screen at
    /// the vsync ending it (its deadline, at the earliest). A vsync is a hitch when a scrolling
    /// frame is due (its deadline has come) but not on screen and no scrolling frame reaches
    /// the screen at it: the screen shows the same scroll position one interval longer. Each
    /// vsync counts once.
    struct Naive {
        /// The vsync (vsync n at n × budget) at which each frame reaches the screen.
        var presented: [Int] = []
        var frames = 0
        var framesLate = 0
        var hitchVsyncs = 0
        /// The longest run of consecutive hitch vsyncs.
        var longestRun = 0

        init(_ script: [Frame], budget: Int64) {
            var remaining = script.map(\.work)
            presented = Array(repeating: 0, count: script.count)
            var next = 0
            var vsync = 0
            while next < script.count {
                var available = budget
                while next < script.count && next <= vsync {
                    if remaining[next] <= available {
                        available -= remaining[next]
                        presented[next] = vsync + 1
                        next += 1
                    } else {
                        remaining[next] -= available
                        break
                    }
                }
                vsync += 1
            }
            let scrolling = script.indices.filter { script[$0].scrolled }
            frames = scrolling.count
            framesLate = scrolling.filter { presented[$0] > $0 + 1 }.count
            var run = 0
            for vsync in 1...max(1, presented.max() ?? 1) {
                let due = scrolling.contains { $0 + 1 <= vsync && vsync < presented[$0] }
                let arrives = scrolling.contains { presented[$0] == vsync }
                if due && !arrives {
                    hitchVsyncs += 1
                    run += 1
                    longestRun = max(longestRun, run)
                } else {
                    run = 0
                }
            }
        }
    }

    // MARK: Specification by example

    @Test func noWorkMakesNoLateFrameAndNoHitch() {
        for seed in 1...50 as ClosedRange<UInt64> {
            var random = SeededGenerator(seed: seed)
            let frames = (0..<200).map { _ in Frame(scrolled: random.chance(0.6)) }
            let figures = Self.figures(frames)
            let scrolling = frames.filter(\.scrolled).count
            #expect(figures.framesLate == 0 && figures.hitchTime == 0 && figures.longestHitch == 0, "seed \(seed)")
            #expect(figures.frames == scrolling && figures.scrollingTime == Int64(scrolling) * Self.at60Hz, "seed \(seed)")
        }
    }

    @Test(arguments: [2, 3, 5, 12])
    func aDecodeOfKFramesOnTheMainThreadMakesKMinusOneFramesLate(k: Int) {
        for budget in [Self.at60Hz, Self.at120Hz] {
            let work = Int64(k) * budget
            let figures = Self.figures([Frame(work: work)] + Self.idle(k + 5), budget: budget)
            #expect(figures.framesLate >= k - 1, "\(k) frames' work at \(budget) ns: \(figures)")
            #expect(figures.hitchTime == Int64(k - 1) * budget, "the screen holds the previous frame k − 1 intervals too long")
            #expect(figures.longestHitch == Int64(k - 1) * budget, "one hitch, not one per frame queued behind it")
            #expect(figures.frames == k + 6)
        }
    }

    @Test func workWithinTheBudgetIsOnTime() {
        let figures = Self.figures([Frame(work: Self.at60Hz)] + Self.idle(3))
        #expect(figures.framesLate == 0 && figures.hitchTime == 0, "a commit ending exactly at its deadline is on time")
        let over = Self.figures([Frame(work: Self.at60Hz + 1)] + Self.idle(3))
        #expect(over.framesLate == 1 && over.hitchTime == Self.at60Hz, "one nanosecond more costs a whole interval")
    }

    @Test func oneHundredTwentyHertzHalvesTheBudget() {
        let job = [Frame(work: 10_000_000)] + Self.idle(3)
        let at60 = Self.figures(job, budget: Self.at60Hz)
        let at120 = Self.figures(job, budget: Self.at120Hz)
        #expect(at60.framesLate == 0 && at60.hitchTime == 0, "10 ms fits 16.67 ms")
        #expect(at120.framesLate == 1 && at120.hitchTime == Self.at120Hz && at120.longestHitch == Self.at120Hz,
                "10 ms misses 8.33 ms by one interval")
    }

    @Test func framesThatDoNotScrollAreNotCountedButTheirWorkDelaysTheNextScrollingFrame() {
        let budget = Self.at60Hz
        let resting = Self.figures([Frame(work: 3 * budget, scrolled: false), Frame(work: 0, scrolled: false)])
        #expect(resting == FrameFigures(), "nothing counts while the feed rests, however late")

        let figures = Self.figures([Frame(work: 3 * budget, scrolled: false), Frame()] + Self.idle(3))
        #expect(figures.frames == 4 && figures.scrollingTime == 4 * budget)
        #expect(figures.framesLate == 1, "the first scrolling frame waits for the resting frame's work")
        #expect(figures.hitchTime == budget && figures.longestHitch == budget, "it is due at 2 intervals, shown at 3")
    }

    @Test func aRelaunchDropsTheWorkNotYetCommittedAndKeepsTheFigures() {
        let budget = Self.at60Hz
        var thread = MainThread(budget: budget)
        thread.add(3 * budget)
        thread.commit(at: 0, interval: budget, scrolled: true)
        let before = thread.figures
        #expect(before.framesLate == 1 && before.hitchTime == 2 * budget)
        thread.add(5 * budget)
        thread.restart()
        thread.commit(at: 100 * budget, interval: budget, scrolled: true)
        #expect(thread.figures.framesLate == 1 && thread.figures.hitchTime == 2 * budget && thread.figures.frames == 2,
                "the work given before the relaunch never runs")
    }

    // MARK: Properties over random scripts

    /// Every hitch vsync is a refresh interval the main thread spent entirely on work (the
    /// scrolling frame due then was still being committed), so hitch time never exceeds the
    /// work given; a scroll lasting until the main thread has done all of it therefore never
    /// hitches for longer than it scrolls (hitch time ratio at most 1,000 ms/s).
    @Test func hitchTimeNeverExceedsTheWorkNorTheScrollingTimeOfAScrollThatOutlastsIt() {
        let budget = Self.at60Hz
        for seed in 1...1_000 as ClosedRange<UInt64> {
            var random = SeededGenerator(seed: seed)
            var frames = Self.randomFrames(&random)
            let work = frames.reduce(0) { $0 + $1.work }
            frames += Self.idle(Int(work / budget) + 2)
            let figures = Self.figures(frames)
            #expect(figures.hitchTime <= work, "seed \(seed): \(figures) from \(work) ns of work")
            #expect(figures.hitchTime <= figures.scrollingTime, "seed \(seed): \(figures)")
            #expect(figures.longestHitch <= figures.hitchTime && figures.framesLate <= figures.frames, "seed \(seed)")
        }
    }

    /// A longer job never brings a frame forward, so it never makes fewer frames late.
    @Test func lateFramesNeverFallWhenAnyOneJobGrows() {
        let budget = Self.at60Hz
        for seed in 1...200 as ClosedRange<UInt64> {
            var random = SeededGenerator(seed: seed)
            let frames = Self.randomFrames(&random)
            let before = Self.figures(frames)
            for _ in 0..<10 {
                var grown = frames
                let index = Int(random.next(below: UInt64(frames.count)))
                grown[index].work += random.next(in: 1...(2 * budget))
                let after = Self.figures(grown)
                #expect(after.framesLate >= before.framesLate, "seed \(seed), frame \(index): \(before) → \(after)")
            }
        }
    }

    /// Hitch time, though, is not monotone in the work, as Apple counts it (a frame adds only
    /// how much later it came than one interval after the frame before it): here frame 2's
    /// longer job makes it late, yet it fills vsync 4, which the screen otherwise held while
    /// frame 3 was committed — three frames late and 3 intervals of hitch become four frames
    /// late and 2 intervals. (The vsync-by-vsync model agrees.)
    @Test func aLongerJobCanShortenTheHitchTimeByFillingAVsyncTheScreenWouldHaveHeld() {
        let budget = Self.at60Hz
        func script(frame2: Int64) -> [Frame] {
            [Frame(work: budget * 22 / 10), Frame(work: budget / 10), Frame(work: frame2), Frame(work: budget * 15 / 10)] + Self.idle(4)
        }
        let before = Self.figures(script(frame2: 0))
        let after = Self.figures(script(frame2: budget * 9 / 10))
        #expect(before.framesLate == 3 && before.hitchTime == 3 * budget && before.longestHitch == 2 * budget, "\(before)")
        #expect(after.framesLate == 4 && after.hitchTime == 2 * budget && after.longestHitch == 2 * budget, "\(after)")
        #expect(Naive(script(frame2: 0), budget: budget).hitchVsyncs == 3 && Naive(script(frame2: budget * 9 / 10), budget: budget).hitchVsyncs == 2)
    }

    /// A scroll that pauses for a frame while the main thread is still behind, then goes on:
    /// the screen is stuck from vsync 1 to vsync 10 (9 intervals), and that is the hitch —
    /// the frames of the second scroll wait behind the same work and add no more.
    @Test func aBacklogOutlastingAPauseInTheScrollIsCountedOnce() {
        let budget = Self.at60Hz
        let frames = [Frame(work: 10 * budget), Frame(scrolled: false)] + Self.idle(20)
        let figures = Self.figures(frames)
        #expect(Naive(frames, budget: budget).hitchVsyncs == 9)
        #expect(figures.hitchTime == 9 * budget, "\(figures)")
        #expect(figures.hitchTime <= 10 * budget, "never more than the 10 intervals of work that caused it")
        #expect(figures.longestHitch == 9 * budget && figures.frames == 21)
    }

    /// Differential: over 200 random scripts, at 60 and 120 Hz, `MainThread`'s figures equal
    /// the vsync-by-vsync model's exactly.
    @Test func theFiguresEqualAVsyncByVsyncModel() {
        for budget in [Self.at60Hz, Self.at120Hz] {
            for seed in 1...200 as ClosedRange<UInt64> {
                var random = SeededGenerator(seed: seed)
                let frames = Self.randomFrames(&random, budget: budget)
                let figures = Self.figures(frames, budget: budget)
                let naive = Naive(frames, budget: budget)
                #expect(figures.frames == naive.frames && figures.scrollingTime == Int64(naive.frames) * budget, "seed \(seed)")
                #expect(figures.framesLate == naive.framesLate, "seed \(seed) at \(budget) ns")
                #expect(figures.hitchTime == Int64(naive.hitchVsyncs) * budget, "seed \(seed) at \(budget) ns")
                #expect(figures.longestHitch == Int64(naive.longestRun) * budget, "seed \(seed) at \(budget) ns")
            }
        }
    }

    /// The model itself, on a script worked by hand: 2.5 intervals of work, then a scroll.
    @Test func theVsyncByVsyncModelPlacesFramesAsWorkedByHand() {
        let budget = Self.at60Hz
        let naive = Naive([Frame(work: 5 * budget / 2), Frame(work: budget / 2), Frame(), Frame()], budget: budget)
        #expect(naive.presented == [3, 3, 3, 4], "frames 0 to 2 end within the third interval, frame 3 in the fourth")
        #expect(naive.framesLate == 2 && naive.hitchVsyncs == 2 && naive.longestRun == 2)
    }
}
