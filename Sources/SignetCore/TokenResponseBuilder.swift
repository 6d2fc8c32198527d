import Foundation
import SignetStore
import SignetWire

/// Builds the token response shared by the code and refresh grants: an access token, an ID token
/// when `openid` was granted, and the refresh token when one was issued.
struct TokenResponseBuilder {
    let server: AuthorizationServer

    func build(client: Client, user: UserRecord, scope: Scope, grantID: String, resource: String?, nonce: String?,
               authTime: Date, amr: [String], sessionID: String?, refreshToken: String?) throws -> TokenResponse {
        let access = try server.issuer.accessToken(.init(
            subject: user.id, clientID: client.id, scope: scope, audience: [resource ?? server.policy.issuer],
            grantID: grantID, authTime: authTime, lifetime: client.accessTokenLifetime))
        var idToken: String?
        if scope.contains(Scope.openID) {
            idToken = try server.issuer.idToken(.init(user: user, client: client, scope: scope, nonce: nonce, authTime: authTime,
                                                      amr: amr, sessionID: sessionID, accessToken: access.token))
        }
        return TokenResponse(accessToken: access.token, expiresIn: access.expiresIn, refreshToken: refreshToken,
                             idToken: idToken, scope: scope.description)
    }
}
