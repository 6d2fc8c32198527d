import Foundation

/// An RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0 §2) ready to open: the
/// end-session URL with `id_token_hint`, `post_logout_redirect_uri` and a fresh `state`, and the
/// checks for the redirect that comes back.
public struct LogoutRequest: Sendable, CustomStringConvertible {
    /// The end-session URL to open in the system browser.
    public let url: URL
    /// The `state` sent (32 random bytes); the post-logout redirect must return it exactly.
    public let state: String
    /// Where the server sends the browser afterwards (registered exactly, as sent).
    public let postLogoutRedirectURI: String

    /// Redacted (the URL carries the ID token).
    public var description: String { "LogoutRequest(postLogoutRedirectURI: \(postLogoutRedirectURI))" }

    /// Checks the post-logout redirect: the address equals `postLogoutRedirectURI`, the query
    /// parses without repeats, and `state` is present and equal (constant-time; RFC 6749 §10.12's
    /// rule, which RP-Initiated Logout §3 applies to `state`: a missing state is never a match).
    public func validate(_ callback: URL) throws(SignInError) {
        let (base, query) = AuthorizationCallback.split(callback.absoluteString)
        guard base == postLogoutRedirectURI else {
            throw .unexpectedRedirect(AuthorizationCallback.mismatch(base, postLogoutRedirectURI))
        }
        guard let parameters = QueryEncoding.decode(query ?? "") else { throw .malformedCallback }
        guard let returned = parameters["state"] else { throw .missingState }
        guard AuthorizationCallback.constantTimeEqual(returned, state) else { throw .stateMismatch }
    }

    /// Whether `url` is this logout's redirect (for listeners that pick the one they accept).
    public func isAddressed(_ url: URL) -> Bool {
        do {
            try validate(url)
            return true
        } catch {
            return false
        }
    }
}
