#if canImport(Glibc)
import Glibc
#endif

/// libFuzzer's driver (in the fuzzer runtime `-sanitize=fuzzer` links), started from this
/// executable's `main` — SwiftPM makes `main.swift` the entry point, so libFuzzer's own `main`
/// is not the one that runs.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
// A closure, not `fuzzOneInput` itself: a debug build (one object file per source file) would
// emit the `@_cdecl` symbol here a second time.
exit(LLVMFuzzerRunDriver(&argc, &argv, { data, size in fuzzOneInput(data, size) }))
