import Foundation

/// A sign-in ready to be shown to the user: the authorization URL to open and the pending state
/// it was made with (already saved in token storage).
public struct SignInRequest: Sendable, CustomStringConvertible {
    /// The URL to open in the system browser (strictly percent-encoded).
    public let authorizationURL: URL
    /// What the callback is checked against.
    public let pending: PendingSignIn

    /// Whether `url` is this sign-in's callback (same address and `state`): for listeners that
    /// must pick the one callback they accept.
    public func isAddressed(_ url: URL) -> Bool { AuthorizationCallback.isAddressed(url, to: pending) }

    /// Redacted (the URL carries state, nonce and the PKCE challenge).
    public var description: String { "SignInRequest(redirectURI: \(pending.redirectURI))" }
}
