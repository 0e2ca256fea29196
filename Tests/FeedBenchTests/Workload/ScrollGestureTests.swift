import Foundation
import Testing
@testable import FeedBench

/// The gesture model: each gesture's motion, exactly or within the stated tolerance.
@Suite struct ScrollGestureTests {
    let second: Int64 = 1_000_000_000

    @Test func frameIntervalsRoundToTheNearestNanosecond() {
        #expect(ScrollTrace.frameInterval(refreshRate: 60) == 16_666_667)
        #expect(ScrollTrace.frameInterval(refreshRate: 120) == 8_333_333)
        #expect(ScrollTrace.frameInterval(refreshRate: 1) == second)
    }

    @Test func aDragMovesVelocityTimesDuration() {
        let script = GestureScript(rowHeight: 100, gestures: [.drag(velocity: 600, duration: second)])
        #expect(script.endOffset == 600 && script.duration == second)
        let trace = script.trace(name: "drag", refreshRate: 60)
        #expect(trace.offsets.count == 61)
        #expect(trace.offsets.last == 600)
        #expect(abs(trace.offsets[30] - 600 * Double(30 * trace.frameInterval) / 1e9) < 1e-9)
        #expect(zip(trace.offsets, trace.offsets.dropFirst()).allSatisfy { abs($1 - $0 - 10) < 1e-4 })
    }

    @Test func aFlingAtTheNormalRateCoastsAboutHalfItsVelocity() {
        for velocity in [1000.0, 3000, 8000] {
            let path = FlingPath(velocity: velocity, rate: .normal)
            #expect(abs(path.distance - 0.5 * velocity) < 0.02 * velocity, "\(velocity): \(path.distance)")
            #expect(abs(path.distance - (velocity - 20) / 1000 / -log(0.998)) < 1e-9)
        }
        let script = GestureScript(rowHeight: 100, gestures: [.fling(velocity: 3000, deceleration: .normal)])
        let trace = script.trace(name: "fling", refreshRate: 120)
        #expect(abs(trace.offsets.last! - 1488.5) < 0.1)
        // Stops when the speed falls to 20 pt/s: after ln(20/3000)/ln(0.998) ms ≈ 2.502 s.
        #expect(abs(Double(script.duration) / 1e9 - 2.5024) < 0.001)
        let steps = zip(trace.offsets, trace.offsets.dropFirst()).map { $1 - $0 }
        #expect(steps[0] == FlingPath(velocity: 3000, rate: .normal).displacement(after: trace.frameInterval))
        #expect(steps[0] > 24.7 && steps[0] < 3000.0 / 120)
        #expect(zip(steps, steps.dropFirst()).allSatisfy { $1 <= $0 })
        #expect(steps.allSatisfy { $0 >= 0 })
    }

    @Test func aFlingAtTheFastRateCoastsLess() {
        let normal = FlingPath(velocity: 3000, rate: .normal)
        let fast = FlingPath(velocity: 3000, rate: .fast)
        #expect(fast.distance < normal.distance / 4)
        #expect(abs(fast.distance - 0.1 * 3000) < 0.02 * 3000)
        #expect(fast.duration < normal.duration)
    }

    @Test func aSlowFlingDoesNotMoveAndAnUpwardOneStopsAtTheTop() {
        #expect(FlingPath(velocity: 15, rate: .normal).duration == 0)
        let script = GestureScript(rowHeight: 100, gestures: [
            .drag(velocity: 1000, duration: second / 10), .fling(velocity: -4000, deceleration: .normal),
        ])
        #expect(script.endOffset == 0)
        #expect(script.trace(name: "up", refreshRate: 60).offsets.allSatisfy { $0 >= 0 })
    }

    @Test func aDwellDoesNotMove() {
        let script = GestureScript(rowHeight: 100, gestures: [.drag(velocity: 500, duration: second), .dwell(duration: 3 * second)])
        #expect(script.duration == 4 * second && script.endOffset == 500)
        let trace = script.trace(name: "dwell", refreshRate: 60)
        #expect(trace.offsets[60...].allSatisfy { $0 == 500 })
        #expect(trace.offsets.count == 241)
    }

    @Test(arguments: [ScrollGesture.ReverseMotion.drag(speed: 800), .fling(.normal), .fling(.fast)])
    func aReverseGoesBackExactlyKRows(motion: ScrollGesture.ReverseMotion) {
        var script = GestureScript(rowHeight: 375, gestures: [.drag(velocity: 3750, duration: second)])
        script.append(.reverse(rows: 3, motion: motion))
        #expect(script.endOffset == 2625.0)
        let trace = script.trace(name: "back", refreshRate: 60)
        let back = trace.offsets[60...]
        #expect(zip(back, back.dropFirst()).allSatisfy { $1 <= $0 })
        #expect(back.last == 2625.0)
        #expect(back.allSatisfy { $0 >= 2625.0 })
    }

    @Test func aReverseNeverGoesAboveTheTop() {
        for motion in [ScrollGesture.ReverseMotion.drag(speed: 800), .fling(.normal)] {
            let script = GestureScript(rowHeight: 100, gestures: [
                .drag(velocity: 250, duration: second), .reverse(rows: 20, motion: motion), .reverse(rows: 1, motion: motion),
            ])
            #expect(script.endOffset == 0)
            let trace = script.trace(name: "top", refreshRate: 120)
            #expect(trace.offsets.allSatisfy { $0 >= 0 })
            #expect(trace.offsets.last == 0)
        }
    }

    @Test func anUpwardDragAtTheTopStaysThere() {
        let script = GestureScript(rowHeight: 100, gestures: [.drag(velocity: 100, duration: second), .drag(velocity: -500, duration: second)])
        let trace = script.trace(name: "pull", refreshRate: 60)
        #expect(trace.offsets.allSatisfy { $0 >= 0 })
        #expect(trace.offsets[75...].allSatisfy { $0 == 0 })
    }

    @Test func framesAfterTheScriptHoldTheEndOffset() {
        let script = GestureScript(rowHeight: 100, gestures: [.drag(velocity: 100, duration: second / 2)])
        let offsets = script.offsets(frameInterval: second / 10, frameCount: 10)
        #expect(offsets == [0, 10, 20, 30, 40, 50, 50, 50, 50, 50])
    }
}
