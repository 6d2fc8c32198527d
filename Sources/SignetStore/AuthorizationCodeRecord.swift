import Foundation
import SignetMacros

/// An authorization code as stored: only its keyed hash, and what the token endpoint must check.
@MemberwiseInit
public struct AuthorizationCodeRecord: Sendable, Equatable {
    /// Keyed hash of the code.
    public var codeHash: [UInt8]
    /// The client the code was issued to.
    public var clientID: String
    /// The signed-in user (`sub`).
    public var userID: String
    /// The exact redirect URI of the request.
    public var redirectURI: String
    /// Granted scope, space separated.
    public var scope: String
    /// PKCE S256 challenge, if the request carried one.
    public var codeChallenge: String? = nil
    /// OIDC nonce, if the request carried one.
    public var nonce: String? = nil
    /// RFC 8707 resources (the access tokens' audiences), space separated, if any.
    public var resource: String? = nil
    /// When the user authenticated (`auth_time`).
    public var authTime: Date
    /// The SSO session the code came from (`sid`), if any.
    public var sessionID: String? = nil
    /// The grant family every token issued from this code belongs to; created by the caller.
    public var grantID: String
    /// Anything else the token endpoint needs, as JSON; opaque to the store.
    public var payload: String = "{}"
    /// When the code was issued.
    public var createdAt: Date
    /// When the code expires (5 minutes after issue by default).
    public var expiresAt: Date
    /// When the code was redeemed, or nil.
    public var consumedAt: Date? = nil
    /// The organization the authorization chose (scope `organization`), or nil.
    public var organizationID: String? = nil
}
