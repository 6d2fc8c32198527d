import Foundation
import SignetStore

/// Issues authorization codes (RFC 6749 §4.1.2): an `sgc_` token whose keyed hash is stored with
/// everything the token endpoint checks, for `policy.authorizationCodeLifetime` seconds.
public struct CodeIssuer: Sendable {
    let server: AuthorizationServer

    /// Creates the issuer.
    public init(server: AuthorizationServer) { self.server = server }

    /// A new code for a checked request and the session that authenticated the user. The code
    /// starts a new grant family (`grantID`).
    public func issue(_ request: AuthorizationRequest, session: ActiveSession) throws -> String {
        let now = server.clock.now
        let code = server.tokens.make(.code)
        let record = AuthorizationCodeRecord(
            codeHash: server.tokens.hash(code), clientID: request.clientID, userID: session.user.id,
            redirectURI: request.redirectURI, scope: request.scope, codeChallenge: request.codeChallenge,
            nonce: request.nonce, resource: request.resource, authTime: session.record.authTime,
            sessionID: session.publicID, grantID: server.newIdentifier(), payload: CodePayload(amr: session.record.amr).json,
            createdAt: now, expiresAt: now.addingTimeInterval(TimeInterval(server.policy.authorizationCodeLifetime)))
        try server.storage.codes.insertCode(record)
        return code
    }
}
