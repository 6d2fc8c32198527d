import Foundation
import SignetStore
import SignetWire

/// Builds the token response shared by the code, refresh and token-exchange grants: an access
/// token, an ID token when `openid` was granted, and the refresh token when one was issued.
struct TokenResponseBuilder: Sendable {
    let issuer: TokenIssuer

    func build(client: Client, user: UserRecord, scope: Scope, grantID: String, resources: [String], nonce: String?,
               authTime: Date, amr: [String], sessionID: String?, refreshToken: String?,
               organization: OrganizationMembership? = nil) throws -> TokenResponse {
        try build(client: client, subject: user.id, user: user, scope: scope, grantID: grantID, resources: resources,
                  nonce: nonce, authTime: authTime, amr: amr, sessionID: sessionID, refreshToken: refreshToken,
                  organization: organization)
    }

    /// `resources` are the access token's audiences (RFC 8707); none: the issuer.
    /// `user` may be nil only when `scope` has no `openid` (no ID token, so no claims to read).
    /// `organization` adds its claims to both tokens when `scope` holds `organization`.
    func build(client: Client, subject: String, user: UserRecord?, scope: Scope, grantID: String, resources: [String],
               nonce: String?, authTime: Date, amr: [String], sessionID: String?, refreshToken: String?,
               organization: OrganizationMembership? = nil) throws -> TokenResponse {
        let organization = scope.contains(Scope.organization) ? organization : nil
        var content = TokenIssuer.AccessTokenContent(
            subject: subject, clientID: client.id, scope: scope, audience: resources.isEmpty ? [issuer.policy.issuer] : resources,
            grantID: grantID, authTime: authTime, lifetime: client.lifetimes.accessToken)
        content.amr = amr
        content.organization = organization
        let access = try issuer.accessToken(content)
        var idToken: String?
        if scope.contains(Scope.openID) {
            guard let user else { throw OAuthError.serverError(detail: "ID token requested without the user") }
            idToken = try issuer.idToken(.init(user: user, client: client, scope: scope, nonce: nonce, authTime: authTime,
                                               amr: amr, sessionID: sessionID, accessToken: access.token, organization: organization))
        }
        return TokenResponse(accessToken: access.token, expiresIn: access.expiresIn, refreshToken: refreshToken,
                             idToken: idToken, scope: scope.description)
    }
}
