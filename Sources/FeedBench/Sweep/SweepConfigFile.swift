import Foundation
import Yams

/// A sweep config file: a JSON or YAML mapping whose keys are the grid's axes, each a list —
/// `profiles`, `networks`, `image_widths`, `policies`, `presets`, `memory_limits`,
/// `disk_limits`, `windows`, `behaviors`, `traces`, `strategies`, `seeds` — plus the settings every run shares:
/// `launches` (a number), `gap` and `duration` (durations such as `8h`, `30s`). An absent key
/// takes the default (`SweepGrid`). Anything else is refused with the file, line and key.
///
///     {"profiles": ["low-end", "mid"], "policies": ["lru", "lfu"], "windows": [0, 10, 20],
///      "behaviors": ["browser", "skimmer"], "seeds": [1, 2, 3]}
public enum SweepConfigFile {
    /// The list keys, in the order `bench sweep --help` lists them.
    public static let axisKeys = SweepGrid().axes.map(\.key)
    /// The single-value keys.
    public static let settingKeys = ["launches", "gap", "duration"]

    /// Reads the config at `path` (JSON is read as the YAML it is a subset of).
    public static func read(path: String) throws -> SweepGrid {
        guard let data = try ReadableFile.contents(at: path) else {
            throw InputError(source: path, "cannot read the sweep config")
        }
        return try parse(text(data, source: path), source: path)
    }

    /// `text` (without a byte-order mark) as a YAML node tree, `nil` when empty; a syntax error
    /// refused in one line from `source`. Sweep configs and population files read this way.
    static func compose(_ text: String, source: String) throws -> Node? {
        do {
            return try Yams.compose(yaml: text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text)
        } catch let error as YamlError {
            throw refusal(error, source: source)
        }
    }

    /// The UTF-8 text of a JSON or YAML file read as `data`, refused from `source` when it is not.
    static func text(_ data: Data, source: String) throws -> String {
        guard let text = String(data: data, encoding: .utf8), !text.utf8.contains(0) else {
            throw InputError(source: source, line: 1, "expected a JSON or YAML text file, found bytes that are not UTF-8 text")
        }
        return text
    }

    /// Parses config text; refusals name `source`.
    public static func parse(_ text: String, source: String) throws -> SweepGrid {
        let root = try compose(text, source: source)
        guard let root else {
            throw InputError(source: source, line: 1, "expected a mapping of sweep axes (e.g. {\"profiles\": [\"low-end\"]}), found an empty file")
        }
        guard let mapping = root.mapping else {
            throw InputError(source: source, line: root.mark?.line, "expected a mapping of sweep axes (e.g. {\"profiles\": [\"low-end\"]}), found \(describe(root))")
        }
        var grid = SweepGrid()
        var seen: [String: Int] = [:]
        for (keyNode, value) in mapping {
            let line = keyNode.mark?.line
            guard let key = keyNode.scalar?.string else {
                throw InputError(source: source, line: line, "expected a key name, found \(describe(keyNode))")
            }
            if let earlier = seen[key] {
                throw InputError(source: source, line: line, field: key, "expected each key once, found it again (first on line \(earlier))")
            }
            seen[key] = line ?? 0
            if settingKeys.contains(key) {
                try setting(key, value, source: source, into: &grid)
            } else if axisKeys.contains(key) {
                let values = try list(key, value, source: source)
                switch key {
                case "profiles": grid.profiles = values
                case "networks": grid.networks = values
                case "image_widths": grid.imageWidths = values
                case "policies": grid.policies = values
                case "presets": grid.presets = values
                case "memory_limits": grid.memoryLimits = values
                case "disk_limits": grid.diskLimits = values
                case "windows": grid.windows = values
                case "behaviors": grid.behaviors = values
                case "traces": grid.traces = values
                case "strategies": grid.strategies = values
                default: grid.seeds = values
                }
            } else {
                throw InputError(source: source, line: line, field: key,
                                 "unknown key; expected one of \((axisKeys + settingKeys).joined(separator: ", "))")
            }
        }
        return grid
    }

    /// An axis: a non-empty list of numbers or strings.
    static func list(_ key: String, _ node: Node, source: String) throws -> [SweepGrid.Value] {
        guard let sequence = node.sequence else {
            throw InputError(source: source, line: node.mark?.line, field: key, "expected a list (e.g. [\"a\", \"b\"]), found \(describe(node))")
        }
        guard !sequence.isEmpty else {
            throw InputError(source: source, line: node.mark?.line, field: key, "expected at least one value; leave the key out for the default")
        }
        return try sequence.map { item in
            guard let scalar = item.scalar else {
                throw InputError(source: source, line: item.mark?.line, field: key, "expected a number or a string, found \(describe(item))")
            }
            return SweepGrid.Value(scalar.string, source: source, line: item.mark?.line, field: key)
        }
    }

    /// `launches`, `gap` or `duration`.
    static func setting(_ key: String, _ node: Node, source: String, into grid: inout SweepGrid) throws {
        let line = node.mark?.line
        guard let text = node.scalar?.string else {
            throw InputError(source: source, line: line, field: key, "expected one value, found \(describe(node))")
        }
        let value = SweepGrid.Value(text, source: source, line: line, field: key)
        switch key {
        case "launches":
            guard let launches = Int(text), (1...1_000).contains(launches) else {
                throw value.error("expected a whole number of launches from 1 to 1000, found \(InputError.quote(text))")
            }
            grid.session.launches = launches
        case "gap":
            grid.session.gap = try value.parse { try Quantities.duration($0, source: $1) }
        default:
            grid.session.duration = try value.parse { try Quantities.sessionDuration($0, source: $1) }
        }
    }

    /// What a node is, for refusals.
    static func describe(_ node: Node) -> String {
        switch node {
        case let .scalar(scalar): "the value \(InputError.quote(scalar.string))"
        case .mapping: "a mapping"
        case .sequence: "a list"
        case .alias: "an alias"
        }
    }

    /// A syntax error as one line at the place libyaml gives.
    static func refusal(_ error: YamlError, source: String) -> InputError {
        switch error {
        case let .scanner(_, problem, mark, _), let .parser(_, problem, mark, _), let .composer(_, problem, mark, _):
            return InputError(source: source, line: mark.line, "expected JSON or YAML, found a syntax error: \(problem)")
        case let .reader(problem, _, _, _):
            return InputError(source: source, "expected JSON or YAML text, found \(problem)")
        case let .duplicatedKeysInMapping(duplicates, _):
            return InputError(source: source, field: duplicates.first, "expected each key once, found it again")
        default:
            return InputError(source: source, "expected JSON or YAML, found \(error)")
        }
    }
}
