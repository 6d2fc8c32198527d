/// Command-line arguments split into positionals, valued options and flags.
///
/// Options are `--name VALUE` or `--name=VALUE`; flags are `--name`. Unknown options are errors,
/// so a typo never silently changes what a command does.
struct ParsedArguments {
    /// Arguments that are not options, in order.
    var positionals: [String] = []
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []

    /// Parses `arguments` given the options that take a value and the flags a command knows.
    init(_ arguments: [String], options: Set<String>, flags knownFlags: Set<String>) throws(UsageError) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                positionals.append(contentsOf: arguments[index...])
                break
            }
            guard argument.hasPrefix("--"), argument.count > 2 else {
                positionals.append(argument)
                continue
            }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if options.contains(name) {
                if let inlineValue {
                    values[name, default: []].append(inlineValue)
                } else {
                    guard index < arguments.count else { throw UsageError("--\(name) needs a value") }
                    values[name, default: []].append(arguments[index])
                    index += 1
                }
            } else if knownFlags.contains(name), inlineValue == nil {
                flags.insert(name)
            } else {
                throw UsageError("unknown option --\(name)")
            }
        }
    }

    /// The last value given for an option.
    func value(_ name: String) -> String? { values[name]?.last }

    /// Every value given for a repeatable option.
    func all(_ name: String) -> [String] { values[name] ?? [] }

    /// True when the flag was given.
    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// An integer option, checked.
    func integer(_ name: String) throws(UsageError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text) else { throw UsageError("--\(name) must be a whole number") }
        return number
    }
}

/// A mistake in how a command was invoked.
struct UsageError: Error, CustomStringConvertible {
    /// What was wrong.
    let message: String
    init(_ message: String) { self.message = message }
    /// The message.
    var description: String { message }
}
