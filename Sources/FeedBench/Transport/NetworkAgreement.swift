/// How far the network model is held to ns-3, the field's reference packet simulator, on a
/// network: `.ci/ns3-check` replays the model's reader and browser sessions on the presets (and
/// skimmer sessions on the recorded ones) in ns-3 and fails CI when a checked network leaves the
/// bands, on seeds no rule was chosen on too (docs/ns3.md). A network is
/// checked download by download (each download's ns-3 / model ratio: median within [0.9, 1.1],
/// p90 within [0.8, 1.25]), only as distributions (ns-3's median and p90 download time over the
/// model's, the same bands), or only in its stalls (a recorded preset's: the stalls ns-3's
/// arrivals give within 15 % of the model's), per HTTP version and session kind. The main job prints this for its network, so that an answer on a network the model is
/// not held on reads as the model's alone. `NetworkAgreementTests` keeps these lists equal to
/// the check's.
public enum NetworkAgreement {
    /// The check's session kinds: a reader with a window of 5, a browser prefetching 20 ahead,
    /// and (on the recorded presets only) a skimmer with a window of 5.
    public enum Session: String, Sendable, CaseIterable {
        case reader, browser, skimmer

        /// Whether the check replays this kind on the preset `name`. O(presets).
        func isReplayed(on name: String) -> Bool {
            self != .skimmer || NetworkProfile.recordedNames.contains(name)
        }
    }

    /// The networks one HTTP version's session kind is checked on.
    struct Checked: Sendable {
        let http: HTTPVersion
        let session: Session
        /// Checked download by download.
        let perDownload: [String]
        /// Checked as distributions.
        let distributions: [String]
        /// Checked in their stalls (recorded presets).
        var stalls: [String] = []
    }

    /// What `.ci/ns3-check` checks: NLC's presets as its `checked_networks`,
    /// `dist_checked_networks`, `h2_checked_networks` and `h2_dist_checked_networks` list them,
    /// then the recorded ones as its `recorded_…checked_networks` do.
    static let checked: [Checked] = [
        Checked(http: .http11, session: .reader, perDownload: ["wifi", "lte"],
                distributions: ["3g", "dsl", "lte", "wifi", "tmobile-lte", "tmobile-umts-driving", "verizon-lte"],
                stalls: ["att-lte-driving", "tmobile-lte", "tmobile-umts-driving", "verizon-lte"]),
        Checked(http: .http11, session: .browser, perDownload: ["wifi"], distributions: ["dsl", "wifi", "tmobile-lte", "verizon-lte"],
                stalls: ["tmobile-lte"]),
        Checked(http: .http11, session: .skimmer, perDownload: [], distributions: [],
                stalls: ["att-lte-driving", "tmobile-umts-driving", "verizon-lte"]),
        Checked(http: .http2, session: .reader, perDownload: ["3g", "dsl", "lte", "wifi", "tmobile-lte", "verizon-lte"],
                distributions: ["3g", "dsl", "edge", "lte", "wifi", "verizon-lte"],
                stalls: ["att-lte-driving", "tmobile-lte", "tmobile-umts-driving", "verizon-lte"]),
        Checked(http: .http2, session: .browser, perDownload: ["wifi", "tmobile-lte"], distributions: ["3g", "dsl", "wifi", "tmobile-lte", "verizon-lte"],
                stalls: ["tmobile-lte", "tmobile-umts-driving"]),
        Checked(http: .http2, session: .skimmer, perDownload: [], distributions: [],
                stalls: ["att-lte-driving", "tmobile-umts-driving", "verizon-lte"]),
    ]

    /// How closely ns-3 holds one session kind on a network.
    enum Level {
        case notHeld, stalls, distributions, perDownload
    }

    /// The closest `session` is held on the preset `name` over `http`. O(networks checked).
    static func level(_ session: Session, network name: String, http: HTTPVersion) -> Level {
        guard let entry = checked.first(where: { $0.http == http && $0.session == session }) else { return .notHeld }
        if entry.perDownload.contains(name) { return .perDownload }
        if entry.distributions.contains(name) { return .distributions }
        return entry.stalls.contains(name) ? .stalls : .notHeld
    }

    /// One line, indented by two, on how far `network` is held to ns-3. Only a preset as it is
    /// (its HTTP version aside) is: a network of one's own, or a preset with a field changed,
    /// is the model's alone. O(networks checked).
    public static func summary(of network: NetworkProfile) -> String {
        summary(of: network, Standing(network))
    }

    /// The lines after an answer on how far ns-3 holds it: `summary(of:)` for each network, then,
    /// when ns-3 holds any session on any of them, how the check ran the model (`checkedAs`) and
    /// one naming the answer's workloads (by their `trace` column values) that the check never
    /// replays — the main job's skimmer, any recorded trace — whose runs rest on the model
    /// alone. O(networks × networks checked + workloads²).
    public static func lines(networks: [NetworkProfile], workloads: [ScrollWorkload]) -> [String] {
        let standings = networks.map(Standing.init)
        var summaries = zip(networks, standings).map { summary(of: $0, $1) }
        guard standings.contains(where: \.holdsAny) else { return summaries }
        summaries.append(checkedAs)
        var unchecked: [String] = []
        for workload in workloads {
            if case let .behavior(behavior, _) = workload, let session = Session(rawValue: behavior.rawValue),
               networks.contains(where: { session.isReplayed(on: $0.name) }) { continue }
            if !unchecked.contains(workload.name) { unchecked.append(workload.name) }
        }
        guard !unchecked.isEmpty else { return summaries }
        let tail = ": those runs are the model's alone" + reference
        let named = "  ns-3 replays no " + unchecked.joined(separator: " or ") + (unchecked.count == 1 ? " session" : " sessions") + tail
        if unchecked.count <= 2 && named.count <= 100 { return summaries + [named] }
        return summaries + ["  \(unchecked.count) workload\(unchecked.count == 1 ? " is" : "s are") not among ns-3's sessions" + tail]
    }

    /// `summary(of:)` with the network's standing already known. O(1).
    private static func summary(of network: NetworkProfile, _ standing: Standing) -> String {
        let head = "  network \(network.name) (\(network.http.label)): "
        switch standing {
        case .notPreset:
            return head + "not a preset: ns-3 holds only the presets" + reference
        case .changedPreset:
            return head + "a changed preset: ns-3 holds only the presets" + reference
        case let .preset(levels):
            func sessions(at level: Level) -> String? {
                let names = levels.filter { $0.1 == level }.map(\.0.rawValue)
                return names.isEmpty ? nil : names.count < 3 ? names.joined(separator: " and ")
                    : names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
            }
            let held = [sessions(at: .perDownload).map { "\($0) downloads" }, sessions(at: .distributions).map { "\($0) distributions" },
                        sessions(at: .stalls).map { "\($0) stalls" }]
                .compactMap { $0 }
            guard !held.isEmpty else { return head + "not held by ns-3: the answer is the model's alone" + reference }
            let unheld = sessions(at: .notHeld)
            let line = head + "ns-3 holds " + held.joined(separator: " and ") + (unheld.map { ", not \($0) sessions" } ?? "") + reference
            guard line.count > 100 else { return line }
            // A recorded preset's three kinds, in at most 100 columns.
            return head + "ns-3: " + held.joined(separator: ", ") + (unheld.map { "; not \($0)" } ?? "")
        }
    }

    private static let reference = " (docs/network.md)"

    /// How the check runs the model: the presets' Linux behaviours that ns-3 3.44's TCP has no
    /// counterpart of (`slowStartAfterIdle`, `cubicPausesWhenIdle`,
    /// `recoveryTimeoutKeepsThreshold`) are off in its sessions, so what ns-3 holds is the model
    /// without them; with them on, the answer's runs go beyond what was checked.
    static let checkedAs = "  held with Linux's idle restart, idle clock and timeout threshold off, which ns-3 lacks"

    /// What ns-3 can hold of a network: only a preset as it is, its HTTP version aside.
    private enum Standing {
        case notPreset, changedPreset
        /// A preset: how closely each session kind is held on it.
        case preset([(Session, Level)])

        /// O(networks checked).
        init(_ network: NetworkProfile) {
            guard var preset = try? NetworkProfile.named(network.name) else {
                self = .notPreset
                return
            }
            preset.http = network.http
            guard preset == network else {
                self = .changedPreset
                return
            }
            self = .preset(Session.allCases.filter { $0.isReplayed(on: network.name) }
                .map { ($0, NetworkAgreement.level($0, network: network.name, http: network.http)) })
        }

        /// Whether ns-3 holds any session kind on it, however closely.
        var holdsAny: Bool {
            guard case let .preset(levels) = self else { return false }
            return levels.contains { $0.1 != .notHeld }
        }
    }
}
