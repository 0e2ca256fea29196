/// What `bench compare`'s gate reports and what fails it: the metrics compared (each with its
/// tolerance), the gated ones among them — by default those the ranking is made of — and
/// whether only the answer counts (`--gate-answer`).
public struct GateRules: Sendable, Equatable {
    /// A gated check: a metric worse beyond its tolerance and the seeds' noise, or a
    /// configuration that stayed within its profile's memory limit (peak tracked memory at most
    /// the memory-warning threshold on every seed) and no longer does.
    public enum Check: Sendable, Equatable {
        case metric(ResultMetric)
        case memoryLimit

        /// As `--gate` names it: the metric's column, or `memory_limit`.
        public var name: String {
            switch self {
            case let .metric(metric): metric.name
            case .memoryLimit: Self.memoryLimitName
            }
        }

        static let memoryLimitName = "memory_limit"
    }

    /// The metrics reported, in report order, and each one's tolerance (aligned).
    public let metrics: [ResultMetric]
    public let tolerances: [Tolerance?]
    /// What fails the comparison.
    public let gate: [Check]
    /// Whether only the recommendation's change fails it.
    public let answerOnly: Bool

    /// The ranking's figures: stalls, display wait p95, memory warnings and kills, the hitch
    /// ratio, and peak memory against the profile's limit.
    public static let defaultGate: [Check] = ["stalls", "display_latency_ms_p95", "memory_warnings", "jetsam_kills",
                                             "hitch_time_ratio_ms_per_s"].map { name in .metric(ResultMetric.all.first { $0.name == name }!) }
        + [.memoryLimit]

    /// `metrics` (default: every metric with a direction, and every gated one) with their
    /// default tolerances, replaced by `overrides`; `gate` (default: `defaultGate`).
    public init(metrics: [ResultMetric]? = nil, overrides: [(ResultMetric, Tolerance)] = [], gate: [Check]? = nil,
                answerOnly: Bool = false) {
        let gate = gate ?? Self.defaultGate
        var metrics = metrics ?? ResultMetric.compared
        for case let .metric(gated) in gate where !metrics.contains(gated) { metrics.append(gated) }
        var tolerances = metrics.map(\.defaultTolerance)
        for (metric, tolerance) in overrides {
            if let index = metrics.firstIndex(of: metric) { tolerances[index] = tolerance }
        }
        self.metrics = metrics
        self.tolerances = tolerances
        self.gate = gate
        self.answerOnly = answerOnly
    }

    /// Whether `metric` is gated. O(gate).
    public func gates(_ metric: ResultMetric) -> Bool { gate.contains(.metric(metric)) }

    /// `--gate`'s list: metric names and `memory_limit`, each once, in the order given; an
    /// unknown name is refused naming the valid ones.
    public static func parseGate(_ text: String, source: String) throws -> [Check] {
        var checks: [Check] = []
        for name in text.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
            let check: Check
            if name == Check.memoryLimitName {
                check = .memoryLimit
            } else if let metric = ResultMetric.all.first(where: { $0.name == name }), metric.direction != .informational {
                check = .metric(metric)
            } else {
                throw InputError(source: source, "expected metrics with a direction or \(Check.memoryLimitName), found \(InputError.quote(name)); the metrics: \(ResultMetric.compared.map(\.name).joined(separator: ", "))")
            }
            guard !checks.contains(check) else { throw InputError(source: source, "expected each check once, found \(InputError.quote(name)) twice") }
            checks.append(check)
        }
        return checks
    }
}
