// Apple platforms only: on Linux this file compiles to nothing (SecretServiceTokenStorage is the
// Linux keyring). Not built or tested in this repository's CI, which runs on Linux.
#if canImport(Security)
import Foundation
import Security
import SignetKit

/// Token storage in the Keychain: one generic-password item per key (service = `service`,
/// account = the key), readable only on this device.
///
/// With `requiresUserPresence`, items get an access control (`.userPresence`, only while a
/// passcode is set): reading the stored tokens, the refresh token included, asks for Face ID,
/// Touch ID or the device passcode.
public final class KeychainTokenStorage: TokenStorage {
    /// The item's service, usually the app's bundle identifier.
    public let service: String
    /// A keychain access group to share the items with the app's extensions, if any.
    public let accessGroup: String?
    /// Whether reading an item requires biometrics or the device passcode.
    public let requiresUserPresence: Bool

    /// A storage for `service`; no Keychain call happens until the first use.
    public init(service: String, accessGroup: String? = nil, requiresUserPresence: Bool = false) {
        self.service = service
        self.accessGroup = accessGroup
        self.requiresUserPresence = requiresUserPresence
    }

    /// The service and access group: two storages for them share their sessions.
    public var storageIdentity: String? { "keychain:" + service + "\n" + (accessGroup ?? "") }

    /// The bytes stored under `key`, or nil when there is no item.
    public func read(_ key: String) throws(TokenStorageError) -> [UInt8]? {
        var query = baseQuery(key)
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess, let data = result as? Data else { throw Self.failure("read", status) }
        return Array(data)
    }

    /// Stores (replaces) the item for `key`.
    public func write(_ key: String, _ value: [UInt8]) throws(TokenStorageError) {
        let deleted = SecItemDelete(baseQuery(key) as CFDictionary)
        guard deleted == errSecSuccess || deleted == errSecItemNotFound else { throw Self.failure("replace", deleted) }
        var attributes = baseQuery(key)
        attributes[kSecValueData as String] = Data(value)
        if requiresUserPresence {
            var error: Unmanaged<CFError>?
            guard let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
                                                               .userPresence, &error) else {
                error?.release()
                throw TokenStorageError("Keychain access control could not be created")
            }
            attributes[kSecAttrAccessControl as String] = access
        } else {
            attributes[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        }
        let status = SecItemAdd(attributes as CFDictionary, nil)
        guard status == errSecSuccess else { throw Self.failure("write", status) }
    }

    /// Removes the item for `key`; no error when there is none.
    public func remove(_ key: String) throws(TokenStorageError) {
        let status = SecItemDelete(baseQuery(key) as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw Self.failure("remove", status) }
    }

    private func baseQuery(_ key: String) -> [String: Any] {
        var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                    kSecAttrService as String: service, kSecAttrAccount as String: key]
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        return query
    }

    private static func failure(_ operation: String, _ status: OSStatus) -> TokenStorageError {
        TokenStorageError("Keychain \(operation) failed: OSStatus \(status)")
    }
}
#endif
