import Foundation
import SignetKit

/// Token storage in the freedesktop.org Secret Service (gnome-keyring, KeePassXC, KWallet's
/// bridge) through libsecret: the Linux counterpart of the Keychain.
///
/// Each key is one item of the schema `dev.signet.TokenStorage` with the attributes `service`
/// (this storage's namespace) and `key`, in the default collection; values are stored as
/// base64 text (libsecret's password API carries text, SignetKit's values are bytes).
///
/// The calls are synchronous D-Bus round trips (libsecret's `*_sync` API); call them off the main
/// thread in a UI app. `SecretServiceTokenStorage.available(service:)` checks that a session bus
/// exists and a Secret Service answers on it before an app relies on it.
public final class SecretServiceTokenStorage: TokenStorage {
    /// The namespace of this storage's items (the `service` attribute), e.g. the app's name.
    public let service: String

    /// A storage whose items carry `service`. No D-Bus call happens until the first use.
    public init(service: String = "signet") {
        self.service = service
    }

    /// A storage for `service` when `DBUS_SESSION_BUS_ADDRESS` is set and a Secret Service
    /// answers a lookup on that bus; nil otherwise (no desktop session, no keyring daemon).
    public static func available(service: String = "signet",
                                 environment: [String: String] = ProcessInfo.processInfo.environment) -> SecretServiceTokenStorage? {
        guard let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty else { return nil }
        let storage = SecretServiceTokenStorage(service: service)
        do {
            _ = try storage.lookup(key: "signet-probe")
            return storage
        } catch {
            return nil
        }
    }

    /// The service: two storages for one service share their sessions.
    public var storageIdentity: String? { "secret-service:" + service }

    /// The bytes stored under `key`, or nil when there is no item.
    public func read(_ key: String) throws(TokenStorageError) -> [UInt8]? {
        guard let text = try lookup(key: key) else { return nil }
        guard let data = Data(base64Encoded: text) else {
            throw TokenStorageError("the Secret Service item for \(key) is not base64")
        }
        return Array(data)
    }

    /// Stores (replaces) the item for `key`.
    public func write(_ key: String, _ value: [UInt8]) throws(TokenStorageError) {
        try store(key: key, text: Data(value).base64EncodedString(), label: "Signet (\(service)): \(key)")
    }

    /// Removes the item for `key`; no error when there is none.
    public func remove(_ key: String) throws(TokenStorageError) {
        try clear(key: key)
    }
}
