import Foundation
import SignetJOSE
import SignetStore
import SignetWire

/// The UserInfo endpoint (OpenID Connect Core §5.3) as logic: a verified access token in, the
/// user's claims by scope out. Errors are RFC 6750 §3.1 codes for the bearer-error mapping.
public struct UserInfoEndpoint: Sendable {
    let verifier: AccessTokenVerifier
    let refreshTokens: any RefreshTokenStore
    let users: any UserStore
    let clock: any Clock

    /// The claims for the token: `sub` and the `profile`/`email` claims its scope releases.
    ///
    /// - Throws: `invalid_token` for a token that is malformed, not Signet's, expired, for
    ///   another audience, without a user (client credentials), of a revoked grant or a
    ///   disabled user; `insufficient_scope` without `openid`.
    public func claims(accessToken: String) throws(OAuthError) -> JSONValue {
        let jwt: VerifiedJWT
        do { jwt = try verifier.verify(accessToken) } catch {
            throw OAuthError(.invalidToken, "The access token is invalid or expired.", detail: "\(error)")
        }
        // Client-credentials tokens carry no grant and no user.
        guard let grantID = jwt.claims["gid"]?.stringValue, let subject = jwt.claims.sub else {
            throw OAuthError(.invalidToken, "The access token does not represent a user.")
        }
        let user: UserRecord?
        do {
            guard try refreshTokens.isGrantActive(id: grantID, now: clock.now) else {
                throw OAuthError(.invalidToken, "The access token has been revoked.")
            }
            user = try users.user(id: subject)
        } catch let error as OAuthError {
            throw error
        } catch {
            throw OAuthError.serverError(detail: "userinfo lookup: \(error)")
        }
        guard let user, user.disabledAt == nil else { throw OAuthError(.invalidToken, "The access token is invalid or expired.") }
        let scope = (jwt.claims["scope"]?.stringValue).flatMap { try? Scope(parsing: $0) } ?? Scope([String]())
        guard scope.contains(Scope.openID) else {
            throw OAuthError(.insufficientScope, "The access token was not granted the openid scope.")
        }
        var claims = UserClaims.claims(for: user, scope: scope)
        claims["sub"] = .string(user.id)
        return .object(claims)
    }
}

extension UserInfoEndpoint {
    /// Creates the endpoint; tokens must name the issuer in `aud`.
    public init(server: AuthorizationServer) {
        self.init(verifier: AccessTokenVerifier(server: server, audience: server.policy.issuer),
                  refreshTokens: server.storage.refreshTokens, users: server.storage.users, clock: server.clock)
    }
}
