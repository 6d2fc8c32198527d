#if !SIGNET_LIBFUZZER
import Foundation

/// Without libFuzzer (the normal `swift build`), SignetFuzz replays inputs through the targets:
/// `SignetFuzz [DIR]` runs every file under `DIR/<target>/` (default `fuzz/corpus`) through its
/// target and prints a count per target. `scripts/run-tests.sh` runs it on the committed corpus, so
/// the targets are built and exercised in every test run even without the sanitizer build.
@main
struct CorpusReplay {
    static func main() {
        let root = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "fuzz/corpus"
        let files = FileManager.default
        var total = 0
        for target in FuzzTarget.allCases {
            let folder = "\(root)/\(target.rawValue)"
            guard let names = try? files.contentsOfDirectory(atPath: folder) else {
                print("SignetFuzz: no corpus folder \(folder)")
                exit(1)
            }
            var count = 0
            for name in names.sorted() {
                guard let data = files.contents(atPath: "\(folder)/\(name)") else { continue }
                target.run(Array(data))
                count += 1
            }
            guard count > 0 else {
                print("SignetFuzz: corpus folder \(folder) is empty")
                exit(1)
            }
            print("SignetFuzz: \(target.rawValue): \(count) inputs replayed")
            total += count
        }
        print("SignetFuzz: \(total) inputs, no property broken")
    }
}
#endif
