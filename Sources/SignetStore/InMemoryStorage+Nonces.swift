import Foundation

extension InMemoryStorage: NonceStore {
    /// See `NonceStore.insertNonce(nonceHash:clientID:createdAt:expiresAt:)`.
    public func insertNonce(nonceHash: [UInt8], clientID: String, createdAt: Date, expiresAt: Date) throws {
        try state.withLock { s in
            guard s.nonces[nonceHash] == nil else { throw StoreError.duplicate }
            s.nonces[nonceHash] = NonceEntry(clientID: clientID, createdAt: createdAt, expiresAt: expiresAt)
        }
    }

    /// See `NonceStore.consumeNonce(nonceHash:clientID:now:)`.
    public func consumeNonce(nonceHash: [UInt8], clientID: String, now: Date) throws -> Bool {
        state.withLock { s in
            guard let nonce = s.nonces[nonceHash], nonce.clientID == clientID, nonce.consumedAt == nil,
                  now < nonce.expiresAt else { return false }
            s.nonces[nonceHash]?.consumedAt = now
            return true
        }
    }
}
