import Foundation
import SignetCrypto

/// The 32-byte root secret of a Signet installation.
///
/// It is never used directly: purpose-bound subkeys are derived with HMAC-SHA-256, one to encrypt
/// signing keys at rest, one to seal outbox mail, one to key the hashes under which tokens are stored,
/// one to chain the audit trail.
public struct MasterKey: Sendable, CustomStringConvertible {
    private let bytes: [UInt8]

    /// Accepts 32 raw bytes, 64 hex digits or base64 of 32 bytes (surrounding whitespace ignored).
    public init(material: [UInt8]) throws(CryptoError) {
        if material.count == 32 {
            bytes = material
            return
        }
        let text = String(decoding: material, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if text.count == 64, let decoded = Hex.decode(text.utf8) {
            bytes = decoded
        } else if let data = Data(base64Encoded: text), data.count == 32 {
            bytes = [UInt8](data)
        } else {
            throw CryptoError("the master key must be 32 bytes: 64 hex digits or base64")
        }
    }

    /// A new random key, as the 64 hex digits to store.
    public static func generateHex(random: some RandomSource) -> String {
        Hex.encode(random.bytes(32))
    }

    /// The key that encrypts signing keys at rest (AES-256-GCM).
    public var keyEncryptionKey: [UInt8] { HMAC.sha256(key: bytes, message: Array("signet/v1/key-encryption".utf8)) }

    /// The key that seals outbox mail at rest (AES-256-GCM): its codes and links are secrets.
    public var mailEncryptionKey: [UInt8] { HMAC.sha256(key: bytes, message: Array("signet/v1/mail-encryption".utf8)) }

    /// The key that seals TOTP secrets at rest (AES-256-GCM) and keys the recovery codes' hashes
    /// and the second-factor throttle's counter names (HMAC-SHA-256, under labels of their own).
    public var secondFactorKey: [UInt8] { HMAC.sha256(key: bytes, message: Array("signet/v1/second-factor".utf8)) }

    /// The key of the HMAC under which codes, tokens, sessions and nonces are stored.
    public var tokenHashKey: [UInt8] { HMAC.sha256(key: bytes, message: Array("signet/v1/token-hash".utf8)) }

    /// The key that derives a rotated refresh token's successor from the presented token.
    public var refreshDerivationKey: [UInt8] { HMAC.sha256(key: bytes, message: Array("signet/v1/refresh-successor".utf8)) }

    /// The key that seals upstream tokens kept for revocation at account deletion (AES-256-GCM).
    public var upstreamTokenKey: [UInt8] { HMAC.sha256(key: bytes, message: Array("signet/v1/upstream-token".utf8)) }

    /// The key of the HMAC that chains the audit trail (`AuditChain.keyedHash(of:key:)`), so
    /// rewriting the trail takes this key as well as the database.
    public var auditChainKey: [UInt8] { HMAC.sha256(key: bytes, message: Array("signet/v1/audit-chain".utf8)) }

    /// The key that signs CSRF tokens and other short-lived browser values.
    public var browserKey: [UInt8] { HMAC.sha256(key: bytes, message: Array("signet/v1/browser".utf8)) }

    /// The built-in console client's secret (`ConsoleClient`): the same on every node sharing
    /// this key, never stored or shown.
    public var consoleClientSecret: String {
        "sgcs_" + Base64URL.encode(HMAC.sha256(key: bytes, message: Array("signet/v1/console-client".utf8)))
    }

    /// Redacted.
    public var description: String { "MasterKey(<redacted>)" }

}
