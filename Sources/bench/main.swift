import BenchCommands
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `bench`: FeedBench's commands over the library. A command that needs the HTTP part (`serve`,
/// `agree`, `run --live`) is handed over to the `bench-http` beside this executable, which runs
/// the same commands with the part installed (`HTTPPart`); without one, the command says in one
/// line how to build it.
let arguments = Array(CommandLine.arguments.dropFirst())
if HTTPPart.isNeeded(by: arguments),
   let executable = Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("bench-http").path,
   FileManager.default.isExecutableFile(atPath: executable) {
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    execv(executable, argv)
    refuse("cannot start \(executable): \(String(cString: strerror(errno)))")
}
runBench()
