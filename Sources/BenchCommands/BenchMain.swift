import ArgumentParser
import FeedBench

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Prints `bench: <line>` on stderr, in one line whatever values it quotes (control characters
/// escaped), and exits with status 2.
package func refuse(_ line: String) -> Never {
    var stderr = StandardError()
    print("bench: \(InputError.escapingControls(line))", to: &stderr)
    exit(2)
}

/// Help and --version as ArgumentParser prints them (exit 0); any other error refused with the
/// first line of its message.
func report(_ error: Error) -> Never {
    if Bench.exitCode(for: error) == .success { Bench.exit(withError: error) }
    refuse(Bench.message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)")
}

/// Runs `bench`, mapping every refused input to one line on stderr and exit status 2: the body
/// of both executables, `bench` and `bench-http` (which installs its `HTTPPart` first).
package func runBench() -> Never {
    // With no arguments at all, show the usage rather than start the default command.
    if CommandLine.arguments.count == 1 { Bench.exit(withError: CleanExit.helpRequest(Bench.self)) }
    var command: ParsableCommand
    do {
        command = try Bench.parseAsRoot()
    } catch {
        // A misspelt option first, whatever else ArgumentParser found wrong.
        if Bench.exitCode(for: error) != .success,
           let unknown = UnknownOption.refusal(Array(CommandLine.arguments.dropFirst()), root: Bench.self) {
            refuse(unknown.description)
        }
        report(error)
    }
    do {
        try command.run()
        exit(0)
    } catch let error as InputError {
        refuse(error.description)
    } catch let code as ExitCode {
        // A command's own verdict (bench compare's 1 on a regression), already reported.
        exit(code.rawValue)
    } catch {
        report(error)
    }
}
