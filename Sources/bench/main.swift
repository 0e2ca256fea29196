import ArgumentParser
import FeedBench

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `bench`, mapping every refused input to one line on stderr and exit status 2.
func runBench() -> Never {
    func refuse(_ line: String) -> Never {
        var stderr = StandardError()
        print("bench: \(line)", to: &stderr)
        exit(2)
    }
    // With no arguments at all, show the usage rather than start the default command.
    if CommandLine.arguments.count == 1 { Bench.exit(withError: CleanExit.helpRequest(Bench.self)) }
    do {
        var command = try Bench.parseAsRoot()
        try command.run()
        exit(0)
    } catch let error as InputError {
        refuse(error.description)
    } catch let code as ExitCode {
        // A command's own verdict (bench compare's 1 on a regression), already reported.
        exit(code.rawValue)
    } catch {
        if Bench.exitCode(for: error) == .success { Bench.exit(withError: error) }
        let message = Bench.message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
        refuse(message)
    }
}

runBench()
