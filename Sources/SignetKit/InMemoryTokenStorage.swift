import Synchronization

/// Token storage that forgets everything when the process ends: for tests and for apps that
/// must not persist a session.
public final class InMemoryTokenStorage: TokenStorage {
    private let values = Mutex<[String: [UInt8]]>([:])

    /// An empty store.
    public init() {}

    /// The bytes under `key`.
    public func read(_ key: String) throws(TokenStorageError) -> [UInt8]? { values.withLock { $0[key] } }

    /// Stores `value` under `key`.
    public func write(_ key: String, _ value: [UInt8]) throws(TokenStorageError) { values.withLock { $0[key] = value } }

    /// Removes `key`.
    public func remove(_ key: String) throws(TokenStorageError) { _ = values.withLock { $0.removeValue(forKey: key) } }

    /// The keys currently stored (for tests).
    public var keys: [String] { values.withLock { Array($0.keys) } }
}
