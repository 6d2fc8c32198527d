import Foundation

/// An authorization code as stored: only its keyed hash, and what the token endpoint must check.
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
    public var codeChallenge: String?
    /// OIDC nonce, if the request carried one.
    public var nonce: String?
    /// RFC 8707 resources (the access tokens' audiences), space separated, if any.
    public var resource: String?
    /// When the user authenticated (`auth_time`).
    public var authTime: Date
    /// The SSO session the code came from (`sid`), if any.
    public var sessionID: String?
    /// The grant family every token issued from this code belongs to; created by the caller.
    public var grantID: String
    /// Anything else the token endpoint needs, as JSON; opaque to the store.
    public var payload: String
    /// When the code was issued.
    public var createdAt: Date
    /// When the code expires (5 minutes after issue by default).
    public var expiresAt: Date
    /// When the code was redeemed, or nil.
    public var consumedAt: Date?
    /// The organization the authorization chose (scope `organization`), or nil.
    public var organizationID: String?

    /// Creates a record.
    public init(codeHash: [UInt8], clientID: String, userID: String, redirectURI: String, scope: String,
                codeChallenge: String? = nil, nonce: String? = nil, resource: String? = nil, authTime: Date,
                sessionID: String? = nil, grantID: String, payload: String = "{}", createdAt: Date,
                expiresAt: Date, consumedAt: Date? = nil, organizationID: String? = nil) {
        self.codeHash = codeHash
        self.clientID = clientID
        self.userID = userID
        self.redirectURI = redirectURI
        self.scope = scope
        self.codeChallenge = codeChallenge
        self.nonce = nonce
        self.resource = resource
        self.authTime = authTime
        self.sessionID = sessionID
        self.grantID = grantID
        self.payload = payload
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.consumedAt = consumedAt
        self.organizationID = organizationID
    }
}
