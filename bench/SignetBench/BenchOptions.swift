/// The `--name value` options of one SignetBench subcommand, parsed once.
struct BenchOptions {
    private var values: [String: String] = [:]

    /// Parses `--name value` pairs; anything else is a usage error.
    init(_ arguments: [String]) throws(BenchUsageError) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            guard argument.hasPrefix("--"), index + 1 < arguments.count else {
                throw BenchUsageError("expected --name value, got \(argument)")
            }
            values[String(argument.dropFirst(2))] = arguments[index + 1]
            index += 2
        }
    }

    /// The raw value of `--name`, if given.
    func string(_ name: String) -> String? { values[name] }

    /// `--name` as a number, or `fallback` when absent.
    func double(_ name: String, default fallback: Double) throws(BenchUsageError) -> Double {
        guard let raw = values[name] else { return fallback }
        guard let value = Double(raw), value > 0 else { throw BenchUsageError("--\(name) needs a positive number") }
        return value
    }

    /// `--name` as a whole number, or `fallback` when absent.
    func int(_ name: String, default fallback: Int) throws(BenchUsageError) -> Int {
        guard let raw = values[name] else { return fallback }
        guard let value = Int(raw), value > 0 else { throw BenchUsageError("--\(name) needs a positive whole number") }
        return value
    }

    /// Rejects options the subcommand does not know (typos would otherwise be silently ignored).
    func allowOnly(_ names: Set<String>) throws(BenchUsageError) {
        if let unknown = values.keys.sorted().first(where: { !names.contains($0) }) {
            throw BenchUsageError("unknown option --\(unknown)")
        }
    }
}

/// A bad SignetBench command line.
struct BenchUsageError: Error, CustomStringConvertible {
    /// What was wrong.
    let description: String

    init(_ description: String) { self.description = description }
}
