import Foundation

/// One thing a finger does to a scroll view: the vocabulary scroll traces are written in.
/// Velocities are in points per second, positive toward the end of the feed (content offset
/// grows), negative back toward the top; durations are in nanoseconds. A `GestureScript`
/// expands a list of gestures into per-frame offsets.
public enum ScrollGesture: Sendable, Equatable {
    /// The finger on the glass, moving the content at a constant `velocity` for `duration`.
    case drag(velocity: Double, duration: Int64)
    /// The content coasting after the finger lifts at `velocity`: the velocity decays as
    /// v(t) = v₀ · rate^t (t in milliseconds) until its magnitude falls under
    /// `FlingPath.stopSpeed`. Coasts (|v₀| − 20) / (1000 · −ln rate) points: ≈ 0.5 · v₀ at the
    /// normal rate, ≈ 0.1 · v₀ at the fast one.
    case fling(velocity: Double, deceleration: DecelerationRate)
    /// No movement for `duration`: reading, looking at a picture.
    case dwell(duration: Int64)
    /// Back toward the top by `rows` rows of the script's row height — or to the top, whichever
    /// comes first — by a drag or a fling that lands exactly there.
    case reverse(rows: Int, motion: ReverseMotion)

    /// How a `reverse` travels.
    public enum ReverseMotion: Sendable, Equatable {
        /// A drag at `speed` points per second (positive) until the distance is covered.
        case drag(speed: Double)
        /// A fling at this rate, launched at the speed that coasts exactly the distance.
        case fling(DecelerationRate)
    }
}

/// How fast a fling slows down: the fraction of its velocity left after each millisecond, as
/// UIKit's `UIScrollView.DecelerationRate`.
public struct DecelerationRate: Sendable, Equatable {
    public var perMillisecond: Double

    public init(perMillisecond: Double) {
        precondition(perMillisecond > 0 && perMillisecond < 1, "DecelerationRate: expected a rate in (0, 1)")
        self.perMillisecond = perMillisecond
    }

    /// 0.998 per ms: UIKit's default, a long coast.
    public static let normal = DecelerationRate(perMillisecond: 0.998)
    /// 0.99 per ms: UIKit's `.fast`, a short coast (paging-like feeds).
    public static let fast = DecelerationRate(perMillisecond: 0.99)
}

/// The closed form of a fling: with r the rate per millisecond and v₀ in points per second, the
/// displacement after t ms is x(t) = v₀/1000 · (r^t − 1) / ln r, and the fling stops at the
/// t where |v₀| · r^t = `stopSpeed`, having travelled sign(v₀) · (|v₀| − stopSpeed) / (1000 · −ln r).
public struct FlingPath: Sendable, Equatable {
    /// Below this speed (points per second) a fling is over: 20 pt/s, a third of a point per
    /// frame at 60 Hz — no longer visible motion.
    public static let stopSpeed = 20.0

    public let velocity: Double
    public let rate: DecelerationRate
    /// How long it coasts, in nanoseconds (0 when |velocity| ≤ `stopSpeed`).
    public let duration: Int64
    /// Where it stops, relative to where it started, in points (signed).
    public private(set) var distance: Double
    let stopMilliseconds: Double
    let lnRate: Double

    public init(velocity: Double, rate: DecelerationRate) {
        precondition(velocity.isFinite, "FlingPath: velocity must be finite")
        self.velocity = velocity
        self.rate = rate
        lnRate = log(rate.perMillisecond)
        let speed = abs(velocity)
        if speed > FlingPath.stopSpeed {
            stopMilliseconds = log(FlingPath.stopSpeed / speed) / lnRate
            duration = Int64((stopMilliseconds * 1e6).rounded(.up))
            distance = (velocity < 0 ? -1 : 1) * (speed - FlingPath.stopSpeed) / (1000 * -lnRate)
        } else {
            stopMilliseconds = 0
            duration = 0
            distance = 0
        }
    }

    /// The fling that coasts exactly `distance` points (signed) at `rate`: launched at
    /// |distance| · 1000 · −ln rate + `stopSpeed`, and ending on `distance` to the last bit.
    public init(distance: Double, rate: DecelerationRate) {
        precondition(distance.isFinite, "FlingPath: distance must be finite")
        let speed = abs(distance) * 1000 * -log(rate.perMillisecond) + FlingPath.stopSpeed
        self.init(velocity: distance < 0 ? -speed : speed, rate: rate)
        if duration > 0 { self.distance = distance }
    }

    /// Displacement in points `elapsed` nanoseconds after release; `distance` from the stop on.
    public func displacement(after elapsed: Int64) -> Double {
        let milliseconds = Double(elapsed) / 1e6
        guard milliseconds < stopMilliseconds else { return distance }
        return velocity / 1000 * (pow(rate.perMillisecond, milliseconds) - 1) / lnRate
    }
}
