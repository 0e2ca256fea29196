import Foundation

/// The networks a team's users are on, each with its share of their time and the path class an
/// app sees it as: what the main job answers for when no single network is asked for. Built in:
/// `phones` and `tablets` (docs/populations.md cites their shares); `--networks FILE` reads one
/// (`PopulationFile`).
public struct NetworkPopulation: Sendable, Equatable {
    /// One network of the population.
    public struct Member: Sendable, Equatable {
        public var network: NetworkProfile
        /// Its share of the population, in millionths; the members' sum to exactly 1,000,000, so a
        /// weighted sum of counts is an exact integer whatever the order.
        public var weight: Int64
        public var path: PathClass
        /// How a sweep names it: the preset's name, or the network file's path.
        public var reference: String

        /// The share as a fraction of 1.
        public var share: Double { Double(weight) / Double(NetworkPopulation.wholeWeight) }
    }

    public let name: String
    /// In the order given; names distinct.
    public let members: [Member]

    /// The weights' sum.
    public static let wholeWeight: Int64 = 1_000_000

    /// A population from positive `shares` (any scale), normalized to millionths by the largest
    /// remainder (ties to the earlier member). Precondition: at least one member, every share
    /// positive and finite, names distinct (the file reader refuses the rest first).
    public init(name: String, members: [(network: NetworkProfile, share: Double, path: PathClass, reference: String)]) {
        precondition(!members.isEmpty && members.allSatisfy { $0.share > 0 && $0.share.isFinite },
                     "NetworkPopulation: at least one member, each with a positive share")
        precondition(Set(members.map(\.network.name)).count == members.count, "NetworkPopulation: distinct networks")
        self.name = name
        let weights = Self.normalized(members.map(\.share))
        self.members = zip(members, weights).map { Member(network: $0.network, weight: $1, path: $0.path, reference: $0.reference) }
    }

    /// `shares` scaled to integers summing to `wholeWeight`: each its floor, then one more to the
    /// largest remainders (the earlier first among equal ones). O(n log n).
    static func normalized(_ shares: [Double]) -> [Int64] {
        let total = shares.reduce(0, +)
        let exact = shares.map { $0 / total * Double(wholeWeight) }
        var weights = exact.map { Int64($0.rounded(.down)) }
        let missing = Int(wholeWeight - weights.reduce(0, +))
        let order = exact.indices.sorted { a, b in
            let (ra, rb) = (exact[a] - exact[a].rounded(.down), exact[b] - exact[b].rounded(.down))
            return ra != rb ? ra > rb : a < b
        }
        for index in order.prefix(max(0, missing)) { weights[index] += 1 }
        return weights
    }

    /// The member whose network is called `name`.
    public func member(named name: String) -> Member? { members.first { $0.network.name == name } }

    /// The path classes present, in `PathClass` order.
    public var paths: [PathClass] { PathClass.allCases.filter { path in members.contains { $0.path == path } } }

    /// The total weight of `path`'s members, in millionths.
    public func weight(of path: PathClass) -> Int64 { members.filter { $0.path == path }.reduce(0) { $0 + $1.weight } }

    /// Weights by network name, for the ranking.
    public var weights: [String: Int64] { Dictionary(uniqueKeysWithValues: members.map { ($0.network.name, $0.weight) }) }

    /// The members of `path`, their weights renormalized to the whole: the population a setting
    /// for that class alone is ranked on.
    public func subpopulation(_ path: PathClass) -> NetworkPopulation {
        NetworkPopulation(name: "\(name) on \(path.rawValue)",
                          members: members.filter { $0.path == path }.map { ($0.network, Double($0.weight), $0.path, $0.reference) })
    }
}

extension NetworkPopulation {
    /// The built-in populations' names.
    public static let builtInNames = ["phones", "tablets"]

    /// Share of a phone's time on Wi-Fi: 56.2 %, U.S. smartphone users in January 2020
    /// (Opensignal, reported by MobileSyrup, 2020-04-01); 41–54 % by carrier in 2017–18.
    static let phoneWifiShare = 0.562
    /// Share of an iPad's sessions on Wi-Fi: 94 % (Localytics, 2012: 6 % of iPad sessions over
    /// cellular, most iPads having no cellular radio).
    static let tabletWifiShare = 0.94
    /// How cellular time splits over the recorded links, from crowd-measured throughput: 6.3 % of
    /// it off LTE (Opensignal USA, July 2018: 93.7 % of time on LTE) → the UMTS recording; the
    /// rest of the 16.4 % of Speedtest results under 5 Mbit/s (Ookla, H1 2024: 80.8–86.6 % at or
    /// above it by carrier, mean 83.6 %) → AT&T's driving recording, whose median is under 5;
    /// the 83.6 % at or above 5 Mbit/s → the two LTE recordings, evenly.
    static let cellularSplit: [(network: String, share: Double)] = [
        ("verizon-lte", 0.418), ("tmobile-lte", 0.418), ("att-lte-driving", 0.101), ("tmobile-umts-driving", 0.063),
    ]

    /// The built-in population `name` (`phones`, `tablets`), `nil` when none is: Wi-Fi (NLC's
    /// preset) for the Wi-Fi share, the recorded cellular presets for the rest. `source` names
    /// where the name came from, for a recording that cannot be read.
    public static func builtIn(named name: String, source: String) throws -> NetworkPopulation? {
        let wifiShare: Double
        switch name {
        case "phones": wifiShare = phoneWifiShare
        case "tablets": wifiShare = tabletWifiShare
        default: return nil
        }
        var members: [(network: NetworkProfile, share: Double, path: PathClass, reference: String)] = [(NetworkProfile.wifi, wifiShare, .wifi, "wifi")]
        for (network, share) in cellularSplit {
            members.append((try NetworkProfile.named(network, source: source), (1 - wifiShare) * share, .cellular, network))
        }
        return NetworkPopulation(name: name, members: members)
    }

    /// The population a results file's rows of `profile` were ranked over: its built-in
    /// population when the rows' networks are exactly that population's (the main job's), else
    /// `nil` (one network, or networks summed as they are). O(networks).
    public static func matching(profile: DeviceProfile, networks: [String]) throws -> NetworkPopulation? {
        guard let name = defaultName(for: profile), let population = try builtIn(named: name, source: profile.name) else { return nil }
        return Set(networks) == Set(population.members.map(\.network.name)) ? population : nil
    }

    /// The population a built-in profile answers for by default: `tablets` for the tablet,
    /// `phones` for the phones; `nil` for a profile file (which names one network).
    public static func defaultName(for profile: DeviceProfile) -> String? {
        guard DeviceProfile.builtIn.contains(where: { $0.name == profile.name }) else { return nil }
        return profile.name == "tablet" ? "tablets" : "phones"
    }
}
