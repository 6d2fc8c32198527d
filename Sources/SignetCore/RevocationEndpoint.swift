import Foundation
import SignetJOSE
import SignetStore
import SignetWire

/// Token revocation (RFC 7009). Revoking a refresh token or an access token revokes its whole
/// grant family, so every token issued from the same authorization stops working.
///
/// RFC 7009 §2.2: an unknown, invalid or already revoked token, or another client's token, gets
/// the same 200 as a success and changes nothing, so the answer reveals nothing.
public struct RevocationEndpoint: Sendable {
    let authenticator: ClientAuthenticator
    let verifier: AccessTokenVerifier
    let refreshTokens: any RefreshTokenStore
    let tokens: OpaqueTokens
    let auditor: Auditor
    let clock: any Clock

    /// Runs a revocation request. Returns normally for every outcome RFC 7009 answers with 200.
    public func handle(_ parameters: RequestParameters, authorization: String?) throws(OAuthError) {
        let client = try authenticator.authenticate(parameters, authorization: authorization)
        let token = try parameters.required("token")
        // RFC 7009 §2.1: the hint only speeds the lookup up; unknown hints are ignored.
        _ = try parameters.single("token_type_hint")
        let now = clock.now
        do {
            if let locator = tokens.refreshLocator(token) {
                guard let record = try refreshTokens.refreshToken(hash: tokens.hash(token), grantID: locator.grantID),
                      let grant = try refreshTokens.grant(id: record.grantID),
                      grant.clientID == client.id else { return }
                if try refreshTokens.revokeGrant(id: grant.grantID, reason: "revoked_by_client", now: now) {
                    auditor.record("token_revoked", actor: "client:\(client.id)", subject: grant.userID, client: client.id,
                                 detail: ["grant": .string(grant.grantID), "token_type": "refresh_token"])
                }
            } else if let jwt = try? verifier.verify(token) {
                guard jwt.claims["client_id"]?.stringValue == client.id, let grantID = jwt.claims["gid"]?.stringValue else { return }
                if try refreshTokens.revokeGrant(id: grantID, reason: "revoked_by_client", now: now) {
                    auditor.record("token_revoked", actor: "client:\(client.id)", subject: jwt.claims.sub, client: client.id,
                                 detail: ["grant": .string(grantID), "token_type": "access_token"])
                }
            }
        } catch {
            throw OAuthError.serverError(detail: "revocation: \(error)")
        }
    }
}

extension RevocationEndpoint {
    /// Creates the endpoint.
    public init(server: AuthorizationServer) {
        // Any audience: a token issued for an RFC 8707 resource can be revoked too.
        self.init(authenticator: ClientAuthenticator(clients: server.clients), verifier: AccessTokenVerifier(server: server, audience: nil),
                  refreshTokens: server.storage.refreshTokens, tokens: server.tokens, auditor: server.auditor, clock: server.clock)
    }
}
