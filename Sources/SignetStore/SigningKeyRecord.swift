import Foundation
import SignetMacros

/// A signing key as stored: the private key encrypted under the master key, the public JWK in clear.
///
/// Life cycle: published from `createdAt`; signs from `activatesAt` until `retiredAt`; published
/// until `removeAfter`, after which it may be deleted.
@MemberwiseInit
public struct SigningKeyRecord: Sendable, Equatable {
    /// Key id (`kid`), unique.
    public var id: String
    /// JWS algorithm pinned to the key: `RS256`, `PS256`, `ES256` or `EdDSA`.
    public var algorithm: String
    /// Private key, encrypted by the caller under the master key (AEAD output).
    public var encryptedPrivateKey: [UInt8]
    /// Public key as a JWK JSON object.
    public var publicJWK: String
    /// When the key was created (and first published).
    public var createdAt: Date
    /// When the key may start signing; before that it is only published.
    public var activatesAt: Date
    /// When the key stopped signing, or nil while it may sign.
    public var retiredAt: Date? = nil
    /// When the key is unpublished and may be deleted, or nil to keep it.
    public var removeAfter: Date? = nil

    /// Whether the key may sign at `now`.
    public func canSign(at now: Date) -> Bool {
        activatesAt <= now && retiredAt.map { now < $0 } ?? true
    }

    /// How far ahead a key that is about to sign still counts as "a key that can sign" when a
    /// node decides whether to make a first key (nodes' clocks and start-ups differ a little).
    public static let firstKeySkew: TimeInterval = 60

    /// Whether the key signs at `now` or will within `firstKeySkew` (and is not retired by then).
    public func signsSoon(at now: Date) -> Bool {
        activatesAt <= now.addingTimeInterval(Self.firstKeySkew) && retiredAt.map { now < $0 } ?? true
    }

    /// Whether the key belongs in the JWKS at `now`.
    public func isPublished(at now: Date) -> Bool {
        removeAfter.map { now < $0 } ?? true
    }

    /// Where a key stands in its life cycle: the `status` of `signet keys list` and of the admin API.
    public enum Status: String, Sendable, CaseIterable {
        /// Published, signing from `activatesAt` (a rotation's next key).
        case next
        /// Signing.
        case active
        /// No longer signing, still published.
        case retired
        /// Unpublished: past `removeAfter`.
        case removed
    }

    /// The key's status at `now`.
    public func status(at now: Date) -> Status {
        if !isPublished(at: now) { return .removed }
        if canSign(at: now) { return .active }
        return activatesAt > now ? .next : .retired
    }
}

extension SigningKeyRecord: CustomStringConvertible {
    /// Describes the key without its private material.
    public var description: String {
        "SigningKeyRecord(id: \(id), algorithm: \(algorithm), encryptedPrivateKey: <redacted>)"
    }
}
