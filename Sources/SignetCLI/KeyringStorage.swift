import Foundation
import SignetKit

/// The keyring `signet login` uses when there is one.
enum KeyringStorage {
    /// The Secret Service storage when a D-Bus session bus is reachable; nil otherwise.
    static func available() -> (any TokenStorage)? {
        nil
    }
}
