/// What a comparison looks at and what makes it fail: the metrics compared, each one's
/// tolerance, and whether only regressions fail (`bench compare`) or any change beyond
/// tolerance does (`bench check`, where the simulator's determinism makes every change a
/// model change).
public struct ComparisonRules: Sendable, Equatable {
    /// What fails a comparison.
    public enum Failure: Sendable, Equatable {
        /// A directional metric worse beyond its tolerance.
        case regressions
        /// Any metric beyond its tolerance, whichever way it moved.
        case anyDifference
    }

    /// The metrics compared, in report order.
    public let metrics: [ResultMetric]
    /// Each metric's tolerance, aligned with `metrics`; `nil` for an informational metric
    /// given none.
    public let tolerances: [Tolerance?]
    public let failure: Failure

    /// `bench compare`'s rules: `metrics` (default: every metric with a direction) with their
    /// default tolerances, replaced by `overrides` (later ones win); only regressions fail.
    public static func regressions(metrics: [ResultMetric]? = nil, overrides: [(ResultMetric, Tolerance)] = []) -> ComparisonRules {
        let metrics = metrics ?? ResultMetric.compared
        return ComparisonRules(metrics: metrics, tolerances: metrics.map(\.defaultTolerance), overrides: overrides, failure: .regressions)
    }

    /// `bench check`'s rules: every column must match exactly, except where `overrides` gives
    /// a tolerance; any change beyond tolerance fails.
    public static func exactMatch(overrides: [(ResultMetric, Tolerance)] = []) -> ComparisonRules {
        let metrics = ResultMetric.all
        return ComparisonRules(metrics: metrics, tolerances: metrics.map { _ in .exact }, overrides: overrides, failure: .anyDifference)
    }

    init(metrics: [ResultMetric], tolerances: [Tolerance?], overrides: [(ResultMetric, Tolerance)], failure: Failure) {
        var tolerances = tolerances
        for (metric, tolerance) in overrides {
            if let index = metrics.firstIndex(of: metric) { tolerances[index] = tolerance }
        }
        self.metrics = metrics
        self.tolerances = tolerances
        self.failure = failure
    }
}
