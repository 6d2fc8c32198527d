import Foundation
import SignetKit
import SignetKitSecretService

/// The keyring `signet login` uses when there is one.
enum KeyringStorage {
    /// The Secret Service storage (libsecret; items of service `signet-login`) when a D-Bus
    /// session bus is set in the environment and a Secret Service answers on it; nil otherwise.
    static func available() -> (any TokenStorage)? {
        SecretServiceTokenStorage.available(service: "signet-login")
    }
}
