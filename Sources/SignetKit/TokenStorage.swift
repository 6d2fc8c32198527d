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
    /// Names the place the values live: two storages with the same identity read and write the
    /// same values (two `FileTokenStorage`s on one folder), so SignetKit gives their sessions one
    /// shared `AuthState`. Classes default to the object's identity; nil (the default for other
    /// types) shares nothing beyond the one value.
    var storageIdentity: String? { get }
}

extension TokenStorage {
    /// No identity: sessions are shared only through the same storage value.
    public var storageIdentity: String? { nil }
}

extension TokenStorage where Self: AnyObject {
    /// This object's identity.
    public var storageIdentity: String? { "\(type(of: self))@\(UInt(bitPattern: ObjectIdentifier(self)))" }
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
