import CLibSecret
import CSecretShims
import SignetKit

/// The libsecret calls: the non-variadic `*v_sync` forms with an attribute table from the shim.
extension SecretServiceTokenStorage {
    /// The stored text for `key`, or nil when there is no item.
    func lookup(key: String) throws(TokenStorageError) -> String? {
        var error: UnsafeMutablePointer<GError>?
        let attributes = signet_secret_attributes(service, key)
        defer { g_hash_table_unref(attributes) }
        let password = secret_password_lookupv_sync(signet_secret_schema(), attributes, nil, &error)
        if let error { throw Self.failure("lookup", error) }
        guard let password else { return nil }
        defer { secret_password_free(password) }   // wipes the memory too
        return String(cString: password)
    }

    /// Stores `text` under `key` in the default collection.
    func store(key: String, text: String, label: String) throws(TokenStorageError) {
        var error: UnsafeMutablePointer<GError>?
        let attributes = signet_secret_attributes(service, key)
        defer { g_hash_table_unref(attributes) }
        let stored = secret_password_storev_sync(signet_secret_schema(), attributes, nil, label, text, nil, &error)
        if let error { throw Self.failure("store", error) }
        guard stored != 0 else { throw TokenStorageError("Secret Service store for \(key) failed") }
    }

    /// Deletes the item for `key`; absent items are not an error.
    func clear(key: String) throws(TokenStorageError) {
        var error: UnsafeMutablePointer<GError>?
        let attributes = signet_secret_attributes(service, key)
        defer { g_hash_table_unref(attributes) }
        _ = secret_password_clearv_sync(signet_secret_schema(), attributes, nil, &error)
        if let error { throw Self.failure("clear", error) }
    }

    /// A storage error from a GError (its message names the service, never a value); frees it.
    static func failure(_ operation: String, _ error: UnsafeMutablePointer<GError>) -> TokenStorageError {
        let message = error.pointee.message.map { String(cString: $0) } ?? "unknown error"
        g_error_free(error)
        return TokenStorageError("Secret Service \(operation) failed: \(message)")
    }
}
