import SignetJOSE

/// The organization an access token was issued for: Signet's claims `org_id`, `org_slug` and
/// `org_roles` (scope `organization`, docs/organizations.md), read from a validated token.
public struct TokenOrganization: Sendable, Equatable {
    /// `org_id`: the organization's id (`org_…`), which never changes.
    public let id: String
    /// `org_slug`: its slug at issuance (it can be renamed: compare ids, not slugs).
    public let slug: String?
    /// `org_roles`: the user's roles there (`owner`, `admin`, `member` or custom names).
    public let roles: [String]

    /// The organization of `claims`, or nil when the token carries no `org_id`.
    init?(claims: JWTClaims) {
        guard let id = claims["org_id"]?.stringValue, !id.isEmpty else { return nil }
        self.id = id
        slug = claims["org_slug"]?.stringValue
        roles = claims["org_roles"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }
}

extension ValidatedAccessToken {
    /// The organization the token was issued for, or nil.
    public var organization: TokenOrganization? { TokenOrganization(claims: claims) }

    /// Returns the token's organization, refusing with `insufficient_scope` (RFC 6750 §3.1, scope
    /// `organization` in the challenge) a token of no organization, of another one than
    /// `organizationID` (an id, never a slug: slugs can be renamed) or without one of `anyRole`
    /// (empty: any role).
    @discardableResult
    public func requireOrganization(_ organizationID: String? = nil, anyRole: [String] = [],
                                    realm: String? = nil) throws(BearerError) -> TokenOrganization {
        guard let organization else {
            throw BearerError(.insufficientScope, "the token is not for an organization", scope: "organization", realm: realm)
        }
        if let organizationID, organization.id != organizationID {
            throw BearerError(.insufficientScope, "the token is for another organization", scope: "organization", realm: realm)
        }
        if !anyRole.isEmpty, Set(anyRole).isDisjoint(with: organization.roles) {
            throw BearerError(.insufficientScope, "the user lacks the role this needs in the organization", scope: "organization", realm: realm)
        }
        return organization
    }
}
