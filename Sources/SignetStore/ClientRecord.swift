import Foundation
import SignetMacros

/// A registered OAuth client.
@MemberwiseInit
public struct ClientRecord: Sendable, Equatable {
    /// The `client_id`.
    public var id: String
    /// Human-readable name shown on consent pages.
    public var name: String
    /// Keyed hash of the client secret; nil for public clients.
    public var secretHash: [UInt8]? = nil
    /// Salt or key id used for `secretHash`, if the hashing scheme has one.
    public var secretSalt: [UInt8]? = nil
    /// Whether the client is public (no secret, PKCE required).
    public var isPublic: Bool
    /// Whether the client is first-party (consent may be skipped).
    public var firstParty: Bool = false
    /// Registered redirect URIs, exact strings.
    public var redirectURIs: [String] = []
    /// Registered post-logout redirect URIs, exact strings.
    public var postLogoutRedirectURIs: [String] = []
    /// Scopes the client may request.
    public var allowedScopes: [String] = []
    /// Grant types the client may use.
    public var grantTypes: [String] = []
    /// `token_endpoint_auth_method`: `none`, `client_secret_basic` or `client_secret_post`.
    public var tokenEndpointAuthMethod: String
    /// JWS algorithm for ID tokens issued to this client.
    public var idTokenAlgorithm: String = "RS256"
    /// The client's own access-, refresh- and ID-token lifetimes; nil ones are the server's.
    public var lifetimes: ClientTokenLifetimes = ClientTokenLifetimes()
    /// Whether the headless JSON sign-in API may be used with this client.
    public var allowHeadless: Bool = false
    /// RFC 8707 resources (APIs) the client may ask access tokens for, exact URIs; empty: none.
    public var allowedResources: [String] = []
    /// When the client was registered.
    public var createdAt: Date
    /// When the client was last changed.
    public var updatedAt: Date
    /// A JSON object for settings added after this schema; `{}` when empty.
    public var extra: String = "{}"
}

extension ClientRecord: CustomStringConvertible {
    /// Describes the client without its secret hash.
    public var description: String {
        "ClientRecord(id: \(id), name: \(name), isPublic: \(isPublic), secretHash: \(secretHash == nil ? "nil" : "<redacted>"))"
    }
}
