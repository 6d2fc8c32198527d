#if SIGNET_LIBFUZZER
import Foundation

/// libFuzzer's driver (compiler-rt `FuzzerDriver.cpp`): parses libFuzzer's flags from argv and
/// calls `callback` once per input. SwiftPM links an executable's Swift entry point as `main`, so
/// libFuzzer's own `main` is not linked in; `SignetFuzz.main` calls the driver instead.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

/// The target libFuzzer drives, from `SIGNET_FUZZ_TARGET` (read once, before the driver starts).
nonisolated(unsafe) var selectedTarget = FuzzTarget.json

/// Built only by `make fuzz` (`-DSIGNET_LIBFUZZER`, `-sanitize=fuzzer,address`):
/// `SIGNET_FUZZ_TARGET=json SignetFuzz [libFuzzer flags] [corpus folders]`.
@main
struct LibFuzzerEntry {
    static func main() {
        let name = ProcessInfo.processInfo.environment["SIGNET_FUZZ_TARGET"] ?? ""
        guard let target = FuzzTarget(rawValue: name) else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
            FileHandle.standardError.write(Data("SIGNET_FUZZ_TARGET must be one of: \(names)\n".utf8))
            exit(2)
        }
        selectedTarget = target
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            selectedTarget.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
            return 0
        })
    }
}
#endif
