import Foundation
import Yams

/// A population of networks as a file, JSON (or the YAML it is a subset of):
///
///     {"name": "our-users", "networks": [
///       {"network": "wifi", "weight": 6},
///       {"network": "verizon-lte", "weight": 3},
///       {"network": "my-train.json", "weight": 1, "path": "cellular"}]}
///
/// `network` is a preset or a network file (relative to this file); `weight` a positive number
/// (the weights are normalized); `path` the class `NWPathMonitor` reports for it (`wifi`,
/// `cellular`, `constrained`), optional for a preset (Wi-Fi and DSL are `wifi`, the rest
/// `cellular`), required for a file. Refused, in one line naming the file, line and field: no
/// networks, a weight that is not a positive number, a network that is neither a preset nor a
/// readable network file, the same network twice, a population inside a population, an unknown
/// key, a key twice.
public enum PopulationFile {
    /// The keys of the file and of each member.
    public static let keys = ["name", "networks"], memberKeys = ["network", "weight", "path"]

    /// The built-in population, or the file at `value`; `option` names where it came from.
    public static func resolve(_ value: String, option: String) throws -> NetworkPopulation {
        if let population = try NetworkPopulation.builtIn(named: value, source: option) { return population }
        guard let data = try ReadableFile.contents(at: value) else {
            throw InputError(source: option, "expected a population (\(NetworkPopulation.builtInNames.joined(separator: ", "))) or a readable population file, found \(InputError.quote(value))")
        }
        return try parse(SweepConfigFile.text(data, source: value), source: value)
    }

    /// Parses a population file's text; `source` is its path (member files are relative to it).
    public static func parse(_ text: String, source: String) throws -> NetworkPopulation {
        let root = try SweepConfigFile.compose(text, source: source)
        let example = "(e.g. {\"name\": \"ours\", \"networks\": [{\"network\": \"wifi\", \"weight\": 1}]})"
        guard let root, let mapping = root.mapping else {
            throw InputError(source: source, line: root?.mark?.line ?? 1, "expected a population as a mapping \(example)")
        }
        let fields = try distinctKeys(mapping, allowed: keys, source: source)
        guard let name = fields["name"]?.value.scalar?.string, !name.isEmpty else {
            throw InputError(source: source, line: fields["name"]?.line ?? root.mark?.line, field: "name", "expected the population's name as a string")
        }
        guard let list = fields["networks"], let sequence = list.value.sequence else {
            throw InputError(source: source, line: fields["networks"]?.line ?? root.mark?.line, field: "networks", "expected a list of networks \(example)")
        }
        guard !sequence.isEmpty else {
            throw InputError(source: source, line: list.line, field: "networks", "expected at least one network, found an empty list")
        }
        let folder = URL(fileURLWithPath: source).deletingLastPathComponent().path
        var members: [(network: NetworkProfile, share: Double, path: PathClass, reference: String)] = []
        var seen: [String: Int] = [:]
        for item in sequence {
            let line = item.mark?.line
            guard let entry = item.mapping else {
                throw InputError(source: source, line: line, field: "networks", "expected {\"network\": NAME|FILE, \"weight\": W}, found \(SweepConfigFile.describe(item))")
            }
            let fields = try distinctKeys(entry, allowed: memberKeys, source: source)
            guard let networkField = fields["network"], let value = networkField.value.scalar?.string else {
                throw InputError(source: source, line: fields["network"]?.line ?? line, field: "network", "expected a network preset or a network file's path")
            }
            let network: NetworkProfile
            let isPreset = NetworkProfile.presetNames.contains(value)
            let path = isPreset ? value : value.hasPrefix("/") ? value : folder + "/" + value
            if isPreset {
                network = try NetworkProfile.named(value, source: "\(source):\(networkField.line ?? 1)")
            } else {
                if isPopulation(path: path) {
                    throw InputError(source: source, line: networkField.line, field: "network", "expected a network, found the population file \(InputError.quote(value)): populations do not nest")
                }
                do {
                    network = try NetworkFile.resolve(path, option: "\(source):\(networkField.line ?? 1)")
                } catch let refusal as InputError where refusal.source == "\(source):\(networkField.line ?? 1)" {
                    throw InputError(source: source, line: networkField.line, field: "network", "expected a network preset (\(NetworkProfile.presetNames.joined(separator: ", "))) or a readable network file, found \(InputError.quote(value))")
                }
            }
            if let earlier = seen[network.name] {
                throw InputError(source: source, line: networkField.line, field: "network", "expected each network once, found \(InputError.quote(network.name)) again (first on line \(earlier))")
            }
            seen[network.name] = networkField.line ?? 0
            guard let weightField = fields["weight"], let weightText = weightField.value.scalar?.string,
                  let weight = Double(weightText), weight.isFinite, weight > 0, weight <= 1e12 else {
                throw InputError(source: source, line: fields["weight"]?.line ?? line, field: "weight",
                                 "expected a positive number (weights are normalized), found \(fields["weight"].map { SweepConfigFile.describe($0.value) } ?? "none")")
            }
            let pathClass: PathClass
            if let pathField = fields["path"] {
                guard let text = pathField.value.scalar?.string, let parsed = PathClass(rawValue: text) else {
                    throw InputError(source: source, line: pathField.line, field: "path", "expected one of \(PathClass.allCases.map(\.rawValue).joined(separator: ", ")), found \(SweepConfigFile.describe(pathField.value))")
                }
                pathClass = parsed
            } else if isPreset, let preset = PathClass.of(preset: value) {
                pathClass = preset
            } else {
                throw InputError(source: source, line: networkField.line, field: "path", "expected the path class of network file \(InputError.quote(value)) (\(PathClass.allCases.map(\.rawValue).joined(separator: ", "))): only a preset's is known")
            }
            members.append((network, weight, pathClass, path))
        }
        return NetworkPopulation(name: name, members: members)
    }

    /// Whether the file at `path` reads as a population (a mapping with `networks`), not a network.
    static func isPopulation(path: String) -> Bool {
        guard let data = try? ReadableFile.contents(at: path), let text = String(data: data, encoding: .utf8), let root = try? Yams.compose(yaml: text),
              let mapping = root.mapping else { return false }
        return mapping.contains { $0.key.scalar?.string == "networks" }
    }

    /// A mapping's values by key, each with its line; an unknown key or one given twice refused.
    static func distinctKeys(_ mapping: Node.Mapping, allowed: [String], source: String) throws -> [String: (value: Node, line: Int?)] {
        var fields: [String: (value: Node, line: Int?)] = [:]
        for (keyNode, value) in mapping {
            let line = keyNode.mark?.line
            guard let key = keyNode.scalar?.string, allowed.contains(key) else {
                throw InputError(source: source, line: line, field: keyNode.scalar?.string, "unknown key; expected one of \(allowed.joined(separator: ", "))")
            }
            if let earlier = fields[key] {
                throw InputError(source: source, line: line, field: key, "expected each key once, found it again (first on line \(earlier.line ?? 0))")
            }
            fields[key] = (value, line)
        }
        return fields
    }
}
