import Foundation
import SignetClientCore

/// A one-time nonce from Signet's `native_nonce_endpoint`, for native ID-token sign-in: the app
/// hands it to the platform's sign-in sheet, then exchanges the ID token it gets back
/// (`SignInClient.exchangeNativeIDToken`). Signet accepts it once, for this client, until it
/// expires.
///
/// Google (Android Credential Manager, `GetGoogleIdOption.Builder().setNonce(...)`) puts `value`
/// itself into the ID token; Apple (`ASAuthorizationAppleIDRequest.nonce`) expects its SHA-256,
/// `sha256Hex`. `description` is redacted.
public struct NativeSignInNonce: Sendable, Equatable, CustomStringConvertible {
    /// The raw nonce (`sgn_…`). Secret until used.
    public let value: String
    /// When Signet stops accepting it (from `expires_in` at receipt).
    public let expiresAt: Date

    /// A nonce as received.
    public init(value: String, expiresAt: Date) {
        self.value = value
        self.expiresAt = expiresAt
    }

    /// SHA-256 of `value`, lowercase hex: what Apple's request takes as its `nonce`.
    public var sha256Hex: String { RandomToken.sha256Hex(value) }

    /// Redacted.
    public var description: String { "NativeSignInNonce(redacted, expiresAt: \(expiresAt))" }
}
