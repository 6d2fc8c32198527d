import Foundation
import SignetJOSE
import SignetStore
import SignetWire

/// The UserInfo endpoint (OpenID Connect Core §5.3) as logic: a verified access token in, the
/// user's claims by scope out. Errors are RFC 6750 §3.1 codes for the bearer-error mapping.
public struct UserInfoEndpoint: Sendable {
    let tokens: UserAccessTokenCheck
    /// The current membership of the token's organization.
    let organizations: OrganizationSelection

    /// The claims for the token: `sub`, the `profile`/`email` claims its scope releases, and with
    /// `organization` the token's organization (`org_id`, `org_slug`, `org_roles`) while the user
    /// is still a member.
    ///
    /// - Throws: `invalid_token` for a token that is malformed, not Signet's, expired, for
    ///   another audience, without a user (client credentials), of a revoked grant or a
    ///   disabled user (`UserAccessTokenCheck`); `insufficient_scope` without `openid`.
    public func claims(accessToken: String) throws(OAuthError) -> JSONValue {
        let checked = try tokens.check(accessToken)
        guard checked.scope.contains(Scope.openID) else {
            throw OAuthError(.insufficientScope, "The access token was not granted the openid scope.")
        }
        var claims = UserClaims.claims(for: checked.user, scope: checked.scope)
        claims["sub"] = .string(checked.user.id)
        // The token's organization with the membership as it is now; none once the user left it.
        if checked.scope.contains(Scope.organization), let organizationID = checked.claims["org_id"]?.stringValue {
            let current: OrganizationMembership?
            do { current = try organizations.current(organizationID: organizationID, userID: checked.user.id) } catch {
                throw OAuthError.serverError(detail: "userinfo organization lookup: \(error)")
            }
            if let current {
                for (name, value) in OrganizationSelection.claims(current) { claims[name] = value }
            }
        }
        return .object(claims)
    }
}

extension UserInfoEndpoint {
    /// Creates the endpoint; tokens must name the issuer in `aud`.
    public init(server: AuthorizationServer) {
        self.init(tokens: UserAccessTokenCheck(server: server), organizations: OrganizationSelection(server: server))
    }
}
