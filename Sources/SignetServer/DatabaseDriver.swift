/// The storage backend `database.driver` names.
public enum DatabaseDriver: String, Sendable, CaseIterable {
    /// SQLite in WAL mode in the data folder: one node.
    case sqlite
    /// PostgreSQL: several stateless nodes share one database.
    case postgres
}
