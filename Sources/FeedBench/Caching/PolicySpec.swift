/// The eviction policies FeedBench simulates, by their command-line names.
public enum PolicyName: String, CaseIterable, Sendable, Codable {
    case lru, lfu, fifo, ttl, belady
    case clock, sieve, s3fifo, twoQueue = "2q", arc, wtinylfu, lfuda
    /// Seed 002's dictionary cache: never evicts, whatever the limits say.
    case unbounded

    /// One line on what the policy evicts, for help text and docs/policies.md.
    public var summary: String {
        switch self {
        case .lru: "least recently used"
        case .lfu: "least frequently used; ties by recency"
        case .fifo: "first in, first out; hits change nothing"
        case .ttl: "fixed lifetime from insertion; the entry that expires first goes first"
        case .belady: "offline optimum: the entry needed farthest in the future (needs the whole trace)"
        case .clock: "FIFO with one reference bit; a referenced tail entry gets a second chance at the head"
        case .sieve: "FIFO with a visited bit and a hand sweeping tail to head; survivors stay in place"
        case .lfuda: "LFU with dynamic aging: count plus the last victim's priority; ties by recency"
        case .wtinylfu: "W-TinyLFU: LRU window, SLRU main, admission to main by a frequency sketch"
        case .unbounded: "never evicts (seed 002's dictionary cache, the naive baseline)"
        case .s3fifo: "small FIFO filter, main FIFO with 2-bit clock, ghost FIFO of evicted keys"
        case .twoQueue: "2Q: FIFO for new objects, ghost of its evictions, LRU for objects seen again"
        case .arc: "adaptive replacement: recency and frequency LRUs sized by hits on their ghosts"
        }
    }

    /// Whether the policy needs each request's next access, hence the whole trace in advance.
    public var needsFuture: Bool { self == .belady }

    static var validList: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// A numeric parameter a policy accepts after its name (`s3fifo:small=0.1`).
public struct PolicyTunable: Sendable, Hashable {
    public var name: String
    public var range: ClosedRange<Double>
    public var defaultValue: Double
    public var meaning: String

    public init(_ name: String, _ range: ClosedRange<Double>, default defaultValue: Double, _ meaning: String) {
        self.name = name
        self.range = range
        self.defaultValue = defaultValue
        self.meaning = meaning
    }
}

extension PolicyName {
    /// The parameters this policy accepts besides `max-age` and `refresh`.
    public var tunables: [PolicyTunable] {
        switch self {
        case .lru, .lfu, .fifo, .ttl, .belady, .clock, .sieve, .lfuda, .arc, .unbounded: []
        case .wtinylfu: [
            PolicyTunable("window", 0.001...0.5, default: 0.01, "the LRU window's share of the capacity"),
            PolicyTunable("protected", 0.05...0.95, default: 0.8, "the protected segment's share of the main SLRU"),
        ]
        case .s3fifo: [
            PolicyTunable("small", 0.01...0.5, default: 0.1, "the small FIFO's share of the capacity"),
            PolicyTunable("ghost", 0...2, default: 0.9, "the ghost FIFO's size relative to the capacity"),
        ]
        case .twoQueue: [
            PolicyTunable("in", 0.01...0.5, default: 0.25, "the Ain FIFO's share of the capacity"),
            PolicyTunable("out", 0...2, default: 0.5, "the Aout ghost's size relative to the capacity"),
        ]
        }
    }
}

/// A policy as the user names it: `lru`, `ttl:max-age=300`, `lru:max-age=3600:refresh=1`.
///
/// Parameters follow the name, each `:key=value`. Every policy takes `max-age` (a lifetime in
/// the time unit of the requests; required for `ttl` unless a default is given) and `refresh`
/// (1: a hit restarts the lifetime, Kingfisher's rule; 0: lifetime from insertion, the default),
/// plus its own `PolicyName.tunables`, each checked against its range.
public struct PolicySpec: Sendable, Hashable, CustomStringConvertible {
    public var name: PolicyName
    public var maxAge: Int64?
    public var refreshOnAccess: Bool
    /// Values given for the policy's tunables, in the order given.
    public var settings: [Setting]

    /// One tunable's value.
    public struct Setting: Sendable, Hashable {
        public var name: String
        public var value: Double
    }

    public init(_ name: PolicyName, maxAge: Int64? = nil, refreshOnAccess: Bool = false, settings: [Setting] = []) {
        self.name = name
        self.maxAge = maxAge
        self.refreshOnAccess = refreshOnAccess
        self.settings = settings
    }

    /// The value of tunable `key`: as given, or its default.
    public func value(_ key: String) -> Double {
        if let given = settings.last(where: { $0.name == key }) { return given.value }
        guard let tunable = name.tunables.first(where: { $0.name == key }) else {
            preconditionFailure("PolicySpec: \(name.rawValue) has no parameter \(key)")
        }
        return tunable.defaultValue
    }

    /// Whether the policy decides nothing until it must make room or an entry's lifetime ends:
    /// a cache that never evicts and never expires an entry then holds every entry inserted and
    /// not removed, whatever its limit, so two such caches give the same hits. True of the
    /// one-order policies `lru`, `lfu`, `fifo` and `ttl` (no admission filter, no queue sized by
    /// the capacity, nothing kept of what left). O(1).
    public var decidesOnlyToMakeRoom: Bool {
        settings.isEmpty && [.lru, .lfu, .fifo, .ttl].contains(name)
    }

    /// The policy with its lifetime taken off: the one that evicts in the same order while no
    /// entry expires (`ttl` → `fifo`, `ttl:refresh=1` → `lru`, `lru:max-age=60` → `lru`). O(1).
    public var withoutLifetime: PolicySpec {
        var spec = self
        if name == .ttl { spec.name = refreshOnAccess ? .lru : .fifo }
        spec.maxAge = nil
        spec.refreshOnAccess = false
        return spec
    }

    /// The spec as it would be typed (the `policy` column of outputs).
    public var description: String {
        var text = name.rawValue
        if let maxAge { text += ":max-age=\(maxAge)" }
        if refreshOnAccess { text += ":refresh=1" }
        for setting in settings { text += ":\(setting.name)=\(PolicySpec.format(setting.value))" }
        return text
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// Parses a spec; `source` names the option or file for the error.
    public static func parse(_ text: String, source: String) throws -> PolicySpec {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard let name = PolicyName(rawValue: parts[0].lowercased()) else {
            throw InputError(source: source, "unknown policy \(InputError.quote(parts[0])); expected one of \(PolicyName.validList)")
        }
        var spec = PolicySpec(name)
        let known = ["max-age", "refresh"] + name.tunables.map(\.name)
        for parameter in parts.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2 else {
                throw InputError(source: source, "policy parameter \(InputError.quote(parameter)): expected key=value")
            }
            let (key, raw) = (pair[0], pair[1])
            let label = "\(name.rawValue):\(key)"
            switch key {
            case "max-age":
                guard let value = Int64(raw), value >= 0 else {
                    throw InputError(source: source, "\(label): expected a non-negative integer, found \(InputError.quote(raw))")
                }
                spec.maxAge = value
            case "refresh":
                guard raw == "0" || raw == "1" else {
                    throw InputError(source: source, "\(label): expected 0 or 1, found \(InputError.quote(raw))")
                }
                spec.refreshOnAccess = raw == "1"
            default:
                guard let tunable = name.tunables.first(where: { $0.name == key }) else {
                    throw InputError(source: source, "\(name.rawValue): unknown parameter \(InputError.quote(key)); expected one of \(known.joined(separator: ", "))")
                }
                guard let value = Double(raw), tunable.range.contains(value) else {
                    throw InputError(source: source, "\(label): expected a value in \(format(tunable.range.lowerBound))...\(format(tunable.range.upperBound)) (\(tunable.meaning)), found \(InputError.quote(raw))")
                }
                spec.settings.append(Setting(name: key, value: value))
            }
        }
        return spec
    }

    /// Parses a comma-separated list of specs.
    public static func parseList(_ text: String, source: String) throws -> [PolicySpec] {
        let items = text.split(separator: ",", omittingEmptySubsequences: false)
        guard !items.contains(where: \.isEmpty) else {
            throw InputError(source: source, "expected a comma-separated list of policies (\(PolicyName.validList)), found \(InputError.quote(text))")
        }
        return try items.map { try parse(String($0), source: source) }
    }

    /// The expiry rule, with `defaultMaxAge` standing in for a missing `max-age` on `ttl`;
    /// `ageScale` converts the spec's unit to the requests' time unit (the simulator gives
    /// ages in seconds and times in nanoseconds: 10^9).
    public func expiry(defaultMaxAge: Int64?, ageScale: Int64 = 1) -> Expiry? {
        let age = maxAge ?? (name == .ttl ? defaultMaxAge : nil)
        return age.map { Expiry(maxAge: $0.multipliedReportingOverflow(by: ageScale).overflow ? .max : $0 * ageScale,
                                refreshOnAccess: refreshOnAccess) }
    }

    /// Builds the policy and hands it, with its concrete type, to `visitor`: generic code then
    /// runs specialised for each policy instead of through an existential.
    public func build<Visitor: PolicyVisitor>(limits: CacheLimits, defaultMaxAge: Int64? = nil, ageScale: Int64 = 1,
                                              source: String, _ visitor: Visitor) throws -> Visitor.Result {
        let expiry = self.expiry(defaultMaxAge: defaultMaxAge, ageScale: ageScale)
        switch name {
        case .lru: return visitor.visit(QueuePolicy.lru(limits: limits, expiry: expiry))
        case .fifo: return visitor.visit(QueuePolicy.fifo(limits: limits, expiry: expiry))
        case .lfu: return visitor.visit(LFUPolicy(limits: limits, expiry: expiry))
        case .belady: return visitor.visit(BeladyPolicy(limits: limits, expiry: expiry))
        case .clock: return visitor.visit(ClockPolicy(limits: limits, expiry: expiry))
        case .sieve: return visitor.visit(SievePolicy(limits: limits, expiry: expiry))
        case .lfuda: return visitor.visit(LFUDAPolicy(limits: limits, expiry: expiry))
        case .wtinylfu:
            return visitor.visit(WTinyLFUPolicy(limits: limits, expiry: expiry, window: value("window"),
                                                protected: value("protected")))
        case .s3fifo:
            return visitor.visit(S3FIFOPolicy(limits: limits, expiry: expiry,
                                              smallFraction: value("small"), ghostFraction: value("ghost")))
        case .twoQueue:
            return visitor.visit(TwoQueuePolicy(limits: limits, expiry: expiry,
                                                inFraction: value("in"), outFraction: value("out")))
        case .arc: return visitor.visit(ARCPolicy(limits: limits, expiry: expiry))
        case .unbounded: return visitor.visit(QueuePolicy.lru(limits: .unbounded, expiry: expiry))
        case .ttl:
            guard let expiry else {
                throw InputError(source: source, "ttl needs a lifetime: give ttl:max-age=N (or --ttl N)")
            }
            return visitor.visit(QueuePolicy.ttl(limits: limits, expiry: expiry))
        }
    }

    /// Builds the policy behind an existential, for code that is not on a hot path.
    public func makePolicy(limits: CacheLimits, defaultMaxAge: Int64? = nil, ageScale: Int64 = 1,
                           source: String) throws -> any EvictionPolicy {
        try build(limits: limits, defaultMaxAge: defaultMaxAge, ageScale: ageScale, source: source, ExistentialPolicy())
    }
}

/// Receives a freshly built policy with its concrete type (see `PolicySpec.build`).
public protocol PolicyVisitor {
    associatedtype Result
    func visit<Policy: EvictionPolicy>(_ policy: Policy) -> Result
}

/// The visitor that boxes a policy in an existential.
struct ExistentialPolicy: PolicyVisitor {
    func visit<Policy: EvictionPolicy>(_ policy: Policy) -> any EvictionPolicy { policy }
}
