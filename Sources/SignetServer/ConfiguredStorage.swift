import Foundation
import SignetPostgres
import SignetSQLite
import SignetStore

/// The store `database.driver` names: SQLite in the data folder, or PostgreSQL through the
/// connection string `database.url` points at. The server and every admin command open it here.
public enum ConfiguredStorage {
    /// One node's SQLite file.
    case sqlite(SQLiteStorage)
    /// A PostgreSQL database several nodes may share.
    case postgres(PostgresStorage)

    /// Opens the configured store. With `migrate` pending migrations are applied (both backends
    /// refuse a schema newer than this build either way).
    public static func open(_ configuration: SignetConfiguration, migrate: Bool) throws -> ConfiguredStorage {
        if configuration.database.driver == .postgres {
            let conninfo = try postgresConninfo(configuration)
            return .postgres(try PostgresStorage(conninfo: conninfo, migrate: migrate,
                                                 maxConnections: configuration.database.maxConnections,
                                                 statementTimeout: TimeInterval(configuration.database.statementTimeoutSeconds)))
        }
        let readers = SignetApplication.sqliteReaders(configuration, cores: ProcessInfo.processInfo.activeProcessorCount)
        return .sqlite(try SQLiteStorage(path: configuration.databaseFilePath, migrate: migrate, maxIdleReaders: readers,
                                         synchronous: configuration.database.synchronous))
    }

    /// The connection string from `database.url`; it may hold a password, so it is never printed.
    static func postgresConninfo(_ configuration: SignetConfiguration) throws(ConfigurationIssue) -> String {
        guard let reference = configuration.database.url else {
            throw ConfigurationIssue(path: "database.url", message: "is required with driver \"postgres\"")
        }
        let bytes: [UInt8]
        do { bytes = try reference.resolve(relativeTo: configuration.dataDirectory) } catch {
            throw ConfigurationIssue(path: "database.url", message: error.message)
        }
        let conninfo = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !conninfo.isEmpty else { throw ConfigurationIssue(path: "database.url", message: "the connection string is empty") }
        return conninfo
    }

    /// The store.
    public var storage: any SignetStorage {
        switch self {
        case .sqlite(let store): store
        case .postgres(let store): store
        }
    }

    /// Applies pending migrations; returns the versions applied.
    public func migrate() throws -> [Int] {
        switch self {
        case .sqlite(let store): try store.migrate()
        case .postgres(let store): try store.migrate()
        }
    }

    /// The schema version of the database.
    public func currentVersion() throws -> Int {
        switch self {
        case .sqlite(let store): try store.currentVersion()
        case .postgres(let store): try store.currentVersion()
        }
    }
}
