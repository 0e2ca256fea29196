import ArgumentParser
import FeedBench

/// Finds an option the command line gives that the command it selects does not have, and the
/// nearest one it has. ArgumentParser reports a missing required option before an unknown one
/// (`bench --profil low-end` would say that --profile is missing), so `bench` looks for a
/// misspelt option first whenever parsing fails.
enum UnknownOption {
    /// The refusal of the first unknown `--option` in `arguments` (without the executable), with
    /// a "did you mean" naming the known option it begins, or else the one fewest edits (at most
    /// 3) away; `nil` when every option is known.
    static func refusal(_ arguments: [String], root: ParsableCommand.Type) -> InputError? {
        var (command, path, rest) = (root, [commandName(root)], arguments[...])
        while true {
            let subcommands = command.configuration.subcommands
            if let name = rest.first, let next = subcommands.first(where: { commandName($0) == name }) {
                command = next
                rest = rest.dropFirst()
            } else if let next = command.configuration.defaultSubcommand {
                command = next
            } else {
                break
            }
            path.append(commandName(command))
        }
        let known = options(of: command) + ["--version"]
        for argument in rest.prefix(while: { $0 != "--" }) where argument.hasPrefix("--") {
            let name = String(argument.prefix { $0 != "=" })
            guard !known.contains(name) else { continue }
            let nearest = known.map { (option: $0, distance: $0.hasPrefix(name) ? 1 : editDistance($0, name)) }
                .filter { $0.distance <= 3 }.min { $0.distance < $1.distance }
            return InputError(source: name, "expected an option of \(path.joined(separator: " ")), found an unknown one"
                              + (nearest.map { "; did you mean \($0.option)?" } ?? " (see \(path.joined(separator: " ")) --help)"))
        }
        return nil
    }

    static func commandName(_ command: ParsableCommand.Type) -> String {
        command.configuration.commandName ?? String(describing: command).lowercased()
    }

    /// The long options `command` takes, read from the synopsis column of its help's OPTIONS
    /// section (`  --profile <name|file>   A built-in …`), hidden ones included.
    static func options(of command: ParsableCommand.Type) -> [String] {
        let lines = command.helpMessage(includeHidden: true, columns: 10_000).split(separator: "\n")
        return lines.drop { $0 != "OPTIONS:" }.flatMap { line -> [String] in
            guard line.hasPrefix("  -") else { return [] }
            let synopsis = String(line.dropFirst(2)).components(separatedBy: "  ")[0]
            return synopsis.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "/" })
                .filter { $0.hasPrefix("--") }.map(String.init)
        }
    }

    /// Levenshtein distance between `a` and `b`. O(|a| × |b|).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let (a, b) = (Array(a), Array(b))
        var previous = Array(0...b.count)
        for i in a.indices {
            var current = [i + 1]
            for j in b.indices {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (a[i] == b[j] ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
