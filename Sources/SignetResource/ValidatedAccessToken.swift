import Foundation
import SignetJOSE

/// An access token that passed every check: who it is for and what it allows.
public struct ValidatedAccessToken: Sendable {
    /// `sub`: the user (or, for client credentials, the client).
    public let subject: String
    /// `client_id`: the client the token was issued to.
    public let clientID: String?
    /// The granted scopes.
    public let scopes: Set<String>
    /// `exp`.
    public let expiresAt: Date?
    /// All claims (from the JWT, or from introspection).
    public let claims: JWTClaims

    /// Reads the typed members from claims.
    public init(claims: JWTClaims) {
        self.claims = claims
        self.subject = claims.sub ?? ""
        self.clientID = claims["client_id"]?.stringValue
        self.scopes = Set((claims["scope"]?.stringValue ?? "").split(separator: " ").map(String.init))
        self.expiresAt = claims.exp
    }
}
