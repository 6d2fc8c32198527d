import Foundation

// SignetBench: the measuring half of `make bench` (scripts/bench.sh drives it and the outside
// tools: wrk, nginx, openssl). Usage: SignetBench SUBCOMMAND [--option value ...]

let arguments = Array(CommandLine.arguments.dropFirst())
let usage = "usage: SignetBench SUBCOMMAND [options]\n" + BenchCommand.all.map { "  " + $0.summary }.joined(separator: "\n")

guard let name = arguments.first, let command = BenchCommand.all.first(where: { $0.name == name }) else {
    FileHandle.standardError.write(Data((usage + "\n").utf8))
    exit(arguments.first.map { ["-h", "--help", "help"].contains($0) } == true ? 0 : 2)
}
do {
    exit(try command.run(Array(arguments.dropFirst())))
} catch let error as BenchUsageError {
    FileHandle.standardError.write(Data("SignetBench \(name): \(error)\n".utf8))
    exit(2)
} catch {
    FileHandle.standardError.write(Data("SignetBench \(name): \(error)\n".utf8))
    exit(1)
}
