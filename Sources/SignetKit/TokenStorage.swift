/// Where SignetKit keeps what must survive a relaunch: the tokens and the pending sign-in.
///
/// Values are opaque bytes (JSON written by SignetKit) under short keys; an implementation only
/// stores them. Implementations: `InMemoryTokenStorage` (tests), `FileTokenStorage` (opt-in,
/// unprotected), `SecretServiceTokenStorage` (Linux, libsecret) and the Keychain (Apple).
public protocol TokenStorage: Sendable {
    /// The bytes stored under `key`, or nil.
    func read(_ key: String) throws(TokenStorageError) -> [UInt8]?
    /// Stores (replaces) the bytes under `key`.
    func write(_ key: String, _ value: [UInt8]) throws(TokenStorageError)
    /// Removes `key`; no error when it is absent.
    func remove(_ key: String) throws(TokenStorageError)
}

/// A storage failure, with a description that names the store, never the stored value.
public struct TokenStorageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public let message: String
    /// Creates an error.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}
