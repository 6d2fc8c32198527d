import Foundation

/// Signing keys: the private half encrypted, the public half published in the JWKS.
///
/// Node-local key caches poll `generation()`; every write bumps it in the same transaction.
public protocol SigningKeyStore: Sendable {
    /// Stores a new key. Throws `.duplicate` if a key with the same `id` exists.
    func insertKey(_ key: SigningKeyRecord) throws

    /// Stores `key` only if no stored key of its algorithm can sign at `now` or within
    /// `SigningKeyRecord.firstKeySkew` after it (another node's first key, made a moment later by
    /// its clock), in one atomic step: several nodes starting together on an empty store create
    /// one key per algorithm, not one each. Returns whether it was stored.
    func insertKeyUnlessOneCanSign(_ key: SigningKeyRecord, now: Date) throws -> Bool

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
