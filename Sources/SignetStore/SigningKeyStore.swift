import Foundation

/// Signing keys: the private half encrypted, the public half published in the JWKS.
///
/// Node-local key caches poll `generation()`; every write bumps it in the same transaction.
public protocol SigningKeyStore: Sendable {
    /// Stores a new key. Throws `.duplicate` if a key with the same `id` exists.
    func insertKey(_ key: SigningKeyRecord) throws

    /// Every stored key, oldest `createdAt` first (ties by id), including retired ones.
    func allKeys() throws -> [SigningKeyRecord]

    /// Stops a key signing at `retiredAt` and unpublishes it after `removeAfter`.
    /// Throws `.notFound` for an unknown id.
    func retireKey(id: String, retiredAt: Date, removeAfter: Date) throws

    /// Deletes every key whose `removeAfter` is before `now`; returns how many were deleted.
    func deleteRemovedKeys(now: Date) throws -> Int

    /// A counter that changes whenever a key is inserted, retired or deleted. Cheap to call.
    func keysGeneration() throws -> Int64
}
