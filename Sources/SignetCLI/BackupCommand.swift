import Foundation
import SignetServer
import SignetSQLite

/// `signet backup --to FILE`: a consistent copy of the SQLite database (SQLite's online backup
/// API), safe while `signet serve` runs; refuses to overwrite FILE, writes it with mode 0600.
/// PostgreSQL installations use `pg_dump` instead.
enum BackupCommand {
    static let usage = """
    usage: signet backup --to FILE [--config FILE | --data DIR]

      Copies the SQLite database into FILE (a new file, mode 0600; an existing one is never
      overwritten) with SQLite's online backup API, while the server keeps running. The copy is a
      single file with no -wal or -shm. It holds the signing keys and client secrets only
      encrypted or hashed under the master key: keep the master key (data folder's master.key or
      the configured reference) with it, separately. Restore: docs/operations.md, "Backup and
      restore". With database.driver "postgres", use pg_dump instead.
    """

    static func run(_ raw: [String]) throws -> Int32 {
        let arguments = try ParsedArguments(raw, options: CommonOptions.valued.union(["to"]), flags: ["help"])
        if arguments.flag("help") {
            Output.print(usage)
            return 0
        }
        guard arguments.positionals.isEmpty else { throw UsageError("unexpected argument \(arguments.positionals[0])") }
        let configuration = try CommonOptions.configuration(arguments)
        if configuration.database.driver == .postgres {
            Output.error("""
                signet backup: the database is PostgreSQL; back it up with pg_dump, e.g.
                  pg_dump --format=custom --file=signet.dump "$DATABASE_URL"
                and restore with pg_restore (docs/operations.md, "Backup and restore").
                """)
            return 69
        }
        guard let destination = arguments.value("to") else { throw UsageError("--to FILE is required\n\n\(usage)") }
        let source = configuration.databaseFilePath
        do {
            let bytes = try SQLiteBackup.copy(from: source, to: destination)
            Output.print("backed up \(source) to \(destination) (\(bytes) bytes, mode 0600)")
            return 0
        } catch {
            Output.error("signet backup: \(error.description)")
            return 1
        }
    }
}
