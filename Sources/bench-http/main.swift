import BenchCommands

/// `bench-http`: `bench` with its HTTP part installed — the commands `bench` hands over
/// (`serve`, `agree`, `run --live`), and every other, run the same way. Built without the
/// package's HTTP trait it has no part, and those commands say so in one line.
#if HTTP
HTTPPart.installed = .live
#else
HTTPPart.missing = "this bench was built without its HTTP server and client (swift build --disable-default-traits): build it with the default traits"
#endif
runBench()
