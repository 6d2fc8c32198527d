import Foundation
import SignetJOSE
import SignetWire

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

    /// `acr` (RFC 9068 §2.2.3.1): the authentication context the user's sign-in met.
    public var acr: String? { claims["acr"]?.stringValue }
    /// `auth_time`: when the user authenticated.
    public var authTime: Date? { claims["auth_time"]?.intValue.map { Date(timeIntervalSince1970: TimeInterval($0)) } }
    /// `amr`: how the user authenticated (RFC 8176).
    public var amr: [String] { claims["amr"]?.arrayValue?.compactMap(\.stringValue) ?? [] }

    /// RFC 9470 step-up: throws `insufficient_user_authentication` (with `acr_values` and
    /// `max_age` in the challenge) unless the token's `acr` is one of `acrValues` (or, for
    /// Signet's own values, a stronger one: `urn:signet:acr:phr` meets a request for `…:mfa`) and
    /// its `auth_time` is at most `maxAge` seconds before `now`. An empty `acrValues` asks no acr.
    public func requireAuthentication(acrValues: [String] = [], maxAge: Int? = nil, now: Date = Date(),
                                      realm: String? = nil) throws(BearerError) {
        if !acrValues.isEmpty {
            let met: Bool
            if let acr, acrValues.contains(acr) {
                met = true
            } else if let acr, let level = AuthenticationLevel(acr: acr), let needed = AuthenticationLevel.requested(acrValues) {
                met = level >= needed
            } else {
                met = false
            }
            guard met else {
                throw .insufficientUserAuthentication("A stronger authentication is required.", acrValues: acrValues,
                                                      maxAge: maxAge, realm: realm)
            }
        }
        if let maxAge {
            guard let authTime, now.timeIntervalSince(authTime) <= TimeInterval(maxAge) else {
                throw .insufficientUserAuthentication("A more recent authentication is required.", acrValues: acrValues,
                                                      maxAge: maxAge, realm: realm)
            }
        }
    }
}
