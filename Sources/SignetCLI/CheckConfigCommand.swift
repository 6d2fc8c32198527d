import SignetServer

/// `signet check-config FILE`: reports every mistake, or confirms the file is valid.
enum CheckConfigCommand {
    static func run(_ raw: [String]) throws -> Int32 {
        let arguments = try ParsedArguments(raw, options: ["config"], flags: [])
        guard let path = arguments.positionals.first ?? arguments.value("config") else {
            throw UsageError("give the configuration file: signet check-config FILE")
        }
        do {
            let configuration = try SignetConfiguration(contentsOf: path)
            Output.print("\(path): valid (issuer \(configuration.issuer))")
            return 0
        } catch {
            Output.error("\(path): \(error.issues.count) mistake\(error.issues.count == 1 ? "" : "s")")
            for issue in error.issues { Output.error("  \(issue)") }
            return 78
        }
    }
}
