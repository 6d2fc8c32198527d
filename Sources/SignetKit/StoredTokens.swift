import Foundation

/// The tokens of a signed-in session, as kept in token storage.
///
/// `description` is redacted: tokens never reach a log.
public struct StoredTokens: Sendable, Codable, Equatable, CustomStringConvertible {
    /// The access token. Secret.
    public var accessToken: String
    /// When the access token expires (from `expires_in` at receipt).
    public var accessTokenExpiresAt: Date
    /// The refresh token, when the server issued one (`offline_access`). Secret.
    public var refreshToken: String?
    /// The latest ID token (kept for `id_token_hint` at sign-out). Secret.
    public var idToken: String?
    /// The granted scope.
    public var scope: String?
    /// The signed-in user's `sub`.
    public var subject: String
    /// The user's claims from the ID token (`email`, `name`, …), for display.
    public var claims: [String: String]
    /// Access tokens obtained by refreshing with a `resource` (RFC 8707) or a narrower `scope`:
    /// one per resource (the empty key: a narrowed token for the default audience).
    public var resourceTokens: [String: ResourceAccessToken]

    /// Creates stored tokens.
    public init(accessToken: String, accessTokenExpiresAt: Date, refreshToken: String?, idToken: String?,
                scope: String?, subject: String, claims: [String: String] = [:],
                resourceTokens: [String: ResourceAccessToken] = [:]) {
        self.accessToken = accessToken
        self.accessTokenExpiresAt = accessTokenExpiresAt
        self.refreshToken = refreshToken
        self.idToken = idToken
        self.scope = scope
        self.subject = subject
        self.claims = claims
        self.resourceTokens = resourceTokens
    }

    /// Reads the stored JSON; files written before `resource_tokens` existed have none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = try container.decode(String.self, forKey: .accessToken)
        accessTokenExpiresAt = try container.decode(Date.self, forKey: .accessTokenExpiresAt)
        refreshToken = try container.decodeIfPresent(String.self, forKey: .refreshToken)
        idToken = try container.decodeIfPresent(String.self, forKey: .idToken)
        scope = try container.decodeIfPresent(String.self, forKey: .scope)
        subject = try container.decode(String.self, forKey: .subject)
        claims = try container.decodeIfPresent([String: String].self, forKey: .claims) ?? [:]
        resourceTokens = try container.decodeIfPresent([String: ResourceAccessToken].self, forKey: .resourceTokens) ?? [:]
    }

    /// Whether the access token is still valid for at least `margin` seconds at `now`.
    public func isAccessTokenFresh(at now: Date, margin: TimeInterval) -> Bool {
        accessTokenExpiresAt.timeIntervalSince(now) > margin
    }

    /// Redacted.
    public var description: String {
        "StoredTokens(subject: \(subject), expiresAt: \(accessTokenExpiresAt), refreshToken: \(refreshToken == nil ? "none" : "redacted"))"
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token", accessTokenExpiresAt = "access_token_expires_at"
        case refreshToken = "refresh_token", idToken = "id_token", scope, subject = "sub", claims
        case resourceTokens = "resource_tokens"
    }

    /// The cached access token for `request`: the main one for no resource and no scope, else
    /// the one kept for the resource when it was asked for with the same scope.
    func accessToken(for request: RefreshRequest) -> (value: String, expiresAt: Date)? {
        guard !request.isDefault else { return (accessToken, accessTokenExpiresAt) }
        guard let entry = resourceTokens[request.cacheKey], entry.requestedScope == request.scope else { return nil }
        return (entry.accessToken, entry.expiresAt)
    }
}

/// An access token for one resource (RFC 8707) or a narrowed scope, cached in `StoredTokens`.
public struct ResourceAccessToken: Sendable, Codable, Equatable, CustomStringConvertible {
    /// The access token. Secret.
    public var accessToken: String
    /// When it expires.
    public var expiresAt: Date
    /// The scope asked for (sorted), nil for the grant's whole scope.
    public var requestedScope: [String]?
    /// The scope the server granted, when it said.
    public var scope: String?

    /// Redacted.
    public var description: String { "ResourceAccessToken(expiresAt: \(expiresAt), token: redacted)" }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token", expiresAt = "expires_at", requestedScope = "requested_scope", scope
    }
}

/// What a refresh asks for: an RFC 8707 `resource` and an RFC 6749 §6 narrower `scope`, or
/// neither (the main access token).
struct RefreshRequest: Sendable, Hashable {
    /// The resource, nil for the default audience.
    let resource: String?
    /// The scopes, sorted and without repeats; nil for the grant's whole scope.
    let scope: [String]?

    init(resource: String? = nil, scope: [String]? = nil) {
        self.resource = resource
        self.scope = scope.map { Array(Set($0)).sorted() }
    }

    var isDefault: Bool { resource == nil && scope == nil }
    var cacheKey: String { resource ?? "" }
}
