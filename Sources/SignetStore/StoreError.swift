/// The one error type every Signet store throws.
///
/// Messages never carry secret material: lookups use keyed hashes, and backends bind parameters, so
/// a backend message names at most a table and column.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A record with the same unique key already exists (id, email, hash, ...).
    case duplicate
    /// The record to change, or a record it refers to, does not exist.
    case notFound
    /// Data read back from the backend could not be decoded into a record.
    case corrupt(String)
    /// The backend failed (I/O, statement time limit, constraint other than uniqueness).
    case backend(String)
    /// The database cannot be reached now, and the same request may succeed shortly: the
    /// connection failed or was lost, the server is shutting down or starting up, SQLite stayed
    /// locked past its busy timeout. The server answers 503 with `Retry-After` (`ErrorRenderer`).
    case unavailable(String)

    /// How an `.unavailable` error's description begins, so a layer that kept only the text (an
    /// `OAuthError`'s private detail) can still tell it from other failures.
    public static let unavailableMarker = "store: unavailable"

    /// A short, secret-free description for logs.
    public var description: String {
        switch self {
        case .duplicate: "store: duplicate key"
        case .notFound: "store: not found"
        case .corrupt(let detail): "store: corrupt data: \(detail)"
        case .backend(let detail): "store: backend error: \(detail)"
        case .unavailable(let detail): Self.unavailableMarker + ": \(detail)"
        }
    }
}
