import Foundation

/// One-time login nonces (native ID-token sign-in): issued by the server, used once.
public protocol NonceStore: Sendable {
    /// Stores a nonce for a client. Throws `.duplicate` if the hash exists.
    func insertNonce(nonceHash: [UInt8], clientID: String, createdAt: Date, expiresAt: Date) throws

    /// Atomically uses the nonce: true for exactly one call if it exists, belongs to `clientID`,
    /// is unused and `now < expiresAt`; false otherwise.
    func consumeNonce(nonceHash: [UInt8], clientID: String, now: Date) throws -> Bool
}
