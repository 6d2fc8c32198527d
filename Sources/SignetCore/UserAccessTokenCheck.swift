import Foundation
import SignetJOSE
import SignetStore
import SignetWire

/// The checks of an access token that acts for a user (RFC 6750 §3.1 codes), shared by the
/// UserInfo endpoint and `DELETE /account`: Signet's signature, unexpired, for the issuer, with a
/// grant that is still active, and a user who exists and is enabled.
public struct UserAccessTokenCheck: Sendable {
    let verifier: AccessTokenVerifier
    let users: any UserStore
    let clock: any Clock

    /// What a checked token says.
    public struct Checked: Sendable {
        /// The verified token's claims.
        public let claims: JWTClaims
        /// The token's user, enabled.
        public let user: UserRecord
        /// The token's scope.
        public let scope: Scope
        /// The token's `client_id` (RFC 9068 §2.2).
        public let clientID: String?
    }

    /// Checks `accessToken`.
    ///
    /// - Throws: `invalid_token` for a token that is malformed, not Signet's, expired, for another
    ///   audience, without a user (client credentials), of a revoked grant or a disabled user.
    public func check(_ accessToken: String) throws(OAuthError) -> Checked {
        let jwt: VerifiedJWT
        do { jwt = try verifier.verify(accessToken) } catch {
            throw OAuthError(.invalidToken, "The access token is invalid or expired.", detail: "\(error)")
        }
        // Client-credentials tokens carry no grant and no user.
        guard let grantID = jwt.claims["gid"]?.stringValue, let subject = jwt.claims.sub else {
            throw OAuthError(.invalidToken, "The access token does not represent a user.")
        }
        let found: (grantActive: Bool, user: UserRecord?)
        do { found = try users.user(id: subject, ifGrantActive: grantID, now: clock.now) } catch {
            throw OAuthError.serverError(detail: "access token lookup: \(error)")
        }
        guard found.grantActive else { throw OAuthError(.invalidToken, "The access token has been revoked.") }
        let user = found.user
        guard let user, user.disabledAt == nil else { throw OAuthError(.invalidToken, "The access token is invalid or expired.") }
        let scope = (jwt.claims["scope"]?.stringValue).flatMap { try? Scope(parsing: $0) } ?? Scope([String]())
        return Checked(claims: jwt.claims, user: user, scope: scope, clientID: jwt.claims["client_id"]?.stringValue)
    }
}

extension UserAccessTokenCheck {
    /// The check for tokens whose `aud` is the issuer.
    public init(server: AuthorizationServer) {
        self.init(verifier: AccessTokenVerifier(server: server, audience: server.policy.issuer),
                  users: server.storage.users, clock: server.clock)
    }
}
