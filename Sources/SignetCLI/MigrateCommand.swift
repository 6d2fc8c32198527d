import SignetServer

/// `signet migrate`: applies pending schema migrations and prints what it did.
enum MigrateCommand {
    static func run(_ raw: [String]) throws -> Int32 {
        let arguments = try ParsedArguments(raw, options: CommonOptions.valued, flags: [])
        let configuration = try CommonOptions.configuration(arguments)
        let storage = try ConfiguredStorage.open(configuration, migrate: false)
        let applied = try storage.migrate()
        let version = try storage.currentVersion()
        if applied.isEmpty {
            Output.print("schema is up to date (version \(version))")
        } else {
            Output.print("applied migrations \(applied.map(String.init).joined(separator: ", ")); schema version \(version)")
        }
        return 0
    }
}
